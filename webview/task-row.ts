/**
 * A task node as a two-line tree-item — status icon + description over a dimmed line with the
 * status word and turns · tools · tokens · duration (one line got cut in a narrow side bar) —
 * and children — a "Prompt" row, the subagent's calls (tool rows and nested tasks, created by
 * the renderer), a "Changes" row once it finished (changes-row.ts) and a "Result"/"Error" row once
 * there is one. Children are created only when the task is first expanded; after that new calls are
 * appended as they arrive.
 */
import type { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';
import { budgetShare, cacheTooltip, TASK_STATUS_LABEL, taskMeta } from '../src/view-model/format';
import type { TaskNode } from '../src/view-model/session-view';
import { ChangesRow, type ChangeActions } from './changes-row';
import { UnverifiedMark } from './unverified-mark';
import { codicon, el, setAttr, setClassName, setCodicon, setHidden, setText } from './dom';
import { TASK_STATUS_ICON } from './icons';
import { stoppedByUser, TaskOutcome } from './task-outcome';
import { TextRow, treeItem } from './tree-rows';

export interface TaskRowHost {
  /** Stops this task's subagent (the row's Stop action). */
  stopAgent(agentId: string): void;
  /** Accept, Edit result or Re-run, on a result held for review. */
  review(agentId: string, action: 'accept' | 'edit' | 'rerun'): void;
  /** Retry / Re-run with an edited prompt, on a task that ended early (task-outcome.ts). */
  retryTask(agentId: string, edit: boolean): void;
  /** Creates (and registers) the row of a child node; null for an unknown id. */
  createChild(id: string): VscodeTreeItem | null;
  /** Registers a prompt/result/changes row so expanding it can fill its detail. */
  registerTextRow(row: TextRow | ChangesRow): void;
  /** What the Changes row's files and Revert action do. */
  readonly changeActions: ChangeActions;
  /** How many of `wanted` rows may be built now (0 once the frame's time box is used up). */
  takeBudget(wanted: number, bulk?: boolean): number;
  /** Asks for `sync()` again on the next frame (budget ran out, or earlier rows are being revealed). */
  defer(row: TaskRow): void;
}

/** A task shows at most its last ROW_WINDOW calls until the user asks for the earlier ones. */
export const ROW_WINDOW = 250;

const STATUS_TONE: Record<TaskNode['status'], string> = {
  running: 'tone-running',
  completed: 'tone-ok',
  max_turns: 'tone-warn',
  budget_exceeded: 'tone-warn',
  error: 'tone-error',
  cancelled: 'tone-muted',
};

export class TaskRow {
  readonly item: VscodeTreeItem;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly meta: HTMLSpanElement;
  private readonly statusWord: HTMLSpanElement;
  private readonly warning: HTMLSpanElement;
  private readonly stop: HTMLElement;
  private readonly agent: HTMLSpanElement;
  private readonly forkBadge: HTMLSpanElement;
  private readonly budgetBar: HTMLDivElement;
  private readonly reviewBar: HTMLDivElement;
  private readonly budgetFill: HTMLDivElement;
  private readonly outcomeView: TaskOutcome;
  private readonly unverifiedMark = new UnverifiedMark();
  private prompt: TextRow | null = null;
  private outcome: TextRow | null = null;
  private changes: ChangesRow | null = null;
  /** Children rendered: indices [start, end) of node.children. */
  private start = 0;
  private end = 0;
  private more: { item: VscodeTreeItem; label: HTMLSpanElement; shown?: number } | null = null;
  private revealing = false;
  materialized = false;
  node: TaskNode;

  constructor(node: TaskNode, private readonly host: TaskRowHost) {
    this.node = node;
    this.item = treeItem(node.id, 'task-row');
    // Two lines in the label: [status icon, description, retry warning] over [status word, meta].
    const text = el('div', 'task-text');
    const line1 = el('div', 'task-line');
    const line2 = el('div', 'task-line task-sub');
    this.icon = codicon('loading', 'row-icon');
    this.title = el('span', 'task-title');
    this.warning = codicon('warning', 'tone-warn task-warning');
    this.statusWord = el('span', 'row-state');
    this.meta = el('span', 'task-meta');
    this.agent = el('span', 'task-agent');
    this.forkBadge = el('span', 'task-fork');
    this.forkBadge.append(codicon('repo-forked'), el('span', '', 'fork'));
    line1.append(this.icon, this.title, this.forkBadge, this.agent, this.warning);
    line2.append(this.statusWord, this.meta);
    // Spend against budget, while it runs: the largest share of tokens, dollars or time (budgetShare).
    this.budgetBar = el('div', 'task-budget');
    this.budgetFill = el('div', 'task-budget-fill');
    this.budgetBar.append(this.budgetFill);
    this.reviewBar = this.reviewButtons();
    this.outcomeView = new TaskOutcome(host);
    text.append(line1, line2, this.outcomeView.reason, this.unverifiedMark.el, this.budgetBar, this.reviewBar, this.outcomeView.bar);
    this.stop = this.stopAction();
    this.item.append(text, this.stop);
    this.update(node, Date.now());
  }

  get running(): boolean {
    return this.node.status === 'running';
  }

  update(node: TaskNode, now: number): void {
    this.node = node;
    const status = TASK_STATUS_ICON[node.status];
    const tone = STATUS_TONE[node.status];
    setAttr(this.item, 'data-status', node.status);
    setCodicon(this.icon, status.icon, `${status.extra} row-icon ${tone}`.replace(/^ /, ''));
    setText(this.title, node.description);
    // A fork carries its own badge; it runs as its parent, so no agent name beside it.
    setHidden(this.forkBadge, node.fork !== true);
    this.forkBadge.title = node.fork ? `Fork: started from its parent's conversation so far (same system prompt, tools and model); it cannot delegate${node.model ? ` · ${node.model}` : ''}` : '';
    // Which agent did it: its name (the default general-purpose one goes without saying), in its colour.
    const named = node.fork !== true && node.agentType !== undefined && node.agentType !== 'general-purpose';
    setText(this.agent, named ? node.agentType ?? '' : '');
    setHidden(this.agent, !named);
    setAttr(this.agent, 'data-color', node.color ?? null);
    this.agent.title = named ? `Agent: ${node.agentType}${node.model ? ` · ${node.model}` : ''}` : '';
    this.title.title = node.prompt ? `${node.description}\n\n${node.prompt}` : node.description;
    this.updateMeta(now);
    // The icon already says completed or running (spinner); the word is for the states that need reading.
    const word = node.status === 'completed' || node.status === 'running' ? '' : TASK_STATUS_LABEL[node.status];
    setText(this.statusWord, word);
    setClassName(this.statusWord, `row-state ${tone}`);
    setHidden(this.statusWord, word === '');
    setHidden(this.warning, !(node.status === 'running' && node.warning));
    setHidden(this.stop, !(node.status === 'running' && node.agentId !== null));
    setHidden(this.reviewBar, node.review !== 'pending');
    this.outcomeView.update(node);
    this.unverifiedMark.update(node);
    this.warning.title = node.warning ? `Retrying: ${node.warning}` : '';
    if (this.materialized) this.sync();
  }

  /** "Held for your review" with its three buttons (shown while the result waits). */
  private reviewButtons(): HTMLDivElement {
    const bar = el('div', 'task-review');
    const label = el('span', 'task-review-label');
    label.append(codicon('eye'), el('span', '', ' Held for your review'));
    bar.append(label);
    const button = (label: string, action: 'accept' | 'edit' | 'rerun', primary = false): HTMLButtonElement => {
      const b = el('button', `review-button${primary ? ' is-primary' : ''}`, label);
      b.dataset.action = action;
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        if (this.node.agentId) this.host.review(this.node.agentId, action);
      }, { capture: true });
      return b;
    };
    bar.append(button('Accept', 'accept', true), button('Edit result', 'edit'), button('Re-run…', 'rerun'));
    bar.addEventListener('click', (ev) => ev.stopPropagation());
    return bar;
  }

  /**
   * The row's Stop action, shown while the subagent runs. In the decoration slot, not the hover-only
   * actions slot: a runaway subagent's Stop must be in sight without hunting for it.
   */
  private stopAction(): HTMLElement {
    const button = el('span', 'row-action task-stop codicon codicon-debug-stop');
    button.slot = 'decoration';
    button.setAttribute('role', 'button');
    button.setAttribute('tabindex', '0');
    button.title = 'Stop this subagent (the others and the main agent go on)';
    button.setAttribute('aria-label', button.title);
    const stop = (ev: Event): void => {
      ev.stopPropagation();
      ev.preventDefault();
      if (this.node.agentId) this.host.stopAgent(this.node.agentId);
    };
    // Capture: the tree-item's own click handler would otherwise toggle the row first.
    button.addEventListener('click', stop, { capture: true });
    button.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') stop(ev);
    });
    return button;
  }

  updateMeta(now: number): void {
    setText(this.meta, taskMeta(this.node, now));
    const tip = cacheTooltip(this.node.tokens);
    if (this.meta.title !== tip) this.meta.title = tip;
    const share = budgetShare(this.node, now);
    setHidden(this.budgetBar, share === undefined);
    if (share === undefined) return;
    const width = `${Math.round(Math.min(1, share) * 100)}%`;
    if (this.budgetFill.style.width !== width) this.budgetFill.style.width = width;
    setAttr(this.budgetBar, 'data-level', share >= 1 ? 'over' : share >= 0.8 ? 'high' : null);
    this.budgetBar.title = `Budget: ${Math.round(share * 100)}% spent`;
  }

  /** Builds the children (first expand): the prompt row and the last ROW_WINDOW calls. */
  materialize(): void {
    if (this.materialized) return;
    this.materialized = true;
    const prompt = new TextRow(`prompt:${this.node.id}`, 'prompt-row');
    prompt.item.slot = 'children';
    this.prompt = prompt;
    this.host.registerTextRow(prompt);
    this.item.append(prompt.item);
    this.start = this.end = Math.max(0, this.node.children.length - ROW_WINDOW);
    if (this.start > 0) this.addMoreRow();
    this.sync();
  }

  /**
   * Builds rows still missing, within the frame's budget: new calls first (appended before the
   * outcome row), then — while revealing — earlier calls just above the shown ones.
   */
  sync(): void {
    if (!this.materialized) return;
    this.prompt?.set('comment', 'tone-muted', 'Prompt', this.node.prompt || this.node.description);
    for (;;) {
      const missing = this.node.children.length - this.end;
      const n = missing > 0 ? this.host.takeBudget(missing) : 0;
      if (n === 0) break;
      this.item.insertBefore(this.rows(this.end, this.end + n), this.changes?.item ?? this.outcome?.item ?? null);
      this.end += n;
    }
    while (this.revealing && this.more && this.end >= this.node.children.length) {
      const n = this.host.takeBudget(this.start, true);
      if (n === 0) break;
      this.more.item.after(this.rows(this.start - n, this.start));
      this.start -= n;
      if (this.start === 0) {
        this.more.item.remove();
        this.more = null;
        this.revealing = false;
      }
    }
    this.updateMoreRow();
    this.syncChanges();
    this.syncOutcome();
    if (this.end < this.node.children.length || this.revealing) this.host.defer(this);
  }

  private rows(from: number, to: number): DocumentFragment {
    const fragment = document.createDocumentFragment();
    const ids = this.node.children;
    for (let i = from; i < to; i++) {
      const id = ids[i];
      const child = id === undefined ? null : this.host.createChild(id);
      if (!child) continue;
      child.slot = 'children';
      fragment.append(child);
    }
    return fragment;
  }

  /** A leaf row "Show N earlier calls": thousands of rows cost seconds to build, so they wait for a click. */
  private addMoreRow(): void {
    const item = document.createElement('vscode-tree-item');
    item.className = 'more-row';
    item.dataset.moreOf = this.node.id;
    item.slot = 'children';
    const label = el('span', 'more-label');
    item.append(codicon('unfold', 'row-icon'), label);
    const reveal = (ev: Event): void => {
      ev.stopPropagation();
      this.revealEarlier();
    };
    // Capture: the tree-item's own click handler (in its shadow) stops propagation before the host hears it.
    item.addEventListener('click', reveal, { capture: true });
    item.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') reveal(ev);
    });
    this.more = { item, label };
    this.updateMoreRow();
    this.item.append(item);
  }

  private updateMoreRow(): void {
    if (!this.more) return;
    const n = this.start;
    // Called on every frame that touches the task: toLocaleString (ICU) only when the label changes.
    const key = this.revealing ? -n - 1 : n;
    if (this.more.shown === key) return;
    this.more.shown = key;
    setText(this.more.label, this.revealing ? `Loading ${n.toLocaleString('en-US')} earlier calls…` : `Show ${n.toLocaleString('en-US')} earlier call${n === 1 ? '' : 's'}`);
  }

  private revealEarlier(): void {
    if (this.revealing || !this.more) return;
    this.revealing = true;
    this.updateMoreRow();
    this.host.defer(this);
  }

  /** The finished subagent's manifest: a row between its calls and its result. */
  private syncChanges(): void {
    const n = this.node;
    if (!n.changes || n.status === 'running') return;
    if (this.changes) return this.changes.update(n);
    this.changes = new ChangesRow(n, this.host.changeActions);
    this.changes.item.slot = 'children';
    this.host.registerTextRow(this.changes);
    this.item.insertBefore(this.changes.item, this.outcome?.item ?? null);
  }

  private syncOutcome(): void {
    const n = this.node;
    const text = n.error ?? (n.status === 'running' ? undefined : n.result);
    if (text === undefined || text === '') return;
    if (!this.outcome) {
      this.outcome = new TextRow(`outcome:${n.id}`, 'outcome-row');
      this.outcome.item.slot = 'children';
      this.host.registerTextRow(this.outcome);
      this.item.append(this.outcome.item);
    }
    // A stop is not a failure: what the subagent had reported stays readable under "Stopped".
    if (n.status === 'cancelled') this.outcome.set('circle-slash', 'tone-muted', 'Stopped', [stoppedByUser(n.error) ? undefined : n.error, n.result].filter(Boolean).join('\n\n'), true);
    else if (n.error !== undefined) this.outcome.set('error', 'tone-error', 'Error', n.error);
    else this.outcome.set('reply', 'tone-ok', 'Result', text, true);
  }
}
