/**
 * Pure helpers that turn raw event payloads into what a row shows: a one-line input summary,
 * the file paths an input names, bounded previews, and the text of a Messages API message.
 */
import type { MessageParam } from '../core/llm/types';
import { PREVIEW_LIMIT } from './types';

const SUMMARY_LIMIT = 200;

/** Input keys that name a file, in the order they are looked for. */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'target', 'cwd'];
/** Input keys whose value makes a good one-line summary, in priority order. */
const SUMMARY_KEYS = ['command', 'cmd', ...PATH_KEYS, 'pattern', 'query', 'glob', 'url', 'description', 'prompt'];

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** First line, whitespace collapsed, cut to `limit` with an ellipsis. */
export function oneLine(text: string, limit = SUMMARY_LIMIT): string {
  const trimmed = text.trim();
  const nl = trimmed.indexOf('\n');
  const collapsed = (nl < 0 ? trimmed : trimmed.slice(0, nl)).replace(/\s+/g, ' ').trim();
  if (collapsed.length > limit) return `${collapsed.slice(0, limit - 1)}…`;
  return nl < 0 ? collapsed : `${collapsed} …`;
}

/** Cuts `text` to `limit` characters; `truncated` says whether anything was dropped. */
export function preview(text: string, limit = PREVIEW_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: `${text.slice(0, limit)}…`, truncated: true };
}

/** The one line shown beside the tool name: the command, else the path, else the first string. */
export function summarizeInput(name: string, input: unknown): string {
  const record = asRecord(input);
  if (!record) return typeof input === 'string' ? oneLine(input) : '';
  for (const key of SUMMARY_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') {
      if (key === 'pattern' && typeof record.path === 'string') return oneLine(`${value}  in ${record.path}`);
      return oneLine(value);
    }
  }
  for (const value of Object.values(record)) {
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
  }
  return name === '' ? '' : oneLine(JSON.stringify(record));
}

/** File paths the input names (`path`, `file_path`, or a `paths` array). */
export function inputPaths(input: unknown): string[] {
  const record = asRecord(input);
  if (!record) return [];
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    if (key === 'cwd') continue;
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') out.push(value);
  }
  const many = record.paths;
  if (Array.isArray(many)) for (const p of many) if (typeof p === 'string') out.push(p);
  return out;
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

/** The task description: the `description` input, else the prompt's first line. */
export function taskDescription(input: unknown): { description: string; prompt: string } {
  const record = asRecord(input);
  const prompt = record && typeof record.prompt === 'string' ? record.prompt : '';
  const description = record && typeof record.description === 'string' && record.description.trim() !== '' ? record.description.trim() : '';
  return { description: description || oneLine(prompt, 80) || 'Subtask', prompt };
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

