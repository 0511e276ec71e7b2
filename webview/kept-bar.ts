/**
 * The bar over the prompt box while isolated subagents' work waits on their branches (issue 27; kept-work.ts):
 *
 *   ⎇ Kept in worktrees  2 subagents · 3 files                         [Apply all]
 *     ✗ Check `npm test` failed on the combined changes: broken by "b"   (its output in the tooltip)
 *     "tune retries"  2 files                                  [Apply] [Discard]
 *        ✎ config.json                                          (click: Open diff: workspace ↔ kept)
 *        ⚠ config.json: lines 3-5 meet "b"                     (a conflict: nothing of it applied)
 *     "docs"  applied
 *     "raise delay"  conflict: nothing of it applied                  [Resolve] [Apply] [Discard]
 *        ✗ Resolve failed: the resolver changed nothing               (the host's one line)
 *     "resolve agent-b's conflicts"  1 file · for "raise delay"                [Apply] [Discard]
 *
 * Apply lands one subagent's changes, Apply all every open one in the order they were kept (the session's check
 * on the combination first); Discard drops a branch (the host confirms). Resolve (a child whose landing conflicted,
 * only) hands its conflicts to a resolver subagent (the host: session.land with resolve, keep): it runs in the task
 * tree; its kept changes then stand in for the child's here, to open and apply. Hidden while anything runs but a
 * resolve (its button busy, the others disabled), and once nothing is left to decide. Buttons are buttons: Tab
 * reaches every one, Enter and Space press them.
 */
import { conflictLines, type KeptChild, type KeptWorkView } from '../src/view-model/kept-work';
import { codicon, el, setHidden, setText } from './dom';

export interface KeptBarActions {
  /** Lands (`land`) or discards these subagents' kept changes, in this order. */
  land(agentIds: string[], action: 'land' | 'discard'): void;
  /** The kept version of one file beside the workspace's, in the diff editor. */
  openDiff(agentId: string, path: string): void;
  /** Hands this subagent's conflicts to a resolver subagent (its result is kept for the user to apply). */
  resolve(agentId: string): void;
}

/** The host's word on a Resolve: started, over (its result is in the events), or failed and why. */
export type ResolveState = { agentId: string; state: 'running' | 'done' } | { agentId: string; state: 'failed'; reason: string };

const STATUS_ICON: Record<string, string> = { A: 'diff-added', D: 'diff-removed' };
const OUTCOME_WORD = {
  landed: { text: 'applied', tone: 'tone-muted' },
  discarded: { text: 'discarded', tone: 'tone-muted' },
  reverted: { text: 'reverted', tone: 'tone-muted' },
  conflict: { text: 'conflict: nothing of it applied', tone: 'tone-error' },
  check_failed: { text: 'check failed: nothing applied', tone: 'tone-error' },
  failed: { text: 'failed', tone: 'tone-error' },
  resolved: { text: 'applied through its resolver', tone: 'tone-muted' },
} as const;

export class KeptBar {
  readonly element: HTMLElement;
  private readonly counts: HTMLSpanElement;
  private readonly check: HTMLDivElement;
  private readonly list: HTMLDivElement;
  private readonly applyAll: HTMLButtonElement;
  private view: KeptWorkView | null = null;
  private running = false;
  /** The subagent whose conflicts a resolver is settling now (its Resolve is busy). */
  private resolvingId: string | undefined;
  /** Why a Resolve failed, per subagent (one line under it, until the next try). */
  private readonly failures = new Map<string, string>();

