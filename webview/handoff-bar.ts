/**
 * A completed task's handoffs (Copilot's `handoffs` of its agent file): after its answer, one button per handoff,
 * as VS Code's chat shows them under an agent's response:
 *
 *   ✓ Plan the login page                          planner
 *     4 turns · 3 tools · 12s · 3.5k tokens
 *     [→ Start implementation] [→ Review the plan]
 *
 * A button runs nothing by itself: the host fills the prompt box with the handoff's prompt and its agent (or sends
 * it at once when the handoff says `send: true`, as Copilot does), so the user sees what goes before it goes. Shown
 * once the run has ended (the app's `is-running` class hides them: a prompt cannot start while one runs), and not
 * while the result waits for the user's review. Styles at the end.
 */
import type { TaskHandoff, TaskNode } from '../src/view-model/session-view';
import { codicon, el, setHidden } from './dom';

export interface HandoffActions {
  /** The `index`th handoff of this subagent's node was pressed. */
  handoff(agentId: string, index: number): void;
}

/** What the button's tooltip and accessible name say it does. */
function handoffTitle(h: TaskHandoff): string {
  const prompt = h.prompt?.trim() ? `“${h.prompt.trim()}”` : 'your prompt';
  const model = h.model ? ` on ${h.model}` : '';
  return h.send && h.prompt?.trim() ? `${h.label}: sends ${prompt} to the ${h.agent} agent${model}` : `${h.label}: puts ${prompt} in the prompt box for the ${h.agent} agent${model}`;
}

export class HandoffBar {
  readonly element: HTMLDivElement;
  private node: TaskNode | null = null;
  /** The handoffs the buttons show now: rebuilt only when they change. */
  private shown: readonly TaskHandoff[] | undefined;

  constructor(private readonly actions: HandoffActions) {
    this.element = el('div', 'task-handoffs');
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', 'Hand off to another agent');
    this.element.addEventListener('click', (ev) => ev.stopPropagation());
    setHidden(this.element, true);
  }

  update(node: TaskNode): void {
    this.node = node;
    const handoffs = node.status === 'completed' && node.agentId !== null && node.review !== 'pending' ? node.handoffs : undefined;
    setHidden(this.element, !handoffs?.length);
    if (handoffs === this.shown) return;
    this.shown = handoffs;
    this.element.replaceChildren(...(handoffs ?? []).map((h, i) => this.button(h, i)));
  }

  private button(h: TaskHandoff, index: number): HTMLButtonElement {
    const b = el('button', 'handoff-button');
    b.type = 'button';
    b.dataset.action = 'handoff';
    b.dataset.index = String(index);
    b.title = handoffTitle(h);
    b.setAttribute('aria-label', b.title);
    b.append(codicon(h.send && h.prompt?.trim() ? 'send' : 'arrow-right'), el('span', 'handoff-label', h.label));
    // Capture: the tree row's own click would fold it first; its keys would move the tree's focus.
    b.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (this.node?.agentId) this.actions.handoff(this.node.agentId, index);
    }, { capture: true });
    b.addEventListener('keydown', (ev) => ev.stopPropagation());
    return b;
  }
}

const CSS = String.raw`
.task-handoffs { display: flex; flex-wrap: wrap; gap: 4px; margin: 3px 0 2px; }
.task-handoffs[hidden], .is-running .task-handoffs { display: none; }
.handoff-button {
  display: inline-flex; align-items: center; gap: 4px; min-width: 0; max-width: 100%; font: inherit; font-size: 12px; padding: 1px 8px;
  border-radius: 2px; cursor: pointer; color: var(--vscode-button-secondaryForeground, var(--vscode-foreground));
  background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--vscode-button-border, transparent);
}
.handoff-button .handoff-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.handoff-button:hover { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-toolbar-hoverBackground)); }
.handoff-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
`;

export function installHandoffStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
