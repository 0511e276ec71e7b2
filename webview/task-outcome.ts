/**
 * A task that ended without finishing its job — failed, stopped, at its turn limit or budget — says why on
 * its collapsed row, in plain words (the raw error stays one click away: the row's tooltip and its Error row),
 * and offers what to do next:
 *
 *   ✗ Reproduce the flaky test
 *     Failed · 2 turns · 1 tool · 12s · 3.5k tokens
 *     The model's servers were overloaded (retries ran out)
 *     [Retry] [Re-run with an edited prompt…]
 *
 * Retry asks the main agent to delegate the same prompt again; the edited re-run lets the user change the
 * prompt first (the host opens it in an editor). Both wait for the run to end (hidden while anything runs: the
 * app's `is-running` class). Once retried the row offers it no more: "Retried ↓" goes to the new task (or to
 * the Retry's prompt, until the main agent has delegated it). Styles at the end.
 */
import type { TaskNode } from '../src/view-model/session-view';
import { codicon, el, setHidden, setText } from './dom';

/** Statuses that ended the job early: the row says why and offers Retry. */
function endedEarly(node: TaskNode): boolean {
  return node.status === 'error' || node.status === 'cancelled' || node.status === 'max_turns' || node.status === 'budget_exceeded';
}

/** The user stopped it themselves: "Stopped" says it all (the core's "stopped by the user" is for the model). */
export function stoppedByUser(error: string | undefined): boolean {
  return error === undefined || error === '' || /^stopped by (the user|you)$/i.test(error.trim());
}

/** Known API and network failures in words a user reads at a glance. */
const PLAIN: [RegExp, string][] = [
  [/overloaded/i, "The model's servers were overloaded (retries ran out)"],
  [/rate.?limit|\b429\b/i, 'The API rate limit was reached'],
  [/prompt is too long|context (window|length)|too many tokens/i, "Its conversation outgrew the model's context window"],
  [/credit balance|billing/i, 'The API account is out of credit'],
  [/\b401\b|authentication|api[- ]key/i, 'The API key was refused'],
  [/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed|network|socket hang up/i, 'The API could not be reached (network)'],
  [/ETIMEDOUT|timed out|timeout/i, 'The request timed out'],
  [/\b5\d\d\b|internal server error|api_error/i, 'The API failed (a server error)'],
];