  constructor(private readonly actions: KeptBarActions) {
    this.element = el('div', 'kept-bar');
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Subagents\' changes kept in worktrees, not yet applied');
    const line = el('div', 'kept-bar-line');
    this.counts = el('span', 'kept-bar-counts');
    this.applyAll = button('Apply all', 'apply-all', '', () => {
      if (this.view && !this.running) this.actions.land(this.view.open, 'land');
    }, true);
    const buttons = el('div', 'kept-bar-buttons');
    buttons.append(this.applyAll);
    line.append(codicon('git-branch', 'kept-bar-icon'), el('span', 'kept-bar-title', 'Kept in worktrees'), this.counts, buttons);
    this.check = el('div', 'kept-bar-check');
    this.list = el('div', 'kept-bar-children');
    this.list.setAttribute('role', 'list');
    this.element.append(line, this.check, this.list);
    this.element.hidden = true;
  }

  /** A resolve is going on: the bar stays, its buttons wait for the run's end. */
  get resolving(): boolean {
    return this.resolvingId !== undefined;
  }

  /** `running`: a run is going on (the bar waits for its end, unless it is a resolve: then it shows it busy). */
  update(view: KeptWorkView | null, running = false): void {
    this.view = view;
    this.running = running;
    const show = view !== null && (view.open.length > 0 || this.resolvingId !== undefined) && (!running || this.resolvingId !== undefined);
    setHidden(this.element, !show);
    if (!show || !view) return;
    this.element.setAttribute('aria-busy', String(this.resolvingId !== undefined));
    setDisabled(this.applyAll, running);
    const open = view.children.filter((c) => view.open.includes(c.agentId));
    const files = open.reduce((n, c) => n + c.kept.files.length, 0);
    setText(this.counts, `${open.length} subagent${open.length === 1 ? '' : 's'} · ${files} file${files === 1 ? '' : 's'}`);
    this.applyAll.title = `Apply the changes of ${open.length === 1 ? 'this subagent' : `these ${open.length} subagents`} to the workspace, in the order they finished (the land check, if set, runs on all of them combined first)`;
    this.showCheck(view);
    // Drawn again: a button that had the focus (a keyboard user's Resolve going busy) keeps it.
    const active = document.activeElement instanceof HTMLElement && this.list.contains(document.activeElement) ? document.activeElement : undefined;
    const agent = active?.closest<HTMLElement>('.kept-bar-child')?.dataset.agent;
    const action = active?.dataset.action;
    this.list.replaceChildren(...view.children.map((c) => this.childRows(c, view)));
    if (agent && action) this.list.querySelector<HTMLElement>(`.kept-bar-child[data-agent="${CSS.escape(agent)}"] [data-action="${CSS.escape(action)}"]`)?.focus();
  }

  /** The host's word on a Resolve (the view's events bring the resolver and its kept changes). */
  resolveState(s: ResolveState): void {
    if (s.state === 'running') this.resolvingId = s.agentId;
    else if (this.resolvingId === s.agentId) this.resolvingId = undefined;
    if (s.state === 'failed') this.failures.set(s.agentId, s.reason);
    else this.failures.delete(s.agentId);
    this.update(this.view, this.running);
  }

  private startResolve(agentId: string): void {
    if (this.running || this.resolvingId !== undefined) return;
    // Busy at once (the host's 'running' follows): a second press sends nothing.
    this.resolveState({ agentId, state: 'running' });
    this.actions.resolve(agentId);
  }

  private showCheck(view: KeptWorkView): void {
    const check = view.check;
    setHidden(this.check, !check && !view.landCheck);
    if (!check) {
      // Not run yet: say which check Apply runs first.
      this.check.className = 'kept-bar-check is-pending';
      this.check.title = '';
      this.check.replaceChildren(...(view.landCheck ? [codicon('beaker', 'tone-muted'), el('span', 'kept-bar-check-text tone-muted', `Apply runs \`${view.landCheck}\` on the combined changes first`)] : []));
      return;
    }
    const who = check.brokenBy ? `: broken by ${nameOf(check.brokenBy, view)}` : '';
    const text = check.ok ? `Check \`${check.command}\` passed on the combined changes` : `Check \`${check.command}\` failed on the combined changes${who}; nothing applied`;
    this.check.className = `kept-bar-check ${check.ok ? 'is-ok' : 'is-failed'}`;
    this.check.title = check.output || text;
    this.check.replaceChildren(codicon(check.ok ? 'pass' : 'error', check.ok ? 'tone-muted' : 'tone-error'), el('span', 'kept-bar-check-text', text));
  }

  /** One subagent: its name, its files or its word, Apply and Discard while it is open; then its files and conflicts. */
  private childRows(child: KeptChild, view: KeptWorkView): HTMLElement {
    const group = el('div', 'kept-bar-child');
    group.setAttribute('role', 'listitem');
    group.dataset.agent = child.agentId;
    const head = el('div', 'kept-bar-child-line');
    const name = el('span', 'kept-bar-name', `"${child.description}"`);
    name.title = `${child.description} (${child.agentId}): branch ${child.kept.branch}`;
    const open = view.open.includes(child.agentId);
    const n = child.kept.files.length;
    const word = child.kept.outcome ? OUTCOME_WORD[child.kept.outcome] : undefined;
    const resolves = child.kept.resolves && child.kept.outcome === undefined ? ` · for ${nameOf(child.kept.resolves, view)}` : '';
    // Short (a 250 px panel): the resolver's own row, below, says whose it is.
    const standIn = child.resolvedBy && child.kept.outcome === 'conflict' ? 'handed to a resolver' : undefined;
    const state = el('span', `kept-bar-state ${standIn ? 'tone-muted' : (word?.tone ?? 'tone-muted')}`, standIn ?? (word ? word.text : `${n} file${n === 1 ? '' : 's'}${resolves}`));
    if (child.kept.reason) state.title = child.kept.reason;
    if (standIn && child.resolvedBy) state.title = `Its conflicts were handed to ${nameOf(child.resolvedBy, view)}: apply or discard that one (discarding it makes this one's conflict yours again)`;
    if (child.kept.outcome) group.dataset.outcome = child.kept.outcome;
    head.append(name, state);
    if (open) {
      const buttons = el('div', 'kept-bar-buttons');
      const land = (action: 'land' | 'discard') => () => {
        if (!this.running) this.actions.land([child.agentId], action);
      };
      // Not on a resolver whose result conflicts (a marker it left): Discard it, and the child is resolvable again.
      if (child.kept.outcome === 'conflict' && !child.kept.resolves) buttons.append(this.resolveButton(child));
      buttons.append(
        button('Apply', 'apply', `Apply the changes of "${child.description}" to the workspace (a 3-way merge: a conflict applies nothing)`, land('land')),
        button('Discard', 'discard', `Discard the changes of "${child.description}" (its branch ${child.kept.branch} is deleted)`, land('discard')),
      );
      for (const b of buttons.querySelectorAll<HTMLButtonElement>('[data-action="apply"], [data-action="discard"]')) setDisabled(b, this.running);
      head.append(buttons);
    }
    group.append(head);
    const failure = this.failures.get(child.agentId);
    if (failure && open) {
      const row = el('div', 'kept-bar-resolve-failed tone-error');
      row.setAttribute('role', 'status');
      row.append(codicon('error', 'tone-error'), el('span', 'kept-bar-conflict-text', `Resolve failed: ${failure}`));
      group.append(row);
    }
    if (!open) return group;
    for (const f of child.kept.files) group.append(this.fileRow(child, f.path, f.status));
    for (const c of child.kept.conflicts ?? []) {
      const row = el('div', 'kept-bar-conflict tone-error');
      row.dataset.file = c.path;
      row.append(codicon('warning', 'tone-error'), el('span', 'kept-bar-conflict-text', `${c.path}: ${conflictLines(c)} meet${c.hunks.length === 1 ? 's' : ''} ${c.with.map((w) => nameOf(w, view)).join(', ')}`));
      group.append(row);
    }
    return group;
  }

  /** Only on a child whose landing conflicted; busy while its resolver runs, disabled while anything else does. */
  private resolveButton(child: KeptChild): HTMLButtonElement {
    const busy = this.resolvingId === child.agentId;
    const b = button(busy ? 'Resolving…' : 'Resolve', 'resolve', busy ? `A resolver subagent is settling the conflicts of "${child.description}" (see it in the task tree)` : `Hand the conflicts of "${child.description}" to a resolver subagent: it merges both sides in a worktree of its own; its changes then wait here for Apply`, () => this.startResolve(child.agentId));
    b.setAttribute('aria-label', busy ? `Resolving conflicts of "${child.description}" with a subagent` : `Resolve conflicts of "${child.description}" with a subagent`);
    if (busy) b.setAttribute('aria-busy', 'true');
    setDisabled(b, this.running || this.resolvingId !== undefined);
    return b;
  }

  private fileRow(child: KeptChild, path: string, status: string): HTMLElement {
    const row = el('div', 'kept-bar-file');
    row.dataset.file = path;
    const link = el('button', 'kept-bar-path', path);
    link.type = 'button';
    link.title = `Open diff: the workspace's ${path} ↔ as "${child.description}" kept it`;
    link.setAttribute('aria-label', `${path}: open the diff of the workspace's version against "${child.description}"'s`);
    link.addEventListener('click', () => this.actions.openDiff(child.agentId, path));
    row.append(codicon(STATUS_ICON[status] ?? 'diff-modified', `change-${status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'modified'}`), link);
    return row;
  }
}

