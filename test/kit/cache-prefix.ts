/**
 * How much of a request the prompt cache could serve from an earlier request: the share of its input that is
 * an exact prefix of the earlier one, in the order the API builds the cache (tools, then system, then messages)
 * and at block granularity (a cached prefix ends at a block boundary).
 *
 *   units(request) = [tool₁ … toolₙ │ system block… │ message₁ block… │ message₂ block… │ …]   (each as JSON)
 *   share          = chars of the leading units both requests have alike ÷ chars of all the later one's units
 *
 * As the API does: a different model shares nothing; a different `tool_choice` or `thinking` setting keeps
 * tools and system but not the messages. `cache_control` markers are left out of the comparison (they are not
 * content: a breakpoint moves to the newest block from one request to the next).
 */
import type { MessagesRequestBody, WireBlock } from '../fixtures/messages-api-server';

/** `value` without its `cache_control` markers (a request's content as the cache compares it). */
function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => k !== 'cache_control').map(([k, v]) => [k, withoutCacheControl(v)]));
}

/** JSON of `value` without its `cache_control` markers. */
export const contentJson = (value: unknown): string => JSON.stringify(withoutCacheControl(value));
const json = contentJson;

function blocksOf(content: string | WireBlock[] | undefined): unknown[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The request's cacheable input as units, in cache order; `messagesFrom` is the index of the first message unit. */
function cacheUnits(body: MessagesRequestBody): { units: string[]; messagesFrom: number } {
  const units: string[] = [];
  for (const tool of body.tools ?? []) units.push(`tool:${json(tool)}`);
  for (const block of blocksOf(body.system)) units.push(`system:${json(block)}`);
  const messagesFrom = units.length;
  (body.messages ?? []).forEach((m, i) => {
    for (const block of blocksOf(m.content)) units.push(`${i}:${m.role}:${json(block)}`);
  });
  return { units, messagesFrom };
}

export interface PrefixShare {
  /** Characters of the later request's input that the earlier one has as its prefix. */
  sharedChars: number;
  totalChars: number;
  share: number;
  /** Where they part (the first unit of the later request not in the earlier one), for a failing test's message. */
  firstDifference?: string;
}

export function sharedPrefixShare(earlier: MessagesRequestBody, later: MessagesRequestBody): PrefixShare {
  const a = cacheUnits(earlier);
  const b = cacheUnits(later);
  const totalChars = b.units.reduce((n, u) => n + u.length, 0);
  if (earlier.model !== later.model) return { sharedChars: 0, totalChars, share: 0, firstDifference: `model ${later.model} vs ${earlier.model}` };
  const sameSettings = json(earlier.tool_choice) === json(later.tool_choice) && json(earlier.thinking) === json(later.thinking);
  let sharedChars = 0;
  let i = 0;
  for (; i < b.units.length && i < a.units.length; i++) {
    if (!sameSettings && i >= b.messagesFrom) break;
    if (a.units[i] !== b.units[i]) break;
    sharedChars += (b.units[i] as string).length;
  }
  const firstDifference = i < b.units.length ? (b.units[i] as string).slice(0, 200) : undefined;
  return { sharedChars, totalChars, share: totalChars === 0 ? 0 : sharedChars / totalChars, ...(firstDifference !== undefined ? { firstDifference } : {}) };
}
