// Section 9: prompt caching. The local server applies the API's documented caching rules (prefix order tools →
// system → messages, entries keyed by the prefix's exact bytes, the model's minimum, 4 breakpoints, 20-block
// look-back, 5-minute TTL, an entry readable once the response that wrote it has begun: test/fixtures/
// prompt-cache.ts) and reports cache_read_input_tokens / cache_creation_input_tokens per request.
//
//   billed input  = input + 0.1 × cache reads + 1.25 × cache writes (5-minute), in input-token units
//   uncached      = the same requests with no cache at all (input + reads + writes)
//   floor         = the same requests (bodies as sent) replayed with breakpoints on the last tool, the system
//                   prompt and the tail, each agent on a cache of its own: what a well-placed agent pays alone
//
// Then the fixed prefix (tool definitions, system prompt) in tokens (characters / 4, the server's estimator).
import { runCli } from './cli.mjs';
import { delegatePlan, inlineGrowthPlan, readJobs, turnsPlan } from './plans.mjs';
import { loadTs } from './util.mjs';

const { PromptCache } = loadTs('test/fixtures/prompt-cache.ts');
const { estimateTokens } = loadTs('test/fixtures/sse-replies.ts');

const CC = { type: 'ephemeral' };
const billed = (u) => u.input_tokens + 0.1 * u.cache_read_input_tokens + 1.25 * u.cache_creation_input_tokens;
const uncached = (u) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
const sum = (list, f) => list.reduce((n, x) => n + f(x), 0);

function strip(value) {
  if (Array.isArray(value)) return value.map(strip);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'cache_control').map(([k, v]) => [k, strip(v)]));
}

/** The body with breakpoints on the last tool, the last system block and the last block of the last message. */
function floorBody(body) {
  const b = strip(body);
  if (b.tools?.length) b.tools[b.tools.length - 1].cache_control = CC;
  if (Array.isArray(b.system) && b.system.length) b.system[b.system.length - 1].cache_control = CC;
  const last = b.messages?.at(-1);
  if (last) {
    if (typeof last.content === 'string') last.content = [{ type: 'text', text: last.content }];
    const block = [...last.content].reverse().find((x) => x.type !== 'thinking' && x.type !== 'redacted_thinking' && !(x.type === 'text' && x.text === ''));
    if (block) block.cache_control = CC;
  }
  return b;
}

/** The floor of a run's requests: each route (agent) replayed in order on its own fresh cache. */
function floorOf(requests) {
  const caches = new Map();
  let total = 0;
  for (const r of requests) {
    const cache = caches.get(r.route) ?? new PromptCache();
    caches.set(r.route, cache);
    const body = floorBody(r.body);
    const v = cache.evaluate(body, estimateTokens(JSON.stringify(strip(body)).length));
    if (!v.ok) throw new Error(`floor replay: ${v.message}`);
    v.commit();
    total += billed(v.usage);
  }
  return total;
}

const tokensOfJson = (v) => estimateTokens(JSON.stringify(strip(v)).length);

/** pi 0.73's fixed prefix (tools + system prompt) on the issue's loop, in the same estimate (issue 30). */
const PI_PREFIX = 1_332;

/**
 * The same request bodies, each agent on a cache of its own, with tools + system replaced by one filler tool and the
 * system prompt sized to pi's prefix (breakpoints where Delegate puts them: the last tool, the system prompt, the
 * tail): what these requests would bill with pi's prefix and Delegate's conversation.
 */
function withPiPrefix(requests) {
  const caches = new Map();
  let total = 0;
  for (const r of requests) {
    const cache = caches.get(r.route) ?? new PromptCache();
    caches.set(r.route, cache);
    const body = floorBody(r.body);
    body.system = [{ type: 'text', text: 'x', cache_control: CC }];
    body.tools = [{ name: 'filler', description: '', input_schema: { type: 'object' }, cache_control: CC }];
    const short = PI_PREFIX - tokensOfJson(body.tools) - tokensOfJson(body.system);
    body.tools[0].description = 'x'.repeat(Math.max(0, short * 4));
    const v = cache.evaluate(body, estimateTokens(JSON.stringify(strip(body)).length));
    if (!v.ok) throw new Error(`pi-prefix replay: ${v.message}`);
    v.commit();
    total += billed(v.usage);
  }
  return total;
}

/** A request billed on a fresh cache (breakpoints where the floor puts them): what an agent pays with nothing cached. */
function aloneBilled(body) {
  const b = floorBody(body);
  const v = new PromptCache().evaluate(b, estimateTokens(JSON.stringify(strip(b)).length));
  if (!v.ok) throw new Error(`alone replay: ${v.message}`);
  return billed(v.usage);
}

/** The schema's properties by size, largest first: where a tool's schema tokens go. */
function schemaParts(schema) {
  const props = Object.entries(schema?.properties ?? {}).map(([k, v]) => [k, tokensOfJson({ [k]: v })]);
  if (props.length < 2) return '';
  return ` (${props.sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')})`;
}

