/**
 * Why no prompt can run (no key, no editor model, a key the API refused) and the buttons that fix it: one list,
 * read by the panel's setup card, the line under its composer, and the toast the editor shows while the panel is
 * hidden (src/vscode/model-setup.ts). Pure: the webview and the extension both import it.
 *
 *   credentials  delegate.provider auto, no key, no editor model that can call tools ─▶ Set API Key, Use an editor model…
 *   key          delegate.provider anthropic and no key ────────────────────────────────▶ Set API Key, Use an editor model…
 *   model        delegate.provider vscode and no editor model fits ───────────────────▶ Use an editor model… / Use the Anthropic API
 *   rejected     the API answered 401/403 to the key in use ──────────────────────────▶ Set API Key
 *
 * "Use an editor model…" is offered only when the editor has models: a picker of nothing helps no one.
 */

export interface SetupProblem {
  /** `prompt`: the session refused the prompt itself (empty, too big for the model's window): nothing to set up. */
  kind: 'credentials' | 'key' | 'model' | 'rejected' | 'prompt';
  /** One line: what is missing or wrong. */
  message: string;
  /** How many language models the editor offers (whether they can call tools or not). */
  editorModels: number;
}

/** set_api_key: Delegate: Set API Key; choose_model: Delegate: Choose Model; use_anthropic: delegate.provider anthropic (Choose Model's "Anthropic API"), then the key if none is set. */
export type SetupAction = 'set_api_key' | 'choose_model' | 'use_anthropic';

export interface SetupButton {
  action: SetupAction;
  label: string;
}

export function setupButtons(problem: SetupProblem): SetupButton[] {
  const models: SetupButton[] = problem.editorModels > 0 ? [{ action: 'choose_model', label: 'Use an editor model…' }] : [];
  switch (problem.kind) {
    case 'credentials':
    case 'key':
      return [{ action: 'set_api_key', label: 'Set API Key' }, ...models];
    case 'model':
      return [...models, { action: 'use_anthropic', label: 'Use the Anthropic API' }];
    case 'rejected':
      return [{ action: 'set_api_key', label: 'Set API Key' }];
    case 'prompt':
      return [];
  }
}

/** Said under the card's buttons when the editor has no models: what would give it some. */
export const NO_EDITOR_MODELS = 'This editor has no language models. An extension such as GitHub Copilot Chat provides them once you sign in to it.';

/** The problem as a sentence ("Delegate needs … from the editor."). */
export function problemSentence(problem: SetupProblem): string {
  const text = problem.message.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The line under the composer: a few words that fit a 300 px side bar beside their button (the card says it all). */
export function problemBrief(problem: SetupProblem): string {
  switch (problem.kind) {
    case 'credentials':
      return 'No API key or editor model.';
    case 'key':
      return 'No Anthropic API key is set.';
    case 'model':
      return problem.editorModels > 0 ? 'No editor model fits delegate.vscodeModel.' : 'The editor has no language models.';
    case 'rejected': {
      const status = /\((40[13])\b/.exec(problem.message);
      return status ? `The API refused the key (${status[1]}).` : 'The API refused the key.';
    }
    case 'prompt':
      return /too long/.test(problem.message) ? "The prompt is too long for the model's window." : 'The prompt is empty.';
  }
}

/**
 * A run on the Anthropic API that ended on an authentication failure (the core's ModelError: "authentication failed
 * (401): invalid x-api-key — check ANTHROPIC_API_KEY"): the key in use is wrong, whatever the variable it came from.
 */
export function rejectedKey(error: string): SetupProblem | undefined {
  if (!/\b(401|403)\b|authentication_error|authentication failed|permission_error/.test(error)) return undefined;
  const what = error.replace(/ — check \w+.*$/, '').trim();
  const status = /\((40[13])\):\s*(.+)$/.exec(what);
  const message = status ? `The Anthropic API refused the key (${status[1]}: ${status[2]})` : `The Anthropic API refused the key: ${what}`;
  return { kind: 'rejected', message, editorModels: 0 };
}