/** Why the task ended early, in one line ('' when the status word says it all). */
export function outcomeReason(node: TaskNode): string {
  const error = node.error?.trim();
  switch (node.status) {
    case 'max_turns':
      return `It used all its ${node.turns} turns before finishing`;
    case 'budget_exceeded':
      return error ? `It reached its budget: ${firstLine(error)}` : 'It reached its budget';
    case 'cancelled':
      if (stoppedByUser(error)) return '';
      if (error?.startsWith('interrupted')) return `Interrupted before it finished (${error.replace(/^interrupted:?\s*/, '') || 'the run ended'})`;
      return firstLine(error ?? '');
    case 'error': {
      if (!error) return 'It failed without saying why';
      if (node.permission === 'denied') return `You denied it: ${firstLine(error)}`;
      for (const [pattern, words] of PLAIN) if (pattern.test(error)) return words;
      return firstLine(error.replace(/^(Model request failed|Error):\s*/i, ''));
    }
    default:
      return '';
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export interface OutcomeActions {
  /** Runs the task again (`edit`: with a prompt the user edits first). */
  retryTask(agentId: string, edit: boolean): void;
  /** Scrolls to a row and focuses it (a retried task's new run). */
  showNode(nodeId: string): void;
}

/** The reason line and the Retry buttons of a task row (hidden unless it ended early). */
export class TaskOutcome {
  readonly reason: HTMLDivElement;
  readonly bar: HTMLDivElement;
  private readonly buttons: HTMLDivElement;
  private readonly retried: HTMLButtonElement;
  private node: TaskNode | null = null;

  constructor(private readonly actions: OutcomeActions) {
    this.reason = el('div', 'task-reason');
    this.bar = el('div', 'task-retry');
    const button = (label: string, edit: boolean, title: string): HTMLButtonElement => {
      const b = el('button', 'retry-button');
      b.type = 'button';
      b.dataset.action = edit ? 'rerun-edited' : 'retry';
      b.title = title;
      b.append(codicon(edit ? 'edit' : 'refresh'), el('span', '', label));
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        if (this.node?.agentId) this.actions.retryTask(this.node.agentId, edit);
      }, { capture: true });
      b.addEventListener('keydown', (ev) => ev.stopPropagation());
      return b;
    };
    this.buttons = el('div', 'task-retry-buttons');
    this.buttons.append(
      button('Retry', false, 'Run this task again with the same prompt (the main agent delegates it again)'),
      button('Re-run…', true, 'Re-run with an edited prompt: edit the prompt, then run this task again'),
    );
    this.retried = el('button', 'task-retried');
    this.retried.type = 'button';
    this.retried.dataset.action = 'show-retry';
    this.retried.append(codicon('arrow-down'), el('span', '', 'Retried'));
    this.retried.addEventListener('click', (ev) => {
      ev.stopPropagation();
      const to = this.node?.retriedBy;
      if (to) this.actions.showNode(to.taskId ?? to.promptId);
    }, { capture: true });
    this.retried.addEventListener('keydown', (ev) => ev.stopPropagation());
    this.bar.append(this.buttons, this.retried);
    this.bar.addEventListener('click', (ev) => ev.stopPropagation());
  }

  update(node: TaskNode): void {
    this.node = node;
    const early = endedEarly(node) && node.status !== 'running';
    const reason = early ? outcomeReason(node) : '';
    setText(this.reason, reason);
    setHidden(this.reason, reason === '');
    // The raw error on hover; the Error row under the task has it whole.
    this.reason.title = node.error && node.error !== reason ? node.error : '';
    setHidden(this.bar, !(early && node.agentId !== null && node.review !== 'pending'));
    // Retried and run again: no second Retry. A Retry the main agent did not delegate (or a hook blocked) leaves it.
    setHidden(this.buttons, node.retriedBy?.taskId !== undefined);
    setHidden(this.retried, node.retriedBy === undefined);
    this.retried.title = node.retriedBy?.taskId ? 'Retried: go to the new run of this task' : 'Retried: go to your Retry (the main agent has not delegated it yet)';
  }
}

const CSS = String.raw`
.task-reason { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 4; font-size: 12px; line-height: 16px; color: var(--vscode-foreground); overflow: hidden; white-space: normal; overflow-wrap: anywhere; }
.task-row[data-status='error'] .task-reason { color: var(--vscode-errorForeground); }
.task-reason[hidden], .task-retry[hidden], .task-retry-buttons[hidden], .task-retried[hidden] { display: none; }
/* Retry waits for the run's end: nothing to press while the main agent still works. */
.is-running .task-retry-buttons { display: none; }
.task-retry { display: flex; flex-wrap: wrap; gap: 4px; margin: 3px 0 2px; }
.task-retry-buttons { display: flex; flex-wrap: wrap; gap: 4px; }
.task-retried {
  display: inline-flex; align-items: center; gap: 4px; font: inherit; font-size: 12px; padding: 1px 4px; border: 0; cursor: pointer;
  background: transparent; color: var(--vscode-textLink-foreground);
}
.task-retried:hover { text-decoration: underline; }
.task-retried:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.retry-button {
  display: inline-flex; align-items: center; gap: 4px; font: inherit; font-size: 12px; padding: 1px 8px; border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-secondaryForeground, var(--vscode-foreground));
  background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--vscode-button-border, transparent);
}
.retry-button:hover { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-toolbar-hoverBackground)); }
.retry-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
`;

export function installTaskOutcomeStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
