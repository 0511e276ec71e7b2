/**
 * The `delegate.*` settings, read into one typed object. The core parses the session's settings (core/settings/
 * editor-settings.ts: by the setting table's keys, one parse for the resolver and the editor); here only what the
 * editor alone uses: where the model is, which editor model, the result review.
 */
import * as vscode from 'vscode';
import type { VscodeModelSetting } from './lm-catalog';
import { editorFanoutSettings, editorSettings, modelIdOf, type EditorFanoutSettings, type EditorSettings } from '../core/session';

export interface DelegateSettings {
  /** What the session's settings set, as the core's settings resolver takes them. */
  session: EditorSettings;
  /** The model the Anthropic API runs: delegate.model (an alias resolved), else DELEGATE_MODEL, else the default. */
  anthropicModel: string;
  /** `delegate.baseUrl`, else ANTHROPIC_BASE_URL: where the Anthropic adapter sends. */
  baseUrl: string | undefined;
  /** Hold each finished subagent's result for Accept / Edit / Re-run before its parent sees it. */
  reviewSubagentResults: boolean;
  /** Where the model is: auto = anthropic when an API key is set, else the editor's language models. */
  provider: 'auto' | 'anthropic' | 'vscode';
  /** Which of the editor's language models (lm-catalog.ts); empty: the first that can call tools. */
  vscodeModel: VscodeModelSetting;
}

export function readSettings(): DelegateSettings {
  const all = vscode.workspace.getConfiguration();
  const c = vscode.workspace.getConfiguration('delegate');
  const session = editorSettings((key) => all.get<unknown>(key));
  return {
    session,
    anthropicModel: modelIdOf(session.model, process.env),
    baseUrl: session.baseUrl ?? (process.env.ANTHROPIC_BASE_URL?.trim() || undefined),
    reviewSubagentResults: c.get<boolean>('reviewSubagentResults') === true,
    provider: (['anthropic', 'vscode'] as const).find((p) => p === c.get<string>('provider')) ?? 'auto',
    vscodeModel: modelSetting(c.get<unknown>('vscodeModel')),
  };
}

/** `delegate.confirmFanout` and `delegate.confirmAboveUsd`, read at each fan-out (the core parses them). */
export function fanoutSettings(): EditorFanoutSettings {
  const all = vscode.workspace.getConfiguration();
  return editorFanoutSettings((key) => all.get<unknown>(key));
}

/** Only the string fields of `delegate.vscodeModel`; anything else in it is ignored. */
function modelSetting(value: unknown): VscodeModelSetting {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const out: VscodeModelSetting = {};
  for (const key of ['vendor', 'family', 'id'] as const) {
    const field = v[key];
    if (typeof field === 'string' && field.trim()) out[key] = field.trim();
  }
  return out;
}
