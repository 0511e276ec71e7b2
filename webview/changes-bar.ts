/**
 * The bar over the prompt box once runs that changed files have ended, until the user keeps or reverts them
 * (run-changes.ts: a later run that changed nothing, a Retry, does not drop it):
 *
 *   ⎇ ▸ 3 files changed  +52 −4                 [Review] [Keep] [Revert…]
 *       ✚ src/greet.js          +12               [✓] [↶]     (open: one row a file)
 *       ✎ src/config.ts         +3 −1             [✓] [↶]
 *
 * Review opens every file's change in one multi-file diff (the host), a file's name its own diff; Keep accepts
 * them (all, or one file: ✓) and puts them away; Revert asks the host to revert the subagents behind them (it
 * confirms with the file list), a file's Undo (↶) puts that one file back at once. The main agent's own writes
 * cannot be reverted, and the bar says so. Hidden while anything runs.
 */
import { runFileAction, type RunChanges, type RunFile } from '../src/view-model/run-changes';
import { changeCounts } from './diff-view';
import { codicon, el, setAttr, setHidden, setText } from './dom';

export interface ChangesBarActions {
  /** Review: every file shown (`path`: one file's diff). */
  review(path?: string): void;
  /** Reverts these subagents' changes (`paths`: only these files). */
  revert(agentIds: string[], paths?: string[]): void;
  /** Keep: these files (run-changes.ts keptKey) leave the bar. */
  keep(keys: string[]): void;
}