export async function benchCaching(report, server, scratch) {
  report.note(
    [
      'The built CLI against the local server with the API\'s caching rules (test/fixtures/prompt-cache.ts). Billed input',
      '= input + 0.1 × cache reads + 1.25 × cache writes, in input tokens; uncached = the same requests without a cache;',
      'floor = the same request bodies replayed with breakpoints on the last tool, the system prompt and the tail, each',
      'agent on a cache of its own. Tokens are the server\'s estimate (characters / 4). One run each (deterministic).',
    ].join('\n'),
  );

  // A 30-turn loop: one cheap tool call a turn.
  const loop = await runCli(server, scratch, turnsPlan(30), { bodies: true });
  const loopBilled = sum(loop.requests, (r) => billed(r.cache));
  const loopFloor = floorOf(loop.requests);
  report.row('30-turn loop: billed input', loopBilled, { unit: 'tokens', digits: 0 });
  report.row('  the floor (last tool, system, tail)', loopFloor, { unit: 'tokens', digits: 0 });
  report.row('  uncached', sum(loop.requests, (r) => uncached(r.cache)), { unit: 'tokens', digits: 0 });
  report.row('  billed / floor', loopBilled / loopFloor, { unit: '×', digits: 3, max: 1.05 });
  report.row('  requests reading the cache (of 31)', loop.requests.filter((r) => r.cache.cache_read_input_tokens > 0).length, { unit: '', digits: 0 });

  // A parent with 4 parallel children of one kind, each reading 3 files.
  const tags = ['JOB-A', 'JOB-B', 'JOB-C', 'JOB-D'];
  const fanout = await runCli(server, scratch, delegatePlan(readJobs(tags, { delays: tags.map(() => 50) })), { bodies: true });
  const fanBilled = sum(fanout.requests, (r) => billed(r.cache));
  const fanFloor = floorOf(fanout.requests);
  report.row('parent + 4 parallel children: billed input', fanBilled, { unit: 'tokens', digits: 0 });
  report.row('  the per-agent floor', fanFloor, { unit: 'tokens', digits: 0 });
  report.row('  uncached', sum(fanout.requests, (r) => uncached(r.cache)), { unit: 'tokens', digits: 0 });
  report.row('  billed / per-agent floor', fanBilled / fanFloor, { unit: '×', digits: 3, max: 0.999 });
  const firsts = tags.map((tag) => fanout.requests.find((r) => r.route === tag));
  const paid = firsts.filter((r) => r.cache.cache_read_input_tokens < 0.95 * tokensOfJson(r.body.tools));
  report.check('no child pays full price for the tool definitions', paid.length === 0,
    firsts.map((r) => `${r.route} read ${r.cache.cache_read_input_tokens} of ${tokensOfJson(r.body.tools)} tool tokens`).join(', '));
  // What the parent's cache is worth to a child (why the shared tools stay above the model's minimum): its first
  // request as billed, and the same body on a cache of its own (everything written).
  report.row('a child\'s first request: billed (reads the parent\'s tools)', sum(firsts, (r) => billed(r.cache)) / firsts.length, { unit: 'tokens', digits: 0 });
  report.row('  the same on a cache of its own', sum(firsts, (r) => aloneBilled(r.body)) / firsts.length, { unit: 'tokens', digits: 0 });

  // The issue's 20-turn read loop (peers measured the same way: Claude Code 0.16, pi 0.18, Delegate before 1.00).
  const reads = await runCli(server, scratch, inlineGrowthPlan(), { bodies: true });
  const readsBilled = sum(reads.requests, (r) => billed(r.cache));
  const readsUncached = sum(reads.requests, (r) => uncached(r.cache));
  const readsPi = withPiPrefix(reads.requests);
  report.row('20-turn read loop: billed input', readsBilled, { unit: 'tokens', digits: 0, max: Math.round(readsPi) });
  report.row('  the same requests with pi\'s 1,332-token prefix', readsPi, { unit: 'tokens', digits: 0 });
  report.row('  uncached', readsUncached, { unit: 'tokens', digits: 0 });
  report.row('  billed / uncached (Claude Code 0.16, pi 0.18)', readsBilled / readsUncached, { unit: '×', digits: 3 });
  report.note('  (issue 30, on its own loop: pi 0.73 billed 10,275, Delegate 14,441 with a 1,828-token prefix)');

  // The fixed prefix: what every request starts with.
  const parent = fanout.requests.find((r) => r.route === 'parent').body;
  const child = firsts[0].body;
  report.note('The fixed prefix, in tokens (the parent\'s tools; the child has the same less task/task_output):');
  for (const t of parent.tools) {
    report.row(`  tool ${t.name}`, tokensOfJson(t), { unit: 'tokens', digits: 0 });
    report.note(`      description ${tokensOfJson(t.description)}, schema ${tokensOfJson(t.input_schema)}${schemaParts(t.input_schema)}`);
  }
  report.row('  system prompt, parent', tokensOfJson(parent.system), { unit: 'tokens', digits: 0 });
  report.row('  system prompt, subagent', tokensOfJson(child.system), { unit: 'tokens', digits: 0 });
  report.row('  tools + system, parent (issue 30 before: 2,752; pi 1,332)', tokensOfJson(parent.tools) + tokensOfJson(parent.system), { unit: 'tokens', digits: 0, max: PI_PREFIX });
  report.row('  tools shared with subagents (cacheable from 1,024)', tokensOfJson(child.tools), { unit: 'tokens', digits: 0 });
}
