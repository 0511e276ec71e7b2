/**
 * Rules that keep a conversation valid for the Messages API whatever happened to the run that made
 * it — the same functions serve the live session and a session rebuilt from its transcript:
 *
 *   run ended (any status) ──▶ closeOpenToolUses  (a tool_use with no result gets an "interrupted" result)
 *                          ──▶ noteRunEnd         (cancelled / failed: a short note the next prompt can refer to)
 *   the API refused the prompt as too long, unanswered ──▶ the prompt goes, a note stays (else every later request
 *                                                          would carry it and be refused the same way)
 *   before each request    ──▶ mergeConsecutive   (two user messages in a row become one; results stay first)
 *   a prompt + hook context ──▶ promptMessage      (the agent's first user message: [prompt, context…]; the prompt
 *                                                   stays first, so the panel and the session index show what was typed)
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../llm/types';
import type { AgentStatus, PromptImage } from '../vocabulary';
import { isPromptTooLong } from './compact-if-needed';

/**
 * The agent's first user message: the prompt, the images attached to it, then what hooks added as context
 * (SessionStart, UserPromptSubmit). An image-only prompt has no text block: the API refuses an empty one.
 */
export function promptMessage(prompt: string, context?: readonly string[], images?: readonly PromptImage[]): MessageParam {
  if (!context?.length && !images?.length) return { role: 'user', content: prompt };
  return {
    role: 'user',
    content: [
      ...(prompt || !images?.length ? [{ type: 'text' as const, text: prompt }] : []),
      ...(images ?? []).map((i) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: i.mediaType, data: i.data } })),
      ...(context ?? []).map((text) => ({ type: 'text' as const, text })),
    ],
  };
}

export const INTERRUPTED_RESULT = 'Interrupted: the run was stopped before this call returned a result.';

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Ids of tool_use blocks in `message`. */
function toolUseIds(message: MessageParam): string[] {
  return message.role === 'assistant' ? blocks(message).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
}

function resultIds(message: MessageParam | undefined): Set<string> {
  if (!message || message.role !== 'user') return new Set();
  return new Set(blocks(message).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
}

/**
 * Every assistant tool_use gets a tool_result in the next message: missing ones are added (first in
 * that message, as the API requires) saying the call was interrupted. Returns a new array.
 */
function closeOpenToolUses(messages: readonly MessageParam[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as MessageParam;
    out.push(message);
    const uses = toolUseIds(message);
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const answered = resultIds(next);
    const missing: ToolResultBlockParam[] = uses
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true }));
    if (missing.length === 0) continue;
    if (next?.role === 'user') {
      const nextBlocks = blocks(next);
      const results = nextBlocks.filter((b) => b.type === 'tool_result');
      const rest = nextBlocks.filter((b) => b.type !== 'tool_result');
      out.push({ role: 'user', content: [...results, ...missing, ...rest] });
      i++;
    } else {
      out.push({ role: 'user', content: missing });
    }
  }
  return out;
}

/** The note a stopped or failed run leaves in the conversation, so a follow-up can refer to it. */
function runEndNote(status: AgentStatus, error?: string): string | undefined {
  if (status === 'cancelled') return `[This request was stopped before it finished${error && error !== 'stopped by the user' ? ` (${error})` : ' by the user'}. Its partial work is above.]`;
  if (status === 'error') return `[This request failed before it finished${error ? `: ${error}` : ''}.]`;
  return undefined;
}

/**
 * The conversation to keep after a run: valid pairs, plus a note when the run did not finish. `runStart`: where the
 * run's own messages begin (its prompt first); a prompt the API refused as too long, with no answer after it, is
 * replaced by a note saying so.
 */
export function conversationAfterRun(messages: readonly MessageParam[], status: AgentStatus, error?: string, runStart?: number): MessageParam[] {
  if (runStart !== undefined && status === 'error' && error !== undefined && isPromptTooLong(error) && unanswered(messages.slice(runStart))) {
    const chars = textOf(messages[runStart]).length;
    return [...closeOpenToolUses(messages.slice(0, runStart)), { role: 'user', content: [{ type: 'text', text: `[The user's last prompt (${chars} characters) is not in this conversation: the API refused it (${error}).]` }] }];
  }
  const closed = closeOpenToolUses(messages);
  const note = runEndNote(status, error);
  if (note) closed.push({ role: 'user', content: [{ type: 'text', text: note }] });
  return closed;
}

/** The run's messages are its prompt alone (what hooks added to it included): the model answered nothing. */
function unanswered(run: readonly MessageParam[]): boolean {
  return run.length > 0 && run.every((m) => m.role === 'user' && blocks(m).every((b) => b.type === 'text'));
}

function textOf(message: MessageParam | undefined): string {
  return message ? blocks(message).map((b) => (b.type === 'text' ? b.text : '')).join('') : '';
}

/**
 * Consecutive messages of one role merged into one (a follow-up prompt after a stopped run follows a
 * user message). Tool results are moved first in a merged user message, as the API requires.
 */
export function mergeConsecutive(messages: readonly MessageParam[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (!last || last.role !== message.role || (message.role !== 'user' && message.role !== 'assistant')) {
      out.push(message);
      continue;
    }
    const merged = [...blocks(last), ...blocks(message)];
    const content = message.role === 'user' ? [...merged.filter((b) => b.type === 'tool_result'), ...merged.filter((b) => b.type !== 'tool_result')] : merged;
    out[out.length - 1] = message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content };
  }
  return out;
}

/** A note for the model goes into the last user message (after its tool_results, which must come first). */
export function appendUserNote(messages: MessageParam[], note: string): void {
  const last = messages[messages.length - 1];
  if (last && last.role === 'user' && Array.isArray(last.content)) {
    // A new message object: the old one was already handed to event listeners.
    messages[messages.length - 1] = { role: 'user', content: [...last.content, { type: 'text', text: note }] };
  } else {
    messages.push({ role: 'user', content: note });
  }
}