const ACTION_ICON = { created: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed' } as const;
const ACTION_WORD = { created: 'added', modified: 'modified', deleted: 'deleted' } as const;

export class ChangesBar {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly label: HTMLSpanElement;
  private readonly counts: HTMLSpanElement;
  private readonly note: HTMLDivElement;
  private readonly list: HTMLDivElement;
  private readonly revertButton: HTMLButtonElement;
  private changes: RunChanges | null = null;
  private open = false;

  constructor(private readonly actions: ChangesBarActions) {
    this.element = el('div', 'changes-bar');
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Files changed and not yet kept');
    const line = el('div', 'changes-bar-line');
    this.toggle = el('button', 'changes-bar-toggle');
    this.toggle.type = 'button';
    this.toggle.title = 'Show the files: keep or undo each one';
    this.label = el('span', 'changes-bar-label');
    this.toggle.append(codicon('chevron-right', 'changes-bar-chevron'), this.label);
    this.toggle.addEventListener('click', () => {
      this.open = !this.open;
      this.update(this.changes);
    });
    this.counts = el('span', 'changes-bar-counts');
    const buttons = el('div', 'changes-bar-buttons');
    const review = button('Review', 'Open every change in one diff editor', () => this.actions.review(), true);
    const keep = button('Keep', 'Keep these changes (puts this bar away)', () => {
      if (this.changes) this.actions.keep(this.changes.files.map((f) => f.key));
    });
    this.revertButton = button('Revert…', '', () => {
      const c = this.changes;
      if (c) this.actions.revert(c.revertible.map((r) => r.agentId), ...(c.partial ? [c.files.filter((f) => f.agents.length > 0).map((f) => f.path)] : []));
    });
    buttons.append(review, keep, this.revertButton);
    line.append(codicon('git-compare', 'changes-bar-icon'), this.toggle, this.counts, buttons);
    this.note = el('div', 'changes-bar-note');
    this.list = el('div', 'changes-bar-files');
    this.list.id = 'changes-bar-files';
    this.list.setAttribute('role', 'list');
    this.toggle.setAttribute('aria-controls', this.list.id);
    this.element.append(line, this.note, this.list);
    this.element.hidden = true;
  }

  /** `changes` null: a run is going on (or nothing to say). */
  update(changes: RunChanges | null): void {
    this.changes = changes;
    const show = changes !== null && changes.files.length > 0;
    setHidden(this.element, !show);
    if (!show || !changes) return;
    const n = changes.files.length;
    setText(this.label, `${n} file${n === 1 ? '' : 's'} changed`);
    setAttr(this.toggle, 'aria-expanded', String(this.open));
    this.toggle.classList.toggle('is-open', this.open);
    const added = changes.files.reduce((sum, f) => sum + f.added, 0);
    const removed = changes.files.reduce((sum, f) => sum + f.removed, 0);
    setText(this.counts, changeCounts(added, removed));
    this.counts.title = changes.files.map((f) => f.path).join('\n');
    const subagents = changes.revertible.length;
    setHidden(this.revertButton, subagents === 0);
    this.revertButton.title = subagents === 1 ? `Revert the changes of "${changes.revertible[0]?.description}"…` : `Revert the changes of the ${subagents} subagents…`;
    const main = changes.byMainAgent;
    setText(this.note, main > 0 ? `${main} file${main === 1 ? '' : 's'} changed by the main agent itself: Revert undoes subagents' changes only.` : '');
    setHidden(this.note, main === 0);
    setHidden(this.list, !this.open);
    if (this.open) this.list.replaceChildren(...changes.files.map((f) => this.fileRow(f)));
    else this.list.replaceChildren();
  }

  /** One file: its action, its path (its own diff), its counts, Keep and Undo. */
  private fileRow(file: RunFile): HTMLElement {
    const action = runFileAction(file);
    const row = el('div', 'changes-bar-file');
    row.setAttribute('role', 'listitem');
    row.dataset.file = file.path;
    const icon = codicon(ACTION_ICON[action], `change-${action}`);
    const name = el('button', 'changes-bar-path', file.path);
    name.type = 'button';
    name.title = `Show the change to ${file.path} (${ACTION_WORD[action]})`;
    name.setAttribute('aria-label', `${file.path}, ${ACTION_WORD[action]}: show its diff`);
    name.addEventListener('click', () => this.actions.review(file.path));
    const counts = el('span', 'changes-bar-file-counts', action === 'created' ? `+${file.added}` : action === 'deleted' ? `−${file.removed}` : changeCounts(file.added, file.removed));
    const keep = iconButton('check', 'keep-file', `Keep ${file.path}`, `Keep the change to ${file.path}`, () => this.actions.keep([file.key]));
    const undoable = file.agents.length > 0 && !file.byMain;
    const undo = iconButton('discard', 'undo-file', `Undo ${file.path}`, undoable ? `Undo: put ${file.path} back as it was before` : `${file.path} was changed by the main agent itself: it cannot be put back from here`, () => {
      if (undoable) this.actions.revert(file.agents, [file.path]);
    });
    undo.disabled = !undoable;
    row.append(icon, name, counts, keep, undo);
    return row;
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

function iconButton(icon: string, action: string, label: string, title: string, run: () => void): HTMLButtonElement {
  const b = el('button', `changes-bar-icon-button codicon codicon-${icon}`);
  b.type = 'button';
  b.dataset.action = action;
  b.title = title;
  b.setAttribute('aria-label', label);
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
.changes-bar-toggle {
  display: inline-flex; align-items: center; gap: 2px; font: inherit; font-weight: 600; white-space: nowrap;
  padding: 0 2px 0 0; border: 0; background: transparent; color: inherit; cursor: pointer;
}
.changes-bar-toggle:focus-visible, .changes-bar-path:focus-visible, .changes-bar-icon-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.changes-bar-chevron { transition: transform 0.1s; }
.changes-bar-toggle.is-open .changes-bar-chevron { transform: rotate(90deg); }
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
.changes-bar-note[hidden], .changes-bar-files[hidden] { display: none; }
.changes-bar-files { margin-top: 4px; max-height: 30vh; overflow-y: auto; }
.changes-bar-file { display: flex; align-items: center; gap: 4px; height: 22px; min-width: 0; }
.changes-bar-path {
  flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: left;
  font: inherit; padding: 0; border: 0; background: transparent; color: var(--vscode-textLink-foreground); cursor: pointer;
}
.changes-bar-path:hover { text-decoration: underline; }
.changes-bar-file-counts { flex: 0 0 auto; color: var(--vscode-descriptionForeground); white-space: nowrap; }
.changes-bar-icon-button {
  flex: 0 0 auto; width: 22px; height: 22px; padding: 0; border: 0; border-radius: 3px; cursor: pointer;
  background: transparent; color: var(--vscode-icon-foreground, var(--vscode-foreground));
  display: inline-flex; align-items: center; justify-content: center;
}
.changes-bar-icon-button:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
.changes-bar-icon-button:disabled { opacity: 0.4; cursor: default; }
`;

export function installChangesBarStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
