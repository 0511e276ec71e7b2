/**
 * Prompt caching: where a request's `cache_control` breakpoints go.
 *
 *   prefix order (the API's): tools ──────────────────────────────▶ system ─▶ messages
 *                             [shared tools][server tools] | [own tools]  prompt     … previous tail … tail
 *   breakpoints, by priority:  ③ (④ before MCP tools)                  ②           (⑤)            ①
 *
 *   ① tail     the last block of the last message: the whole conversation is written, and the next request
 *              reads it (the API looks back up to 20 blocks before a breakpoint for an entry)
 *   ② system   tools + system prompt: what every turn of this agent starts with
 *   ③ shared   the tools parent and children share (an agent's own tools, `task`, come after): a child's
 *              first request reads the tool definitions its parent cached, siblings read each other's
 *   ⑤ previous tail, when it is more than 20 blocks back (a turn of many parallel tool calls)
 *   ④ the built-in tools before MCP ones (an MCP server that connects late leaves them cached)
 *
 * At most 4 (the API refuses more); none whose prefix is below the model's minimum cacheable size even
 * counted generously (the API would not cache it, and the slot can serve elsewhere). The request's bytes are
 * otherwise unchanged: a string system prompt becomes one text block, which the API reads as the same prompt.
 * Sources: platform.claude.com/docs/en/build-with-claude/prompt-caching.
 */
import type Anthropic from '@anthropic-ai/sdk';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type Block = Anthropic.ContentBlockParam;

export interface CacheRequest {
  /** How many of the request's (client) tools come first and are shared with other agents; default: all. */
  sharedTools?: number;
}

export const MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;
const EPHEMERAL = { type: 'ephemeral' } as const;

/** Minimum cacheable prefix by model family (longest prefix wins), as documented; others 1,024. */
const MINIMUM_TOKENS: [prefix: string, tokens: number][] = [
  ['claude-opus-5', 512],
  ['claude-fable-5', 512],
  ['claude-mythos-5', 512],
  ['claude-opus-4-7', 2048],
  ['claude-opus-4-6', 4096],
  ['claude-opus-4-5', 4096],
  ['claude-haiku-4-5', 4096],
  ['claude-3-5-haiku', 2048],
  ['claude-3-haiku', 2048],
];

function minimumCacheableTokens(model: string): number {
  const hit = MINIMUM_TOKENS.filter(([p]) => model.startsWith(p)).sort((a, b) => b[0].length - a[0].length)[0];
  return hit ? hit[1] : 1024;
}

/** Generous on purpose (3 characters a token): a breakpoint is dropped only when it surely cannot cache. */
const generousTokens = (chars: number): number => Math.ceil(chars / 3);

const isServerTool = (t: Anthropic.ToolUnion): boolean => 'type' in t && t.type !== undefined && t.type !== 'custom';
/** Blocks that cannot carry cache_control: thinking, and empty text. */
const markable = (b: Block): boolean => b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text === '');

interface Candidate {
  /** Position in the prefix (tools, then system blocks, then message blocks). */
  at: number;
  apply(): void;
}

/** `params` with breakpoints placed (a new object; the caller's messages are not changed). */
export function withCacheBreakpoints(params: Params, cache: CacheRequest | undefined): Params {
  if (!cache) return params;
  const all = params.tools ?? [];
  const client = all.filter((t) => !isServerTool(t));
  const server = all.filter(isServerTool);
  const shared = Math.max(0, Math.min(cache.sharedTools ?? client.length, client.length));
  // Shared client tools (built-ins as registered, then MCP tools by name: servers connect in any order), then
  // server tools (every agent that searches has the same), then this agent's own.
  const isMcp = (t: Anthropic.ToolUnion): boolean => 'name' in t && t.name.startsWith('mcp__');
  const common = client.slice(0, shared);
  const mcp = common.filter(isMcp).sort((a, b) => ((a as Anthropic.Tool).name < (b as Anthropic.Tool).name ? -1 : 1));
  const tools: Anthropic.ToolUnion[] = [...common.filter((t) => !isMcp(t)), ...mcp, ...server, ...client.slice(shared)].map((t) => ({ ...t }));
  const system: Anthropic.TextBlockParam[] =
    typeof params.system === 'string' ? (params.system ? [{ type: 'text', text: params.system }] : []) : (params.system ?? []).map((b) => ({ ...b }));
  const messages = [...params.messages];

  // Where each block ends, in characters of the prefix.
  const ends: number[] = [];
  let chars = 0;
  const count = (v: unknown): void => {
    chars += JSON.stringify(v).length;
    ends.push(chars);
  };
  tools.forEach(count);
  system.forEach(count);
  const messageStart: number[] = [];
  for (const m of messages) {
    messageStart.push(ends.length);
    if (typeof m.content === 'string') count({ type: 'text', text: m.content });
    else m.content.forEach(count);
  }

  const mark = (i: number, at: number): Candidate => ({ at, apply: () => Object.assign(tools[i] as object, { cache_control: EPHEMERAL }) });
  /** The last markable block of message `mi`, as a candidate (its content copied before it is marked). */
  const markMessage = (mi: number): Candidate | undefined => {
    const m = messages[mi] as Anthropic.MessageParam;
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (let bi = blocks.length - 1; bi >= 0; bi--) {
      if (!markable(blocks[bi] as Block)) continue;
      return {
        at: (messageStart[mi] as number) + bi,
        apply: () => {
          const content = [...blocks];
          content[bi] = { ...(content[bi] as Block), cache_control: EPHEMERAL } as Block;
          messages[mi] = { ...m, content } as Anthropic.MessageParam;
        },
      };
    }
    return undefined;
  };

  const candidates: (Candidate | undefined)[] = [];
  const last = messages.length - 1;
  const tail = last >= 0 ? markMessage(last) : undefined;
  candidates.push(tail);
  if (system.length > 0) {
    const i = system.length - 1;
    candidates.push({ at: tools.length + i, apply: () => Object.assign(system[i] as object, { cache_control: EPHEMERAL }) });
  }
  const sharedEnd = shared + server.length - 1;
  if (sharedEnd >= 0) candidates.push(mark(sharedEnd, sharedEnd));
  // The previous request's tail (the user message before the last answer), when the look-back cannot reach it.
  let answered = last;
  while (answered >= 0 && messages[answered]?.role !== 'assistant') answered--;
  let previous = answered - 1;
  while (previous >= 0 && messages[previous]?.role !== 'user') previous--;
  const prev = previous >= 0 ? markMessage(previous) : undefined;
  if (prev && tail && tail.at - prev.at > LOOKBACK_BLOCKS) candidates.push(prev);
  const firstMcp = tools.slice(0, sharedEnd + 1).findIndex(isMcp);
  if (firstMcp > 0) candidates.push(mark(firstMcp - 1, firstMcp - 1));

  const minimum = minimumCacheableTokens(params.model);
  const chosen: Candidate[] = [];
  for (const c of candidates) {
    if (!c || chosen.length >= MAX_BREAKPOINTS || chosen.some((o) => o.at === c.at)) continue;
    if (generousTokens(ends[c.at] ?? 0) < minimum) continue;
    chosen.push(c);
  }
  for (const c of chosen) c.apply();
  return { ...params, messages, ...(system.length > 0 ? { system } : {}), ...(tools.length > 0 ? { tools } : {}) };
}
