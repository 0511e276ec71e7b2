/**
 * Language Model API failures in one line that names the model and says what the user can do, never a stack, with
 * the kind of the core's ModelError that lm-model.ts throws (the loop ends the run with it; the panel and the Chat
 * view show that line). No core import: only the editor's errors are read here.
 *
 *   LanguageModelError NoPermissions ─▶ auth         (the user declined the editor's consent prompt)
 *   LanguageModelError Blocked       ─▶ api          (quota, rate limit)
 *   LanguageModelError NotFound      ─▶ bad_request  (the model went away: its extension was disabled)
 *   CancellationError / our signal   ─▶ aborted
 *   anything else                    ─▶ api, with the provider's own message
 */
import * as vscode from 'vscode';

/** What lm-model.ts makes a ModelError of. */
export interface LmFailure {
  message: string;
  kind: 'auth' | 'bad_request' | 'api' | 'aborted';
}

const failure = (message: string, kind: LmFailure['kind']): LmFailure => ({ message, kind });

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** "GPT-4o (copilot)": how the editor's own pickers name a model. */
export function modelLabel(model: Pick<vscode.LanguageModelChat, 'name' | 'vendor'>): string {
  return `${model.name || 'the model'} (${model.vendor})`;
}

export function lmFailure(err: unknown, model: Pick<vscode.LanguageModelChat, 'name' | 'vendor'>, aborted: boolean): LmFailure {
  if (aborted || err instanceof vscode.CancellationError) return failure('request aborted', 'aborted');
  const label = modelLabel(model);
  const message = err instanceof Error ? oneLine(err.message) : oneLine(String(err));
  const detail = message ? `: ${message}` : '';
  if (err instanceof vscode.LanguageModelError) {
    switch (err.code) {
      case vscode.LanguageModelError.NoPermissions.name:
        return failure(`Delegate may not use ${label}: access was not granted${detail}. Allow it when the editor asks, or pick another model (Delegate: Choose Model).`, 'auth');
      case vscode.LanguageModelError.Blocked.name:
        return failure(`${label} refused the request (quota or rate limit)${detail}`, 'api');
      case vscode.LanguageModelError.NotFound.name:
        return failure(`${label} is no longer available${detail}. Pick another model (Delegate: Choose Model).`, 'bad_request');
      default: {
        const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${oneLine(err.cause.message)})` : '';
        return failure(`${label} failed${detail}${cause}`, 'api');
      }
    }
  }
  return failure(`${label} failed${detail}`, 'api');
}

/** A model that says it cannot call tools: Delegate's agents work through tools, so say so before asking. */
export function noToolsFailure(model: Pick<vscode.LanguageModelChat, 'name' | 'vendor'>): LmFailure {
  return failure(`${modelLabel(model)} cannot call tools, and Delegate's agents work through tools: pick another model (Delegate: Choose Model, or the Chat view's model picker).`, 'bad_request');
}

/**
 * Whether the model says it can call tools: undefined when it does not say. The 1.95 API has no such
 * field; newer editors put `capabilities.supportsToolCalling` on the model object.
 */
export function supportsToolCalling(model: vscode.LanguageModelChat): boolean | undefined {
  const capabilities = (model as { capabilities?: { supportsToolCalling?: unknown } }).capabilities;
  return typeof capabilities?.supportsToolCalling === 'boolean' ? capabilities.supportsToolCalling : undefined;
}
