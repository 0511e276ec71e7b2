/**
 * The line above the prompt box while a handoff filled it (a task's handoff button, handoff-bar.ts): which agent the
 * prompt goes to, and × to send it to the main agent as an ordinary prompt instead.
 *
 *   [→ reviewer · Review the plan                 ×]
 *   [ Review the plan above for gaps.               ]   ← the prompt box, filled
 *
 * Send takes the agent along (`prompt.handoff`) and clears the line; so does the box emptied by the user. The line is
 * saved with the draft (vscode-api.ts): a reloaded panel still names the agent.
 */
import type { PromptHandoff } from '../src/protocol';
import { codicon, el, setHidden, setText } from './dom';

export class HandoffChip {
  readonly element: HTMLDivElement;
  private readonly text: HTMLSpanElement;
  private readonly remove: HTMLButtonElement;
  private target: PromptHandoff | undefined;

  constructor(private readonly removed: () => void) {
    this.element = el('div', 'handoff-chip');
    this.text = el('span', 'handoff-chip-text');
    this.remove = el('button', 'handoff-chip-remove');
    this.remove.type = 'button';
    this.remove.append(codicon('close'));
    this.remove.addEventListener('click', () => {
      this.set(undefined);
      this.removed();
    });
    this.element.append(codicon('arrow-right'), this.text, this.remove);
    setHidden(this.element, true);
  }

  /** The agent the box's prompt goes to now (undefined: the main agent). */
  get handoff(): PromptHandoff | undefined {
    return this.target;
  }

  set(target: PromptHandoff | undefined): void {
    this.target = target;
    setHidden(this.element, target === undefined);
    if (!target) return;
    setText(this.text, `${target.agent} · ${target.label}`);
    this.element.title = `Handoff “${target.label}”: Send asks the main agent to start the ${target.agent} agent with this prompt${target.model ? ` on ${target.model}` : ''}`;
    this.remove.title = `Don't hand off to ${target.agent}: send to the main agent as usual`;
    this.remove.setAttribute('aria-label', this.remove.title);
  }
}

const CSS = String.raw`
.handoff-chip { display: flex; align-items: center; gap: 4px; min-width: 0; margin-bottom: 4px; padding: 1px 2px 1px 6px; font-size: 12px;
  border-radius: 2px; color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.handoff-chip[hidden] { display: none; }
.handoff-chip-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.handoff-chip-remove { display: inline-flex; padding: 1px; border: 0; border-radius: 2px; cursor: pointer; color: inherit; background: transparent; }
.handoff-chip-remove:hover { background: var(--vscode-toolbar-hoverBackground); }
.handoff-chip-remove:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
`;

export function installHandoffChipStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
