/**
 * Prompt caching through the built CLI against the local server, which applies the API's caching rules
 * (test/fixtures/prompt-cache.ts): later requests read what earlier ones wrote, a child's first request reads
 * the tool definitions its parent cached, and an endpoint that rejects cache_control turns caching off.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startMessagesApiServer, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { assertBuilt, lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliDirs } from '../kit/temp-dirs';
import { isChild } from '../kit/is-child';

const read = (req: RecordedRequest | undefined): number => req?.cache?.cache_read_input_tokens ?? 0;
const breakpoints = (req: RecordedRequest): number => JSON.stringify(req.body).split('"cache_control"').length - 1;

describe('delegate CLI: prompt caching', function () {
  this.timeout(30_000);
  let api: MessagesApiServer;
  let dirs: { workdir: string; dataHome: string };
  const env = () => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL, XDG_DATA_HOME: dirs.dataHome });

  before(assertBuilt);
  beforeEach(() => {
    dirs = cliDirs();
    writeFileSync(join(dirs.workdir, 'a.txt'), 'alpha\n'.repeat(50));
  });
  afterEach(async () => {
    await api.close();
  });

  it('reads from the cache from the second request on; json usage and total_cost_usd price reads and writes as such', async () => {
    api = await startMessagesApiServer();
    api.script(
      reply.toolUse({ name: 'glob', input: { pattern: '*.txt' } }),
      reply.toolUse({ name: 'read_file', input: { path: 'a.txt' } }),
      reply.toolUse({ name: 'grep', input: { pattern: 'alpha' } }),
      reply.text('a.txt is all alpha.'),
    );
    const run = await runDelegate(['-p', 'What is in a.txt?', '--cwd', dirs.workdir, '--output-format', 'json'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    api.assertAllConsumed();
    const requests = api.messageRequests();
    assert.equal(requests.length, 4);
    for (const req of requests) assert.ok(breakpoints(req) >= 2 && breakpoints(req) <= 4, `${breakpoints(req)} breakpoints`);
    assert.equal(read(requests[0]), 0, 'nothing to read on the first request');
    assert.ok((requests[0]?.cache?.cache_creation_input_tokens ?? 0) > 1024, 'the first request writes the prefix');
    for (const req of requests.slice(1)) {
      // Everything the previous request cached is read back: only this turn's new blocks are written. (The server
      // counts the body's JSON outside the content blocks, model, thinking settings…, as uncached input.)
      const previousCached = (r: RecordedRequest) => (r.cache ? r.cache.cache_read_input_tokens + r.cache.cache_creation_input_tokens : 0);
      const previous = requests[req.index - 1] as RecordedRequest;
      assert.ok(read(req) >= previousCached(previous), `request ${req.index} read ${read(req)} of the ${previousCached(previous)} the one before cached`);
      assert.ok((req.cache?.input_tokens ?? 0) < 120, `request ${req.index}: ${req.cache?.input_tokens} uncached input tokens`);
    }
    const result = lastJsonLine(run.stdout);
    const usage = result.usage as Record<string, number>;
    const sum = (k: 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') => requests.reduce((n, r) => n + (r.cache?.[k] ?? 0), 0);
    assert.equal(usage.cache_read_input_tokens, sum('cache_read_input_tokens'));
    assert.equal(usage.cache_creation_input_tokens, sum('cache_creation_input_tokens'));
    assert.equal(usage.input_tokens, sum('input_tokens'));
    // Sonnet: $3 input, $0.30 cache reads, $3.75 cache writes, $15 output per million tokens.
    const expected = ((usage.input_tokens ?? 0) * 3 + (usage.cache_read_input_tokens ?? 0) * 0.3 + (usage.cache_creation_input_tokens ?? 0) * 3.75 + (usage.output_tokens ?? 0) * 15) / 1e6;
    assert.ok(Math.abs(Number(result.total_cost_usd) - expected) < 2e-6, `${String(result.total_cost_usd)} vs ${expected}`);
    const uncached = ((usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0)) * 3 / 1e6;
    assert.ok(Number(result.total_cost_usd) < uncached, 'cheaper than the same input uncached');
  });

  it('a child’s first request reads the tool definitions its parent cached; a later sibling also reads the system prompt', async () => {
    api = await startMessagesApiServer();
    api.route([
      { name: 'child', match: isChild, replies: [reply.text('Conclusion: a.txt is alpha.'), reply.text('Conclusion: a.txt is still alpha.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'Look at a.txt.', description: 'look' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'Look at a.txt again.', description: 'again' } }),
          reply.text('Done.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'Delegate a look at a.txt', '--cwd', dirs.workdir, '--output-format', 'json', '-v'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    api.assertAllConsumed();
    const [parentFirst, childFirst] = api.messageRequests();
    assert.ok(parentFirst && childFirst && isChild(childFirst) && !isChild(parentFirst));
    // The shared block (the session's tools) is the same bytes in both, and ends with a breakpoint in both.
    const names = (r: RecordedRequest) => (r.body.tools ?? []).map((t) => t.name);
    const shared = names(childFirst);
    assert.deepEqual(names(parentFirst).slice(0, shared.length), shared);
    assert.ok(childFirst.body.tools?.at(-1)?.cache_control);
    assert.ok(parentFirst.body.tools?.[shared.length - 1]?.cache_control);
    const toolsTokens = Math.ceil(JSON.stringify(childFirst.body.tools).length / 4);
    assert.ok(read(childFirst) >= toolsTokens - 20 && read(childFirst) <= toolsTokens + 20, `the child read ${read(childFirst)} tokens, the tools are ~${toolsTokens}`);
    // The second child (same kind, same system prompt) reads the tools and the system prompt the first one wrote.
    const secondChild = api.messageRequests().filter(isChild)[1] as RecordedRequest;
    const systemTokens = Math.ceil(JSON.stringify(secondChild.body.system).length / 4);
    assert.ok(read(secondChild) >= read(childFirst) + systemTokens - 40, `the second child read ${read(secondChild)}`);
    // -v: the child's progress line carries its cache hit share (reads ÷ all input).
    const c = childFirst.cache as NonNullable<RecordedRequest['cache']>;
    const share = Math.round((c.cache_read_input_tokens / (c.input_tokens + c.cache_read_input_tokens + c.cache_creation_input_tokens)) * 100);
    assert.ok(share > 0);
    assert.match(run.stderr, new RegExp(`\\[look\\] completed · 1 turns · 0 tool calls · \\d+ tokens \\(${share}% cached\\) · `), run.stderr);
  });

  it('an endpoint that rejects cache_control: caching goes off for the session, the request is sent again, one notice', async () => {
    api = await startMessagesApiServer({ rejectCacheControl: true });
    api.script(reply.toolUse({ name: 'read_file', input: { path: 'a.txt' } }), reply.text('alpha.'));
    const run = await runDelegate(['-p', 'Read a.txt', '--cwd', dirs.workdir, '--output-format', 'json'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    api.assertAllConsumed();
    assert.equal(lastJsonLine(run.stdout).result, 'alpha.');
    const requests = api.messageRequests();
    assert.equal(requests.length, 3, 'the rejected request, its retry, the next turn');
    assert.ok(breakpoints(requests[0] as RecordedRequest) > 0);
    assert.equal(breakpoints(requests[1] as RecordedRequest), 0);
    assert.equal(breakpoints(requests[2] as RecordedRequest), 0);
    const notices = run.stderr.split('\n').filter((l) => l.includes('prompt caching'));
    assert.equal(notices.length, 1, run.stderr);
    assert.match(notices[0] ?? '', /^delegate: warning: this endpoint does not accept prompt caching \(cache_control\): caching is off for this session$/);
  });
});
