/**
 * How big an agent's context is, measured rather than guessed:
 *
 *   size = last response's usage (input + cache read + cache creation + output)
 *        + estimate(messages appended since that response)
 *
 * Only the part the API has not counted yet is estimated; the window comes from a model table the
 * user can override (`--context-window`, `DELEGATE_CONTEXT_WINDOW`, `delegate.contextWindow`).
 */
import type { MessageParam } from '../llm/types';
import type { Usage } from '../vocabulary';

/** Windows of model families that differ from the default (tokens). Longest prefix wins. */
const WINDOWS: [prefix: string, tokens: number][] = [['claude-', 200_000]];
const DEFAULT_CONTEXT_WINDOW = 200_000;
export const DEFAULT_COMPACT_THRESHOLD = 0.8;

export function contextWindowFor(modelId: string, override?: number): number {
  if (override && override > 0) return override;
  const match = WINDOWS.filter(([prefix]) => modelId.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  return match ? match[1] : DEFAULT_CONTEXT_WINDOW;
}

/** Tokens the API counted for one response: everything it read plus what it wrote. */
function usageTokens(usage: Usage): number {
  return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens + usage.output_tokens;
}

/**
 * A cheap upper-leaning estimate: ASCII at 3.5 characters a token (English prose is ~4, code and JSON
 * less: erring high keeps the real context under the threshold), anything else (CJK, accents, emoji) at
 * one token a character — characters over four badly undercounts Chinese text.
 */
export function estimateTextTokens(text: string): number {
  // Counted by a regular expression, not a charCodeAt loop: the first request's estimate (system prompt and tool
  // schemas, ~8,000 characters) runs before V8 has optimized anything, where the loop took ~1 ms and this ~20 µs.
  const other = text.length - text.replace(NON_ASCII, '').length;
  return Math.ceil((text.length - other) / 3.5) + other;
}
const NON_ASCII = /[\u0080-\uffff]+/g;

export function estimateMessagesTokens(messages: readonly MessageParam[]): number {
  let total = 0;
  for (const m of messages) total += estimateTextTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)) + 4;
  return total;
}

/** Per agent: the last measured size and how many messages it covered. */
export class ContextMeter {
  private measured = 0;
  private coveredMessages = 0;
  /** The system prompt and tool schemas, counted once when nothing was measured yet. */
  constructor(private readonly fixedTokens: number) {}

  /** A response arrived for a request of `requestMessages` messages (its output is the next message). */
  record(usage: Usage, requestMessages: number): void {
    this.measured = usageTokens(usage);
    this.coveredMessages = requestMessages + 1;
  }

  /** The conversation was replaced (compaction): nothing of it is measured any more. */
  reset(): void {
    this.measured = 0;
    this.coveredMessages = 0;
  }

  size(messages: readonly MessageParam[]): number {
    // An endpoint that reports no usage (some Anthropic-compatible ones) leaves only the estimate.
    if (this.coveredMessages === 0 || this.measured === 0) return this.fixedTokens + estimateMessagesTokens(messages);
    return this.measured + estimateMessagesTokens(messages.slice(this.coveredMessages));
  }
}
