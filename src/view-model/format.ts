/**
 * Display strings for view nodes (pure): token counts, durations, the task meta line
 * ("3 turns · 12 tools · 8.1k tokens · 42s") and status words.
 */
import { refusalOf } from './changes';
import { isOpenCall, type TaskNode, type TaskStatus, type TokenCount, type ToolCallNode } from './types';

export function formatTokens(tokens: TokenCount): string {
  const n = tokens.input + tokens.output;
  if (n < 1000) return `${n} tokens`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k tokens`;
  return `${(n / 1_000_000).toFixed(1)}M tokens`;
}

/** The prompt cache's share of the input: cache_read ÷ (input + cache_read + cache_creation); undefined before any input. */
export function cacheHitShare(tokens: TokenCount): number | undefined {
  return tokens.input > 0 ? (tokens.cacheRead ?? 0) / tokens.input : undefined;
}

/**
 * 1234567 → "1,234,567", as toLocaleString('en-US') writes it, without it: the first toLocaleString of a page
 * loads ICU's number formatting (~17 ms), inside the panel's first frame of a snapshot (bench: snapshot → painted).
 */
function groupThousands(n: number): string {
  const [int = '', frac] = String(Math.abs(Math.round(n * 1000) / 1000)).split('.');
  return `${n < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

/** The meta line's tooltip: what the cache saved ("Prompt cache: 87% of 14,200 input tokens read from cache"). */
export function cacheTooltip(tokens: TokenCount): string {
  const share = cacheHitShare(tokens);
  if (share === undefined) return '';
  return `Prompt cache: ${Math.round(share * 100)}% of ${groupThousands(tokens.input)} input tokens read from cache`;
}

export function formatUsd(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  if (m < 60) return `${m}m ${rest.toString().padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${(m % 60).toString().padStart(2, '0')}m`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `now` is used for a running task's elapsed time. */
export function taskMeta(task: TaskNode, now: number): string {
  // Not started: nothing spent, nothing to count (its status word says it waits).
  if (task.status === 'pending') return '';
  const parts = [plural(task.turns, 'turn'), plural(task.toolCalls, 'tool')];
  // Duration before tokens: in a narrow side bar the end of the line is what gets cut.
  const ms = task.durationMs ?? (task.status === 'running' ? now - task.startedAt : undefined);
  if (ms !== undefined) parts.push(formatDuration(ms));
  // A task that has not reported usage yet shows no "0 tokens"; a budget shows what is spent against it.
  const b = task.budget;
  if (task.tokens.input + task.tokens.output > 0 || task.status !== 'running' || b?.tokens) {
    parts.push(b?.tokens ? `${formatTokens(task.tokens).replace(/ tokens$/, '')} / ${formatTokens({ input: b.tokens, output: 0 })}` : formatTokens(task.tokens));
  }
  if (task.costUsd !== undefined || b?.usd) parts.push(b?.usd ? `${formatUsd(task.costUsd ?? 0)} / ${formatUsd(b.usd)}` : formatUsd(task.costUsd ?? 0));
  if (b?.seconds && task.status === 'running') parts[2] = `${parts[2] ?? ''} / ${formatDuration(b.seconds * 1000)}`;
  return parts.join(' · ');
}

export const TASK_STATUS_LABEL: Record<TaskStatus, string> = {
  pending: 'Waiting for you to run it',
  running: 'Running',
  completed: 'Completed',
  max_turns: 'Turn limit reached',
  budget_exceeded: 'Budget reached',
  error: 'Failed',
  cancelled: 'Stopped',
};

/** The row state word of a tool call, or '' when nothing needs saying (a plain success). */
export function toolStateLabel(tool: ToolCallNode): string {
  if (tool.permission === 'asked' && isOpenCall(tool)) return 'approval?';
  if (tool.permission === 'denied') return 'denied';
  switch (tool.status) {
    case 'pending':
      return 'waiting';
    case 'running':
      return 'running';
    case 'error': {
      // Refused by the stale-write guard: the file changed since this agent read it, or it never read it.
      const refusal = tool.refusal ?? refusalOf(tool.output);
      return refusal === 'stale' ? 'stale' : refusal === 'unread' ? 'not read' : 'error';
    }
    case 'cancelled':
      return 'stopped';
    default:
      return '';
  }
}

/** What a call's state word means, for its tooltip and screen readers (undefined: the word says it). */
export function toolStateTitle(tool: ToolCallNode): string | undefined {
  switch (toolStateLabel(tool)) {
    case 'approval?':
      return 'waiting for your approval';
    case 'waiting':
      return 'not running yet: it waits for its turn (the calls before it in the reply)';
    case 'stale':
      return 'refused: the file changed since the agent last read it';
    case 'not read':
      return 'refused: the agent had not read the file before writing it';
    default:
      return undefined;
  }
}

/** How much of its budget a task has spent (the largest of tokens, dollars, time), or undefined without one. */
export function budgetShare(task: TaskNode, now: number): number | undefined {
  const b = task.budget;
  if (!b) return undefined;
  const shares: number[] = [];
  if (b.tokens) shares.push((task.tokens.input + task.tokens.output) / b.tokens);
  if (b.usd) shares.push((task.costUsd ?? 0) / b.usd);
  if (b.seconds) shares.push((task.durationMs ?? (task.status === 'running' ? now - task.startedAt : 0)) / (b.seconds * 1000));
  return shares.length ? Math.max(...shares) : undefined;
}
