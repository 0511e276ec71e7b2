/**
 * First run in the panel: the empty state's setup card, shown while no prompt can run (no Anthropic key and no
 * editor model; the host's `setup` message), with the buttons that fix it — Set API Key, and Use an editor model…
 * only when the editor has models (else one line says what provides them). It goes once the host says a prompt can
 * run (a key saved, a model signed in). Also the styles of the line under the composer (composer-notice.ts).
 *
 *   ┌ 🔑 Set up a model ───────────────────────────┐
 *   │ Delegate needs an Anthropic API key or …     │  role=status: read out when the card appears
 *   │ [Set API Key] [Use an editor model…]         │  native buttons: Tab, Enter, Space
 *   │ This editor has no language models. …        │  (when it has none)
 *   └──────────────────────────────────────────────┘
 */
import { NO_EDITOR_MODELS, problemSentence, setupButtons, type SetupAction, type SetupProblem } from '../src/view-model/setup-problem';
import { codicon, el, setHidden, setText } from './dom';

export class SetupCard {
  readonly element: HTMLElement;
  private readonly reason: HTMLElement;
  private readonly buttons: HTMLElement;
  private readonly none: HTMLElement;
  /** What the buttons show now (rebuilt only when it changes: a focused button keeps its focus). */
  private shown = '';

  constructor(private readonly act: (action: SetupAction) => void) {
    this.element = el('section', 'setup-card');
    const title = el('div', 'setup-title');
    title.id = 'setup-title';
    title.append(codicon('key'), el('span', '', 'Set up a model'));
    this.element.setAttribute('aria-labelledby', title.id);
    this.reason = el('div', 'setup-reason');
    this.reason.setAttribute('role', 'status');
    this.buttons = el('div', 'setup-buttons');
    this.none = el('div', 'setup-none', NO_EDITOR_MODELS);
    this.element.append(title, this.reason, this.buttons, this.none);
    this.element.hidden = true;
  }

  /** A problem shows the card (a conversation of its own hides the whole empty state); none hides it. */
  update(problem: SetupProblem | undefined): void {
    setHidden(this.element, problem === undefined);
    if (!problem) return;
    setText(this.reason, problemSentence(problem));
    setHidden(this.none, problem.editorModels > 0);
    const buttons = setupButtons(problem);
    const key = buttons.map((b) => b.action).join(' ');
    if (key === this.shown) return;
    this.shown = key;
    this.buttons.replaceChildren(
      ...buttons.map((b, i) => {
        const button = el('button', i === 0 ? 'setup-button is-primary' : 'setup-button', b.label);
        button.type = 'button';
        button.dataset.action = b.action;
        button.addEventListener('click', () => this.act(b.action));
        return button;
      }),
    );
  }
}

const CSS = String.raw`
.setup-card {
  margin: 12px 0 0; padding: 8px 10px 10px; border-radius: 4px; line-height: 1.4; color: var(--vscode-foreground);
  background: var(--vscode-editorWidget-background, var(--vscode-input-background));
  border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent));
  border-left: 3px solid var(--vscode-focusBorder);
}
.setup-card[hidden] { display: none; }
.setup-title { display: flex; align-items: center; gap: 6px; font-weight: 600; margin-bottom: 4px; }
.setup-title .codicon { flex: 0 0 auto; }
.setup-buttons, .composer-notice-buttons { display: flex; flex-wrap: wrap; gap: 6px; }
.setup-buttons { margin-top: 8px; }
.setup-button, .composer-notice-button {
  font: inherit; padding: 2px 10px; min-height: 24px; border-radius: 2px; cursor: pointer; white-space: nowrap;
  border: 1px solid var(--vscode-button-border, transparent);
  color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
}
.setup-button:hover, .composer-notice-button:hover { background: var(--vscode-button-secondaryHoverBackground); }
.setup-button.is-primary, .composer-notice-button.is-primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.setup-button.is-primary:hover, .composer-notice-button.is-primary:hover { background: var(--vscode-button-hoverBackground); }
.setup-button:focus-visible, .composer-notice-button:focus-visible, .composer-notice-close:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.setup-none { margin-top: 8px; font-size: 12px; color: var(--vscode-descriptionForeground); }
.setup-none[hidden] { display: none; }

.composer-notice { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; font-size: 12px; line-height: 16px; }
.composer-notice[hidden] { display: none; }
.composer-notice-text { flex: 1 1 auto; min-width: 0; display: flex; gap: 4px; align-items: flex-start; overflow-wrap: anywhere; }
.composer-notice-text > .codicon { flex: 0 0 auto; font-size: 14px; line-height: 16px; }
.composer-notice.is-error .composer-notice-text > .codicon { color: var(--vscode-errorForeground); }
.composer-notice.is-saved .composer-notice-text > .codicon { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green, inherit)); }
.composer-notice-buttons { flex: 0 0 auto; margin-left: auto; align-items: center; gap: 4px; }
.composer-notice-button { min-height: 22px; padding: 1px 8px; font-size: 12px; }
.composer-notice-button[hidden] { display: none; }
.composer-notice-close {
  display: inline-flex; align-items: center; justify-content: center; width: 22px; height: 22px; padding: 0;
  border: none; border-radius: 3px; cursor: pointer; background: none; color: var(--vscode-icon-foreground, inherit);
}
.composer-notice-close:hover { background: var(--vscode-toolbar-hoverBackground); }
`;

export function installSetupStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
