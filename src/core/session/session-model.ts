/**
 * The model a session runs on, which setModel may change between prompts, and the ModelAccess every agent reads it
 * through (getters: nothing is assigned into the port):
 *
 *   config.model + ports.model ─▶ current { port, id, window } ◀── setModel (the editor's user picked another one)
 *                                    │
 *   ModelAccess.model / modelId ─────┘   RunConfig.context, Session.context: { window, threshold }
 */
import { DEFAULT_MODEL_ALIASES } from '../agent-files/agent-catalog';
import { contextWindowFor } from '../loop/context-size';
import type { ContextSettings } from '../loop/compact-if-needed';
import type { ModelAccess } from '../loop/types';
import { maxTokensFor } from '../llm/thinking';
import type { ModelPort } from '../llm/types';
import { SESSION_DEFAULTS } from '../settings/defaults';
import { createRunFeatures } from './run-features';
import type { ModelSettings } from './session-config';

export interface SessionModel {
  readonly access: ModelAccess;
  /** The window and compaction threshold of the model in use now. */
  context(): ContextSettings;
  /** The model of the next prompts; `contextWindow` as in ModelSettings (none: from the model table). */
  set(port: ModelPort, modelId: string, contextWindow?: number): void;
}

/** `webSearch`: the session offers the server-side search (the setting, and `web_search` not disallowed). */
export function createSessionModel(settings: ModelSettings, port: ModelPort, webSearch: boolean): SessionModel {
  const current = { port, id: settings.id, window: contextWindowFor(settings.id, settings.contextWindow) };
  const threshold = settings.compactThreshold ?? SESSION_DEFAULTS.compactThreshold;
  const access: ModelAccess = {
    get model() {
      return current.port;
    },
    get modelId() {
      return current.id;
    },
    maxTokensFor: (modelId) => maxTokensFor(modelId, settings.maxTokens),
    thinking: settings.thinking ?? SESSION_DEFAULTS.thinking,
    ...(settings.aliases ? { modelAliases: { ...DEFAULT_MODEL_ALIASES, ...settings.aliases } } : {}),
    features: createRunFeatures([...(webSearch ? ['web_search' as const] : []), 'prompt_cache']),
  };
  return {
    access,
    context: () => ({ window: current.window, threshold }),
    set: (next, modelId, contextWindow) => {
      current.port = next;
      current.id = modelId;
      current.window = contextWindowFor(modelId, contextWindow);
    },
  };
}
