/**
 * The model port: what the loop needs from a model, in the Messages API's own shapes.
 * The Anthropic client (real SDK) and the scripted test model both implement it.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../vocabulary';
import type { CacheRequest } from './cache-breakpoints';
import type { ThinkingSetting } from '../vocabulary';

/** Key of the placeholder input of a tool_use whose JSON did not parse (how a broken tool input reaches the loop). */
export const INVALID_TOOL_INPUT = '__delegate_invalid_json';

export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlock;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type ToolUseBlock = Anthropic.ToolUseBlock;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;
export type ToolSchema = Anthropic.Tool;

export interface ModelRequest {
  model: string;
  maxTokens: number;
  system: string;
  messages: MessageParam[];
  tools: ToolSchema[];
  /** Tools the API runs itself (web search); sent after `tools`. */
  serverTools?: Anthropic.ToolUnion[];
  /** `none` forces a text answer while keeping the tool definitions (the API rejects dropping them). */
  toolChoice?: 'auto' | 'none';
  /** Extended thinking for this agent (thinking.ts maps it to the model's fields); undefined: none sent. */
  thinking?: ThinkingSetting;
  /** Prompt caching: breakpoints on the shared tools, the system prompt and the tail (cache-breakpoints.ts). */
  cache?: CacheRequest;
}

export interface ModelResponse {
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
}

export interface ModelCallbacks {
  onTextDelta?: (text: string) => void;
  /** A thinking block finished streaming: its text ('' when the API omits it or it is redacted). */
  onThinking?: (block: { text: string; redacted: boolean }) => void;
  /**
   * A retryable failure the model client is about to retry (stream error event, idle stream). The
   * failed attempt's text deltas were already forwarded: hosts drop this turn's partial text here.
   */
  onRetry?: (message: string) => void;
  /**
   * No response yet (not even headers): called every few seconds while the request waits, per HTTP attempt; and
   * with `retry` when attempt `attempt` failed and the client waits `retry.waitMs` before the next (429, 529…).
   */
  onWaiting?: (info: { attempt: number; waitedMs: number; retry?: RetryInfo }) => void;
}

/** A failed attempt the client retries after a wait: its HTTP status and why, and the wait before the next attempt. */
export interface RetryInfo {
  status: number;
  /** The status in words: rate limited (429), overloaded (529), server error (5xx)… */
  reason: string;
  waitMs: number;
  /** The API said how long (retry-after); false: the client's own back-off. */
  asked: boolean;
}

/** Errors the loop must classify: fatal ones end the run with one line, never a stack trace. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'bad_request' | 'api' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelPort {
  /** Streams one assistant message. Rejects with ModelError (kind 'aborted' when the signal fired). */
  stream(request: ModelRequest, signal: AbortSignal, callbacks: ModelCallbacks): Promise<ModelResponse>;
  /**
   * The context window of another model this port reaches (an agent definition's `model`), when the port
   * knows it (the editor's models report theirs); undefined: the session's window applies.
   */
  contextWindow?(modelId: string): Promise<number | undefined>;
  /**
   * Whether this port can run a model by that name (an agent file's `model` list: the first it knows runs).
   * The Anthropic API: a Claude model id; the editor: a model it has by that name.
   */
  knows?(modelId: string): Promise<boolean>;
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
