/**
 * Context compaction, for the parent and every subagent alike (the loop calls it before each request):
 *
 *   size ≥ threshold × window?
 *     1. stub old tool results ──▶ each body becomes one line naming where the full text is (on disk)
 *        still ≥ threshold?
 *     2. summarize ──▶ the same model, in a request without tools, summarizes the messages before the
 *                      last few turns; they are replaced by one user message: summary + the request
 *                      being worked on, verbatim. Every kept tool_use still has its result.
 *   ──▶ `compacted` event {tokensBefore, tokensAfter, stubs, summary, keptMessages}
 *
 * The transcript keeps every original message; `applyCompaction` replays the event on the messages it
 * was made from, so a resumed session holds exactly what the live one held.
 */
import type { EventOf } from '../events';
import type { ContentBlockParam, MessageParam } from '../llm/types';
import { estimateTextTokens } from './context-size';

/** Assistant turns kept verbatim at the end (with their results) when the rest is summarized. */
export const KEEP_TURNS = 3;
/** How a `skill` call's result starts: never stubbed. */
const SKILL_CONTENT = '<skill_content name="';
/** Tool results shorter than this are not worth a stub. */
const STUB_MIN_CHARS = 400;

export type CompactionRecord = Pick<EventOf<'compacted'>, 'stubs' | 'summary' | 'keptMessages'>;

function blocks(m: MessageParam): ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
  return '';
}

/** Index of the first message of the last `turns` assistant turns (an assistant message), or -1. */
function tailStart(messages: readonly MessageParam[], turns: number): number {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'assistant' && ++seen === turns) return i;
  }
  return -1;
}

/**
 * Step 1: tool results before the last `keepTurns` turns, replaced by a stub made by `stubFor`
 * (which also saves the full text). Returns the stubs by tool_use id (empty when nothing was worth it).
 */
export async function stubOldToolResults(
  messages: readonly MessageParam[],
  keepTurns: number,
  stubFor: (toolUseId: string, text: string) => Promise<string>,
): Promise<Record<string, string>> {
  const end = tailStart(messages, keepTurns);
  const stubs: Record<string, string> = {};
  for (const m of messages.slice(0, end < 0 ? 0 : end)) {
    if (m.role !== 'user') continue;
    for (const b of blocks(m)) {
      if (b.type !== 'tool_result') continue;
      const text = resultText(b.content);
      // A loaded skill's instructions (skills/skill-tool.ts) stay: they guide the rest of the run (the spec's client guide).
      if (text.length < STUB_MIN_CHARS || text.startsWith('[output dropped') || text.startsWith(SKILL_CONTENT)) continue;
      stubs[b.tool_use_id] = await stubFor(b.tool_use_id, text);
    }
  }
  return stubs;
}

export function stubText(chars: number, path: string): string {
  return `[output dropped from the context to keep it small: ${chars.toLocaleString('en-US')} characters; the full text is in ${path} (bash can grep or sed parts of it)]`;
}

/** Replaces the bodies of the listed tool results. */
function applyStubs(messages: readonly MessageParam[], stubs: Record<string, string>): MessageParam[] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result' && stubs[b.tool_use_id] !== undefined)) return m;
    return {
      role: 'user',
      content: m.content.map((b) => (b.type === 'tool_result' && stubs[b.tool_use_id] !== undefined ? { ...b, content: stubs[b.tool_use_id] as string } : b)),
    };
  });
}

/** The last plain user request (not tool results) in `messages`: kept verbatim through a summary. */
function lastRequest(messages: readonly MessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as MessageParam;
    if (m.role !== 'user') continue;
    const text = blocks(m)
      .filter((b) => b.type === 'text')
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n')
      .trim();
    if (text && !text.startsWith('[Conversation compacted')) return text;
  }
  return '';
}

/** Where the summary cut goes: messages[0..cut) are summarized. 0 when there is too little before the tail. */
export function summaryCut(messages: readonly MessageParam[], keepTurns = KEEP_TURNS): number {
  const start = tailStart(messages, keepTurns);
  return start > 1 ? start : 0;
}

/** The summarized part as plain text for a request without tools (tool blocks would need the tools). */
export function transcriptText(messages: readonly MessageParam[], maxTokens: number): string {
  const parts: string[] = [];
  for (const m of messages) {
    for (const b of blocks(m)) {
      if (b.type === 'text') parts.push(`${m.role === 'user' ? 'USER' : 'ASSISTANT'}: ${b.text}`);
      else if (b.type === 'tool_use') parts.push(`ASSISTANT called ${b.name} ${JSON.stringify(b.input)}`);
      else if (b.type === 'tool_result') parts.push(`RESULT${b.is_error ? ' (error)' : ''}: ${resultText(b.content)}`);
    }
  }
  let text = parts.join('\n\n');
  // Keep the request itself inside the window: cut the middle of an oversized transcript.
  const budget = maxTokens * 3;
  if (estimateTextTokens(text) > maxTokens && text.length > budget) {
    text = `${text.slice(0, budget / 2)}\n\n[… middle of the conversation omitted …]\n\n${text.slice(-budget / 2)}`;
  }
  return text;
}

export const SUMMARY_SYSTEM =
  'You summarize a coding agent\'s conversation so the agent can continue from the summary alone. Write in the conversation\'s language.';

export function summaryPrompt(transcript: string): string {
  return [
    'Summarize the conversation below for the agent that will continue it. Keep: the goal and every instruction of the user;',
    'decisions made and why; files read or changed (paths, with what matters in them); commands run and their outcomes;',
    'errors met and how they were handled; what is done and what is left. Be specific (paths, names, numbers); skip chatter.',
    '',
    '<conversation>',
    transcript,
    '</conversation>',
  ].join('\n');
}

function summaryMessage(summary: string, request: string): MessageParam {
  const text = [`[Conversation compacted. Summary of the earlier part:]`, summary.trim()];
  if (request) text.push('', '[The request being worked on, verbatim:]', request);
  return { role: 'user', content: [{ type: 'text', text: text.join('\n') }] };
}

/** Replays a `compacted` record on the messages it was made from (live and on resume alike). */
export function applyCompaction(messages: readonly MessageParam[], record: CompactionRecord): MessageParam[] {
  let out = applyStubs(messages, record.stubs);
  if (record.summary !== undefined && record.keptMessages !== undefined) {
    const tail = out.slice(out.length - record.keptMessages);
    const request = lastRequest(out.slice(0, out.length - record.keptMessages));
    out = [summaryMessage(record.summary, request), ...tail];
  }
  return out;
}

