/**
 * A finished task's "Changes" row: what the subagent and its descendants changed and ran, from the
 * harness's manifest (not the subagent's prose). Collapsed by default; its files, commands and note are
 * rows of their own under it (flat-rows.ts), redrawn when a revert marks the files:
 *
 *   ▸ Changes   2 files · 1 command                         [Revert…]
 *       ✚ test/config.test.ts   +40                          (click: the diff of its change)
 *       ✎ src/config.ts         +3 −1          refused       (after a refused revert: the agent's → now)
 *       ✚ gen.ts  +9  ☐ shared with "build" · revert too    (off by default; checked, Revert includes it)
 *       ⌘ npm test              exit 1
 *       ⓘ Only files in the workspace are reverted
 */
import type { TaskChangeFile, TaskChanges, TaskNode } from '../src/view-model/session-view';
import { codicon, el, setHidden, setIconLabel, setText } from './dom';
import { treeRow } from './tree-rows';

export interface ChangeActions {
  /** Opens the diff of one file's change (or, after a refused revert, of what changed since). */
  openChange(agentId: string, path: string): void;
  /** Asks the host to revert this subagent's changes (it confirms first), with the shared files the user checked. */
  revertAgent(agentId: string): void;
  /** The checkbox of a shared file: whether Revert includes it (off until the user checks it). */
  includesShared(agentId: string, path: string): boolean;
  setIncludeShared(agentId: string, path: string, on: boolean): void;
}

/** A name for the agent behind a call (its task's description, or "the main agent"). */
export type AgentLabel = (agentId: string) => string;

const ACTION_ICON: Record<TaskChangeFile['action'], string> = { created: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed' };
const REVERT_WORD: Record<NonNullable<TaskChangeFile['revert']>['outcome'], { text: string; tone: string }> = {
  restored: { text: 'reverted', tone: 'tone-muted' },
  deleted: { text: 'reverted (deleted)', tone: 'tone-muted' },
  recreated: { text: 'reverted (recreated)', tone: 'tone-muted' },
  unchanged: { text: 'already as before', tone: 'tone-muted' },
  refused: { text: 'not reverted', tone: 'tone-error' },
  skipped: { text: 'skipped (shared)', tone: 'tone-warn' },
};

/** Can still be put back: never tried, refused (the conflict may be gone) or skipped as shared. */
const isOpen = (f: TaskChangeFile): boolean => !f.revert || f.revert.outcome === 'refused' || f.revert.outcome === 'skipped';

export class ChangesRow {
  readonly id: string;
  readonly item: HTMLDivElement;
  private readonly description: HTMLSpanElement;
  private readonly revert: HTMLElement;
  private task: TaskNode;

  constructor(task: TaskNode, private readonly actions: ChangeActions) {
    this.task = task;
    this.id = `changes:${task.id}`;
    this.item = treeRow(this.id, 'changes-row');
    this.description = el('span', 'changes-summary');
    this.revert = this.revertAction();
    this.item.append(codicon('git-compare', 'row-icon'), el('span', 'changes-title', 'Changes'), this.description, this.revert);
    this.update(task);
  }

  update(task: TaskNode): void {
    this.task = task;
    const changes = task.changes;
    if (!changes) return;
    setText(this.description, summary(changes));
    // Offered while some file can still be put back (a refused one may be retried after the conflict is gone).
    // An isolated subagent's files are on its branch, not in the workspace: the kept-in-worktrees bar lands or discards them.
    const revertible = task.status !== 'running' && task.agentId !== null && !task.kept && changes.files.some(isOpen);
    setHidden(this.revert, !revertible);
  }

  private revertAction(): HTMLElement {
    const button = el('span', 'row-action changes-revert codicon codicon-discard');
    button.setAttribute('role', 'button');
    button.setAttribute('tabindex', '0');
    button.title = "Revert this subagent's changes…";
    button.setAttribute('aria-label', button.title);
    const revert = (ev: Event): void => {
      ev.stopPropagation();
      ev.preventDefault();
      if (this.task.agentId) this.actions.revertAgent(this.task.agentId);
    };
    // Capture: the row's click would toggle it first.
    button.addEventListener('click', revert, { capture: true });
    button.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') revert(ev);
    });
    return button;
  }
}

