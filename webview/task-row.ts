/**
 * A task node as a two-line row of the flat tree — status icon + description over a dimmed line with the
 * status word and turns · tools · tokens · duration (one line got cut in a narrow side bar). While it runs
 * and is folded, a third line says what it does now ("now: grep console\\.log in src") and how many nested
 * subagents it has. Its children (Prompt, calls, Changes, Result) are rows of their own (flat-rows.ts).
 * The one place a task row is drawn: the pinned header of a task (sticky-header.ts) is one of these too.
 */
import { budgetShare, cacheTooltip, TASK_STATUS_LABEL, taskMeta } from '../src/view-model/format';
import type { SessionViewState, TaskNode } from '../src/view-model/session-view';
import { taskNow } from '../src/view-model/task-now';
import { UnverifiedMark } from './unverified-mark';
import { codicon, el, setAttr, setClassName, setCodicon, setHidden, setIconLabel, setText } from './dom';
import { TASK_STATUS_ICON } from './icons';
import { HandoffBar, type HandoffActions } from './handoff-bar';
import { MemoryMark } from './memory-mark';
import { TaskOutcome } from './task-outcome';
import { treeRow } from './tree-rows';

export interface TaskRowHost extends HandoffActions {
  /** Stops this task's subagent (the row's Stop action). */
  stopAgent(agentId: string): void;
  /** Accept, Edit result or Re-run, on a result held for review. */
  review(agentId: string, action: 'accept' | 'edit' | 'rerun'): void;
  /** Retry / Re-run with an edited prompt, on a task that ended early (task-outcome.ts). */
  retryTask(agentId: string, edit: boolean): void;
  /** "Retried ↓": the new run of a retried task. */
  showNode(nodeId: string): void;
  /** *Open in editor*: the subagent's whole record in an editor tab. */
  openRecord(agentId: string, description: string): void;
  /** *Send a message…* to a finished subagent: it resumes on this node with its whole history (the host asks the text). */
  messageAgent(agentId: string): void;
  /** A memory agent's marker: its MEMORY.md (an absolute path). */
  openFile(path: string): void;
}

const STATUS_TONE: Record<TaskNode['status'], string> = {
  pending: 'tone-wait',
  running: 'tone-running',
  completed: 'tone-ok',
  max_turns: 'tone-warn',
  budget_exceeded: 'tone-warn',
  error: 'tone-error',
  cancelled: 'tone-muted',
};

export class TaskRow {
  readonly item: HTMLDivElement;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly meta: HTMLSpanElement;
  private readonly statusWord: HTMLSpanElement;
  private readonly warning: HTMLSpanElement;
  private readonly stop: HTMLElement;
  private readonly openButton: HTMLButtonElement;
  private readonly messageButton: HTMLButtonElement;
  private readonly agent: HTMLSpanElement;
  private readonly forkBadge: HTMLSpanElement;
  /** The model and effort the parent's call chose (task's `model`, `effort`), when it chose them. */
  private readonly shape: HTMLSpanElement;
  private readonly budgetBar: HTMLDivElement;
  private readonly reviewBar: HTMLDivElement;
  private readonly budgetFill: HTMLDivElement;
  private readonly outcomeView: TaskOutcome;
  private readonly handoffBar: HandoffBar;
  private readonly memoryMark: MemoryMark;
  private readonly nowLine: HTMLDivElement;
  private expanded = false;
  private state: SessionViewState | null = null;
  private readonly unverifiedMark = new UnverifiedMark();
  node: TaskNode;

  constructor(node: TaskNode, private readonly host: TaskRowHost) {
    this.node = node;
    this.item = treeRow(node.id, 'task-row');
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
    this.shape = el('span', 'task-shape');
    line1.append(this.icon, this.title, this.forkBadge, this.agent, this.shape, this.warning);
    this.memoryMark = new MemoryMark((path) => host.openFile(path));
    line2.append(this.statusWord, this.meta, this.memoryMark.element);
    // Spend against budget, while it runs: the largest share of tokens, dollars or time (budgetShare).
    this.budgetBar = el('div', 'task-budget');
    this.budgetFill = el('div', 'task-budget-fill');
    this.budgetBar.append(this.budgetFill);
    this.reviewBar = this.reviewButtons();
    this.outcomeView = new TaskOutcome(host);
    this.handoffBar = new HandoffBar(host);
    this.nowLine = el('div', 'task-now');
    text.append(line1, line2, this.nowLine, this.outcomeView.reason, this.unverifiedMark.el, this.budgetBar, this.reviewBar, this.outcomeView.bar, this.handoffBar.element);
    this.stop = this.stopAction();
    this.openButton = this.openAction();
    this.messageButton = this.messageAction();
    this.item.append(text, this.messageButton, this.openButton, this.stop);
    this.update(node, Date.now());
  }