/** A subagent's description ("the parent's tree" and unknown ids as they are). */
function nameOf(agentId: string, view: KeptWorkView): string {
  const child = view.children.find((c) => c.agentId === agentId);
  return child ? `"${child.description}"` : agentId;
}

/** Disabled yet focusable (aria-disabled: a keyboard user's focus stays on a button that went busy under it). */
function setDisabled(b: HTMLButtonElement, disabled: boolean): void {
  if (disabled) b.setAttribute('aria-disabled', 'true');
  else b.removeAttribute('aria-disabled');
}

function button(label: string, action: string, title: string, run: () => void, primary = false): HTMLButtonElement {
  const b = el('button', `changes-bar-button${primary ? ' is-primary' : ''}`, label);
  b.type = 'button';
  if (title) b.title = title;
  b.dataset.action = action;
  b.addEventListener('click', run);
  return b;
}

const STYLES = String.raw`
.kept-bar {
  flex: 0 0 auto; padding: 6px 10px; font-size: 12px; max-height: 40vh; overflow-y: auto;
  border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
  background: var(--vscode-sideBarSectionHeader-background, transparent);
}
.kept-bar[hidden], .showing-history > .kept-bar { display: none; }
.kept-bar-line, .kept-bar-child-line { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; min-height: 22px; }
.kept-bar-title { font-weight: 600; white-space: nowrap; }
.kept-bar-counts, .kept-bar-state.tone-muted { color: var(--vscode-descriptionForeground); white-space: nowrap; }
.kept-bar-buttons { display: flex; gap: 4px; margin-left: auto; }
.kept-bar-check { display: flex; align-items: flex-start; gap: 4px; margin-top: 2px; }
.kept-bar-check[hidden] { display: none; }
.kept-bar-check.is-failed { color: var(--vscode-errorForeground); }
.kept-bar-check-text { min-width: 0; overflow-wrap: anywhere; }
.kept-bar-child { margin-top: 4px; }
.kept-bar-name { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 100%; }
.kept-bar-resolve-failed { display: flex; align-items: flex-start; gap: 4px; padding-left: 12px; min-width: 0; }
.kept-bar .changes-bar-button[aria-disabled="true"] { opacity: 0.5; cursor: default; }
.kept-bar .changes-bar-button[aria-busy="true"] { opacity: 0.8; }
.kept-bar-file, .kept-bar-conflict { display: flex; align-items: center; gap: 4px; min-height: 22px; padding-left: 12px; min-width: 0; }
.kept-bar-conflict-text { min-width: 0; overflow-wrap: anywhere; }
.kept-bar-path {
  flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: left;
  font: inherit; padding: 0; border: 0; background: transparent; color: var(--vscode-textLink-foreground); cursor: pointer;
}
.kept-bar-path:hover { text-decoration: underline; }
.kept-bar-path:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
`;

export function installKeptBarStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
