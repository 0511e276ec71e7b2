/**
 * The bar over the prompt box once a run that changed files has ended:
 *
 *   ⎇ 3 files changed  +52 −4                 [Review] [Keep] [Revert…]
 *
 * Review opens every file's change in one multi-file diff (the host), Keep accepts them and puts the bar
 * away (for this run), Revert asks the host to revert the run's subagents (it confirms with the file list;
 * the main agent's own writes cannot be reverted, and the bar says so). Hidden while anything runs.
 */
import type { RunChanges } from '../src/view-model/run-changes';
import { changeCounts } from './diff-view';
import { codicon, el, setHidden, setText } from './dom';

export interface ChangesBarActions {
  review(): void;
  revert(agentIds: string[]): void;
}

export class ChangesBar {
  readonly element: HTMLElement;
  private readonly label: HTMLSpanElement;
  private readonly counts: HTMLSpanElement;
  private readonly note: HTMLDivElement;
  private readonly revertButton: HTMLButtonElement;
  /** Runs the user kept (by their prompt's id). */
  private readonly kept = new Set<string>();
  private changes: RunChanges | null = null;

  constructor(private readonly actions: ChangesBarActions) {
    this.element = el('div', 'changes-bar');
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Files changed by the last run');
    const line = el('div', 'changes-bar-line');
    this.label = el('span', 'changes-bar-label');
    this.counts = el('span', 'changes-bar-counts');
    const buttons = el('div', 'changes-bar-buttons');
    const review = button('Review', 'Open every change of this run in one diff editor', () => this.actions.review(), true);
    const keep = button('Keep', 'Keep these changes (puts this bar away)', () => this.keep());
    this.revertButton = button('Revert…', '', () => {
      if (this.changes) this.actions.revert(this.changes.revertible.map((r) => r.agentId));
    });
    buttons.append(review, keep, this.revertButton);
    line.append(codicon('git-compare', 'changes-bar-icon'), this.label, this.counts, buttons);
    this.note = el('div', 'changes-bar-note');
    this.element.append(line, this.note);
    this.element.hidden = true;
  }

  /** `changes` null: a run is going on (or nothing to say). */
  update(changes: RunChanges | null): void {
    this.changes = changes;
    const show = changes !== null && changes.files.length > 0 && !this.kept.has(changes.runId);
    setHidden(this.element, !show);
    if (!show || !changes) return;
    const n = changes.files.length;
    setText(this.label, `${n} file${n === 1 ? '' : 's'} changed`);
    const added = changes.files.reduce((sum, f) => sum + f.added, 0);
    const removed = changes.files.reduce((sum, f) => sum + f.removed, 0);
    setText(this.counts, changeCounts(added, removed));
    this.label.title = changes.files.map((f) => f.path).join('\n');
    const subagents = changes.revertible.length;
    setHidden(this.revertButton, subagents === 0);
    this.revertButton.title = subagents === 1 ? `Revert the changes of "${changes.revertible[0]?.description}"…` : `Revert the changes of the run's ${subagents} subagents…`;
    const main = changes.byMainAgent;
    setText(this.note, main > 0 ? `${main} file${main === 1 ? '' : 's'} changed by the main agent itself: Revert undoes subagents' changes only.` : '');
    setHidden(this.note, main === 0);
  }

  private keep(): void {
    if (this.changes) this.kept.add(this.changes.runId);
    this.update(this.changes);
  }
}

function button(label: string, title: string, run: () => void, primary = false): HTMLButtonElement {
  const b = el('button', `changes-bar-button${primary ? ' is-primary' : ''}`, label);
  b.type = 'button';
  if (title) b.title = title;
  b.dataset.action = label.replace('…', '').toLowerCase();
  b.addEventListener('click', run);
  return b;
}

const CSS = String.raw`
.changes-bar {
  flex: 0 0 auto; padding: 6px 10px; font-size: 12px;
  border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
  background: var(--vscode-sideBarSectionHeader-background, transparent);
}
.changes-bar[hidden], .showing-history > .changes-bar { display: none; }
.changes-bar-line { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
.changes-bar-label { font-weight: 600; white-space: nowrap; }
.changes-bar-counts { color: var(--vscode-descriptionForeground); white-space: nowrap; }
.changes-bar-buttons { display: flex; gap: 4px; margin-left: auto; }
.changes-bar-button {
  font: inherit; padding: 1px 8px; border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-secondaryForeground, var(--vscode-foreground));
  background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--vscode-button-border, transparent);
}
.changes-bar-button.is-primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.changes-bar-button:hover { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-toolbar-hoverBackground)); }
.changes-bar-button.is-primary:hover { background: var(--vscode-button-hoverBackground); }
.changes-bar-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.changes-bar-button[hidden] { display: none; }
.changes-bar-note { margin-top: 2px; color: var(--vscode-descriptionForeground); }
.changes-bar-note[hidden] { display: none; }
`;

export function installChangesBarStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