  get running(): boolean {
    return this.node.status === 'running';
  }

  /** `state`: for the "now:" line of a folded running task (its last call, its nested subagents). */
  update(node: TaskNode, now: number, state?: SessionViewState, expanded = this.expanded): void {
    this.node = node;
    if (state) this.state = state;
    this.expanded = expanded;
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
    const shape = [node.asked?.model, node.asked?.effort ? `effort ${node.asked.effort}` : undefined].filter(Boolean).join(' · ');
    setText(this.shape, shape);
    setHidden(this.shape, shape === '');
    this.shape.title = shape ? `Chosen by its parent's task call: ${[node.asked?.model ? `model ${node.model ?? node.asked.model}` : '', node.asked?.effort ? `effort ${node.asked.effort}` : ''].filter(Boolean).join(', ')}` : '';
    this.title.title = node.prompt ? `${node.description}\n\n${node.prompt}` : node.description;
    this.updateMeta(now);
    // The icon already says completed or running (spinner); the word is for the states that need reading.
    const word = node.status === 'completed' || node.status === 'running' ? '' : TASK_STATUS_LABEL[node.status];
    setText(this.statusWord, word);
    // Without the word (completed, running) the icon speaks for itself to a screen reader.
    setIconLabel(this.icon, word === '' ? TASK_STATUS_LABEL[node.status] : null);
    setClassName(this.statusWord, `row-state ${tone}`);
    setHidden(this.statusWord, word === '');
    setHidden(this.warning, !(node.status === 'running' && node.warning));
    setHidden(this.stop, !(node.status === 'running' && node.agentId !== null));
    setHidden(this.openButton, node.agentId === null);
    // A running subagent is steered by its parent; the user talks to one that has ended (any end but a fork's).
    setHidden(this.messageButton, node.agentId === null || node.status === 'running' || node.fork === true);
    setHidden(this.reviewBar, node.review !== 'pending');
    this.outcomeView.update(node);
    this.handoffBar.update(node);
    this.memoryMark.update(node);
    this.unverifiedMark.update(node);
    this.warning.title = node.warning ? `Retrying: ${node.warning}` : '';
    this.updateNow();
  }

  private updateNow(): void {
    const info = this.state && !this.expanded && this.node.status === 'running' ? taskNow(this.state, this.node) : null;
    const text = info ? [info.now ? `now: ${info.now}` : '', info.nested].filter(Boolean).join(' · ') : '';
    setText(this.nowLine, text);
    this.nowLine.title = text;
    setHidden(this.nowLine, text === '');
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
   * The row's Stop action, shown while the subagent runs. In sight at the row's end, not hover-only:
   * a runaway subagent's Stop must be found without hunting for it.
   */
  private stopAction(): HTMLElement {
    const button = el('span', 'row-action task-stop codicon codicon-debug-stop');
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

  /** *Open in editor*: the subagent's whole record in an editor tab. */
  private openAction(): HTMLButtonElement {
    return this.endButton('task-open codicon codicon-go-to-file', 'Open in editor', "Open in editor: this subagent's whole record (prompt, thinking, every call in full, result, changes)", (id) =>
      this.host.openRecord(id, this.node.description),
    );
  }

  /** *Send a message…*: the subagent goes on, on this node (the host asks for the text). */
  private messageAction(): HTMLButtonElement {
    return this.endButton('task-message codicon codicon-comment', 'Send a message to this subagent', 'Send a message…: this subagent goes on with its whole conversation and your message, on this node', (id) =>
      this.host.messageAgent(id),
    );
  }

  /** A small button at the row's end, a Tab stop like the row's other buttons; its click does not fold the row. */
  private endButton(className: string, label: string, title: string, press: (agentId: string) => void): HTMLButtonElement {
    const button = el('button', className);
    button.type = 'button';
    button.title = title;
    button.setAttribute('aria-label', label);
    button.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (this.node.agentId) press(this.node.agentId);
    }, { capture: true });
    button.addEventListener('keydown', (ev) => ev.stopPropagation());
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
}