function summary(changes: TaskChanges): string {
  const n = changes.files.length;
  const c = changes.commands.length;
  if (n + c === 0) return 'none';
  const parts = [...(n ? [`${n} file${n === 1 ? '' : 's'}`] : []), ...(c ? [`${c} command${c === 1 ? '' : 's'}`] : [])];
  return parts.join(' · ');
}

function leaf(key: string, className: string): HTMLDivElement {
  return treeRow(key, className);
}

/** The row of file `index` of a task's manifest: its diff on click, how a revert went. */
export function changeFileRow(key: string, task: TaskNode, index: number, actions: ChangeActions, label: AgentLabel): HTMLDivElement {
  const file = task.changes?.files[index];
  const item = leaf(key, 'change-file');
  if (!file) return item;
  item.dataset.file = file.path;
  const link = el('span', 'path-link', file.path);
  link.title = file.revert?.outcome === 'refused' ? `Show what changed in ${file.path} since the subagent's change` : `Show the change to ${file.path}`;
  link.addEventListener('click', (ev) => {
    ev.stopPropagation();
    if (task.agentId) actions.openChange(task.agentId, file.path);
  });
  const counts = el('span', 'change-counts', file.action === 'created' ? `+${file.added}` : file.action === 'deleted' ? `−${file.removed}` : `+${file.added} −${file.removed}`);
  const icon = codicon(ACTION_ICON[file.action], `row-icon change-${file.action}`);
  setIconLabel(icon, file.action);
  item.append(icon, link, counts);
  if (file.sharedWith?.length && task.agentId && isOpen(file)) item.append(sharedChoice(task.agentId, file, actions, label));
  if (file.revert) {
    const word = REVERT_WORD[file.revert.outcome];
    const state = el('span', `row-state ${word.tone}`, word.text);
    state.title = file.revert.reason ?? word.text;
    item.dataset.revert = file.revert.outcome;
    item.append(state);
  }
  return item;
}

/**
 * A shared file's checkbox: another agent's call ran at the same time and may have made the change, so Revert
 * leaves it alone unless checked. The label names who; its tooltip the calls.
 */
function sharedChoice(agentId: string, file: TaskChangeFile, actions: ChangeActions, label: AgentLabel): HTMLLabelElement {
  const others = [...new Set((file.sharedWith ?? []).map((c) => label(c.agentId)))];
  const box = el('input', 'change-include');
  box.type = 'checkbox';
  box.checked = actions.includesShared(agentId, file.path);
  const text = `shared with ${others.join(', ')} · revert too`;
  box.setAttribute('aria-label', `${file.path}: ${text}`);
  box.addEventListener('change', () => actions.setIncludeShared(agentId, file.path, box.checked));
  const choice = el('label', 'change-shared tone-warn');
  choice.title = `Shared: ${(file.sharedWith ?? []).map((c) => `\`${c.command}\` (${label(c.agentId)})`).join(', ')} ran while this subagent's calls did and may have changed ${file.path}. Revert leaves it alone unless this is checked.`;
  // The row's click would toggle it.
  choice.addEventListener('click', (ev) => ev.stopPropagation());
  choice.append(box, el('span', 'change-shared-text', text));
  return choice;
}

export function changeCommandRow(key: string, task: TaskNode, index: number): HTMLDivElement {
  const run = task.changes?.commands[index];
  const item = leaf(key, 'change-command');
  if (!run) return item;
  const text = el('span', 'change-command-text', run.command);
  text.title = run.command;
  const exitCode = run.exit_code;
  const code = el('span', `row-state ${exitCode === 0 ? 'tone-muted' : 'tone-error'}`, exitCode === null ? 'stopped' : `exit ${exitCode}`);
  item.append(codicon('terminal', 'row-icon'), text, code);
  return item;
}

export function changeNoteRow(key: string): HTMLDivElement {
  const item = leaf(key, 'change-note');
  item.title = 'The files a command changed in the workspace are listed and reverted; what else it did (ignored files, other folders, services) is not.';
  item.append(codicon('info', 'row-icon tone-muted'), el('span', 'tone-muted', 'Only files in the workspace are reverted'));
  return item;
}
