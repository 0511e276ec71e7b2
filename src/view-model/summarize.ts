/**
 * Pure helpers that turn event payloads into what a row shows: bounded previews, a tool input as JSON, and the text
 * of a Messages API message. A call's summary and paths are its tool's (the record's): nothing here guesses them.
 */
import type { MessageParam } from '../core/llm/types';
import { PREVIEW_LIMIT } from './types';

export { oneLine } from '../core/shown-text';

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Cuts `text` to `limit` characters; `truncated` says whether anything was dropped. */
export function preview(text: string, limit = PREVIEW_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: `${text.slice(0, limit)}…`, truncated: true };
}

/** Pretty JSON of a tool input, bounded. Never throws (cycles and BigInts fall back to String). */
export function inputJson(input: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    json = String(input);
  }
  return preview(json).text;
}

/** Text blocks of a message, joined; tool_use / tool_result / thinking blocks are skipped. */
export function messageText(message: MessageParam): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    const b = asRecord(block);
    if (b && b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  }
  return parts.join('\n\n');
}

