// Forks (real SDK, local server): task{fork: true} starts a child whose first request repeats the parent's
// latest request (same system, same tools in the same order, the parent's messages first), answers every call
// of the parent's last message with one placeholder, refuses a task call of its own, and returns only its final
// text; its calls never enter the parent's messages. Parallel forks of one turn, the transcript, and replay.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DelegateEvent } from '../../../src/core/events';
import { FORK_PLACEHOLDER_RESULT, FORK_REFUSAL } from '../../../src/core/delegation/fork';
import type { AgentResult } from '../../../src/core/loop/types';
import type { Session } from '../../../src/core/session';
import type { ConfigPatch } from '../../kit/session-config';
import { readTranscript } from '../../../src/core/store/transcript-reader';
import { replaySession } from '../../../src/core/session/replay';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer, type RecordedRequest, type WireBlock } from '../../fixtures/messages-api-server';
import { contentJson, sharedPrefixShare } from '../../kit/cache-prefix';
import { must } from '../../kit/must';
import { readJsonl } from '../../kit/run-cli';
import { isChild } from '../../kit/is-child';
import { tempDir } from '../../kit/temp-dirs';
import { testSession } from '../../kit/test-session';
import { waitUntil } from '../../kit/wait';

const SOURCES = resolve(__dirname, '..', '..', '..', 'src', 'core');

/** The fork's directive in a request (the text block after the placeholders), if it is a fork's request. */
function directiveOf(req: RecordedRequest): string | undefined {
  for (const m of req.body.messages ?? []) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    const text = m.content.find((b) => b.type === 'text' && String(b.text).startsWith('You are a fork'));
    if (text) return String(text.text);
  }
  return undefined;
}

const isFork = (tag: string) => (req: RecordedRequest): boolean => directiveOf(req)?.includes(tag) === true;
// Compared as the cache compares them: `cache_control` markers are not content (a breakpoint moves to each request's tail).
const json = contentJson;

function openSession(
  api: MessagesApiServer,
  workdir: string,
  transcriptRoot: string,
  context: ConfigPatch = {},
): Promise<{ session: Session; events: DelegateEvent[] }> {
  return testSession({ workdir, transcriptRoot, api, modelId: 'claude-sonnet-5-5' }, { ...context, tools: { webSearch: true } });
}

describe('forks: task{fork: true}', () => {
  let api: MessagesApiServer;
  let session: Session;
  let events: DelegateEvent[];
  let result: AgentResult;
  let transcriptRoot: string;
  const forkA = { id: 'toolu_fork_a' };
  const forkB = { id: 'toolu_fork_b' };

  before(async function () {
    this.timeout(20_000);
    api = await startMessagesApiServer({ strictToolPairs: true });
    // A workspace of real source files: the parent's history is a few turns of realistic reads.
    const workdir = tempDir('delegate-fork-ws-');
    for (const [f, from] of [['loop.ts', 'loop/loop.ts'], ['compaction.ts', 'loop/compaction-edits.ts'], ['task-tool.ts', 'delegation/task-tool.ts'], ['budget.ts', 'loop/budget.ts']] as const) copyFileSync(join(SOURCES, from), join(workdir, f));
    writeFileSync(join(workdir, 'notes.txt'), 'FORK-A-SECRET: only the fork reads this\n');
    transcriptRoot = tempDir('delegate-fork-tr-');
    api.route([
      {
        name: 'fork-a',
        match: isFork('FORK-A-TASK'),
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'nested job', fork: true }, id: 'toolu_nested' },
            { name: 'read_file', input: { path: 'notes.txt' }, id: 'toolu_a_read' },
          ]),
          reply.text('A-REPORT: compaction.ts keeps the last turns.'),
        ],
      },
      { name: 'fork-b', match: isFork('FORK-B-TASK'), replies: [reply.text('B-REPORT: the task tool caps its description.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.blocks(
            [
              { type: 'thinking', thinking: 'Start with the loop.' },
              { type: 'text', text: 'Reading the loop first.' },
              { type: 'tool_use', id: 'toolu_p1', name: 'read_file', input: { path: 'loop.ts' } },
            ],
            { stopReason: 'tool_use' },
          ),
          reply.toolUse({ name: 'read_file', input: { path: 'compaction.ts' } }),
          reply.toolUse({ name: 'read_file', input: { path: 'task-tool.ts' } }),
          reply.blocks(
            [
              { type: 'thinking', thinking: 'Two forks and one read.' },
              { type: 'tool_use', id: forkA.id, name: 'task', input: { prompt: 'FORK-A-TASK: explain what compaction keeps', description: 'explain compaction', fork: true } },
              { type: 'tool_use', id: forkB.id, name: 'task', input: { prompt: 'FORK-B-TASK: explain the task tool description', description: 'explain task tool', fork: true } },
              { type: 'tool_use', id: 'toolu_sibling', name: 'read_file', input: { path: 'budget.ts' } },
            ],
            { stopReason: 'tool_use' },
          ),
          reply.text('Both forks reported.'),
        ],
      },
    ]);
    ({ session, events } = await openSession(api, workdir, transcriptRoot));
    result = await session.run('Explain how compaction and the task tool work.', new AbortController().signal);
  });
  after(async () => {
    session?.close();
    await api.close();
  });

  const parentRequests = (): RecordedRequest[] => api.messageRequests().filter((r) => r.route === 'parent');
  const forkRequests = (tag: 'fork-a' | 'fork-b'): RecordedRequest[] => api.messageRequests().filter((r) => r.route === tag);

  it('runs to the end: both forks report, every reply is used', () => {
    assert.equal(result.status, 'completed', result.error);
    assert.equal(result.result, 'Both forks reported.');
    api.assertAllConsumed();
  });

  it("the fork's first request has the parent's system, tools (same JSON, same order) and messages first, byte for byte", () => {
    const produced = must(parentRequests()[3]); // the request whose reply held the task calls
    const next = must(parentRequests()[4]);
    for (const tag of ['fork-a', 'fork-b'] as const) {
      const first = must(forkRequests(tag)[0]);
      assert.equal(first.body.model, produced.body.model);
      assert.equal(first.body.max_tokens, produced.body.max_tokens);
      assert.equal(json(first.body.system), json(produced.body.system));
      assert.equal(json(first.body.tools), json(produced.body.tools));
      assert.deepEqual(must(first.body.tools).map((t) => t.name), must(produced.body.tools).map((t) => t.name));
      assert.ok(must(first.body.tools).some((t) => t.name === 'task'), 'task stays in the list (removing it would change the prefix)');
      assert.equal(first.body.tool_choice, produced.body.tool_choice);
      // Thinking settings are part of what the cache keys on from the messages on: the fork thinks as its parent does.
      assert.ok(produced.body.thinking, 'the parent thinks (claude-sonnet-5-5)');
      assert.equal(json(first.body.thinking), json(produced.body.thinking));
      assert.equal(json(first.body.output_config), json(produced.body.output_config));
      assert.equal(first.headers['anthropic-beta'], produced.headers['anthropic-beta']);
      const sent = must(produced.body.messages);
      const messages = must(first.body.messages);
      assert.equal(json(messages.slice(0, sent.length)), json(sent));
      // Then the parent's reply, as the parent's own next request sends it (thinking and its signature unchanged).
      assert.equal(json(messages[sent.length]), json(must(next.body.messages)[sent.length]));
      assert.match(json(messages[sent.length]), /"type":"thinking","thinking":"Two forks and one read\.","signature":"EsLocal\./);
      assert.match(json(messages[1]), /"thinking":"Start with the loop\.","signature":"EsLocal\./);
      assert.equal(messages.length, sent.length + 2);
    }
  });

  it('answers every call of that last message with one placeholder, then says which call it is and what to do', () => {
    const first = must(forkRequests('fork-a')[0]);
    const opening = must(first.body.messages?.at(-1));
    assert.equal(opening.role, 'user');
    const blocks = opening.content as WireBlock[];
    assert.deepEqual(
      blocks.slice(0, 3).map((b) => [b.type, b.tool_use_id, b.content]),
      [forkA.id, forkB.id, 'toolu_sibling'].map((id) => ['tool_result', id, FORK_PLACEHOLDER_RESULT]),
    );
    const directive = String(must(blocks[3]).text);
    assert.match(directive, /^You are a fork: a copy of the agent whose conversation is above, started by its task call toolu_fork_a\./);
    assert.match(directive, /Your task:\nFORK-A-TASK: explain what compaction keeps\n/);
    assert.match(directive, /a fork cannot delegate/);
    // The two forks share everything up to their directives.
    const other = must(forkRequests('fork-b')[0]);
    const otherBlocks = must(other.body.messages?.at(-1)).content as WireBlock[];
    assert.equal(json(otherBlocks.slice(0, 3)), json(blocks.slice(0, 3)));
  });

  it('refuses a task call inside a fork with an error tool_result; no agent is started for it', () => {
    const second = must(forkRequests('fork-a')[1]);
    const [nested, read] = lastToolResults(second);
    assert.equal(nested?.tool_use_id, 'toolu_nested');
    assert.equal(nested?.is_error, true);
    assert.equal(nested?.content, FORK_REFUSAL);
    assert.match(String(read?.content), /FORK-A-SECRET/);
    const forkIds = result.subagents.map((s) => s.id);
    assert.equal(events.filter((e) => e.type === 'agent_started' && e.parentId !== null && forkIds.includes(e.parentId)).length, 0);
    assert.equal(events.filter((e) => e.type === 'agent_started').length, 3, 'the root and two forks');
  });

  it("only the fork's final text returns; its calls and messages never enter the parent's", () => {
    const last = must(parentRequests()[4]);
    const results = lastToolResults(last);
    assert.match(String(results.find((r) => r.tool_use_id === forkA.id)?.content), /^A-REPORT: compaction\.ts keeps the last turns\./);
    assert.match(String(results.find((r) => r.tool_use_id === forkB.id)?.content), /^B-REPORT: the task tool caps its description\./);
    const text = json(last.body.messages);
    for (const leak of ['FORK-A-SECRET', 'toolu_nested', 'toolu_a_read', 'You are a fork', FORK_PLACEHOLDER_RESULT, FORK_REFUSAL]) {
      assert.equal(text.includes(leak), false, `${leak} reached the parent`);
    }
    assert.equal(json(result.messages).includes('FORK-A-SECRET'), false);
  });

  it('is reported as a fork: subagents[] and the agent_started event', () => {
    assert.equal(result.subagents.length, 2);
    for (const s of result.subagents) {
      assert.equal(s.fork, true);
      assert.equal(s.agent_type, 'fork');
      assert.equal(s.model, 'claude-sonnet-5-5');
    }
    const starts = events.filter((e) => e.type === 'agent_started' && e.parentId !== null);
    const sent = must(parentRequests()[3]).body.messages?.length ?? 0;
    for (const e of starts) {
      assert.deepEqual(e.type === 'agent_started' && e.forkedFrom, { agentId: result.agentId, messageCount: sent + 1 });
      assert.equal(e.type === 'agent_started' && e.agentType, 'fork');
    }
  });

  it("keeps its own transcript, which says whose conversation it started from; a resumed session's history holds only the reports", async () => {
    const fork = must(result.subagents.find((s) => s.result.startsWith('A-REPORT')));
    const lines = readJsonl(session.store.agentFile(fork.id));
    assert.equal(lines[0]?.type, 'agent_started');
    assert.deepEqual(lines[0]?.forkedFrom, { agentId: result.agentId, messageCount: (must(parentRequests()[3]).body.messages?.length ?? 0) + 1 });
    assert.ok(lines.some((l) => l.type === 'tool_call' && l.id === 'toolu_nested' && l.state === 'error'), 'the refused call is in its file');
    const replayed = replaySession(session.id, must(await readTranscript(transcriptRoot, session.id)), result.agentId);
    assert.equal(json(replayed.history), json(session.history));
    const history = json(replayed.history);
    assert.equal(history.includes('You are a fork'), false);
    assert.equal(history.includes('FORK-A-SECRET'), false);
    assert.equal(history.split('A-REPORT').length, 2, "the fork's report once: its tool_result");
  });

  it("its first request's input is ≥ 90 % an exact prefix of the parent's latest request (what the cache can serve)", () => {
    const produced = must(parentRequests()[3]);
    for (const tag of ['fork-a', 'fork-b'] as const) {
      const share = sharedPrefixShare(produced.body, must(forkRequests(tag)[0]).body);
      assert.ok(share.share >= 0.9, `${tag}: ${(share.share * 100).toFixed(1)} % shared (${share.sharedChars} of ${share.totalChars} chars); first difference: ${share.firstDifference}`);
    }
  });

  it("its first request reads ≥ 90 % of its input from the prompt cache (the server applies the API's caching rules)", () => {
    for (const tag of ['fork-a', 'fork-b'] as const) {
      const cache = must(must(forkRequests(tag)[0]).cache);
      const total = cache.input_tokens + cache.cache_read_input_tokens + cache.cache_creation_input_tokens;
      const read = cache.cache_read_input_tokens / total;
      assert.ok(read >= 0.9, `${tag}: ${(read * 100).toFixed(1)} % of ${total} input tokens read from cache (${JSON.stringify(cache)})`);
    }
  });
});

describe('forks: refused with subagent_type; after compaction, in the background, of a subagent', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer({ strictToolPairs: true });
  });
  afterEach(() => api.close());

  it('fork with subagent_type is an error tool_result for the parent, and nothing starts', async () => {
    api.script(reply.toolUse({ name: 'task', input: { prompt: 'look around', fork: true, subagent_type: 'Explore' } }), reply.text('ok'));
    const { session, events } = await openSession(api, tempDir('delegate-fork-ws-'), tempDir('delegate-fork-tr-'));
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.status, 'completed');
    const [res] = lastToolResults(must(api.messageRequests()[1]));
    assert.equal(res?.is_error, true);
    assert.match(String(res?.content), /a fork runs as you \(your system prompt, tools and model\), so it takes no subagent_type/);
    assert.equal(events.filter((e) => e.type === 'agent_started').length, 1);
    session.close();
  });

  it("after the parent's context was compacted, the fork starts from the compacted conversation (what the parent sent last)", async () => {
    const workdir = tempDir('delegate-fork-ws-');
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}.txt`);
    // a and b are big, the last three small: stubbing a and b brings the context well under the limit (a compaction
    // whose stubs free too little summarizes as well: compact-if-needed.ts LOW_WATER).
    for (const f of files) writeFileSync(join(workdir, f), `${f}\n${'lorem ipsum dolor sit amet '.repeat(f < 'c' ? 300 : 10)}\n`);
    api.route([
      { name: 'fork', match: (r) => directiveOf(r) !== undefined, replies: [reply.text('FORK-REPORT')] },
      {
        name: 'parent',
        match: () => true,
        replies: [...files.map((path) => reply.toolUse({ name: 'read_file', input: { path } })), reply.toolUse({ name: 'task', input: { prompt: 'sum it up', fork: true } }), reply.text('done')],
      },
    ]);
    // The reads cross the threshold (5,440 tokens) before the fork with the fixed prefix as issue 30 left it (1,316
    // tokens; a 7,500 window suited the 1,584 before).
    const { session, events } = await openSession(api, workdir, tempDir('delegate-fork-tr-'), { model: { contextWindow: 6_800, compactThreshold: 0.8 } });
    const result = await session.run('read them all', new AbortController().signal);
    assert.equal(result.status, 'completed', result.error);
    api.assertAllConsumed();
    const compacted = events.findIndex((e) => e.type === 'compacted' && e.parentId === null);
    const forkStart = events.findIndex((e) => e.type === 'agent_started' && e.parentId !== null);
    assert.ok(compacted >= 0 && compacted < forkStart, 'the parent compacted before it forked');
    const produced = must(api.messageRequests().filter((r) => r.route === 'parent')[files.length]);
    const first = must(api.messageRequests().find((r) => r.route === 'fork'));
    const sent = must(produced.body.messages);
    assert.match(JSON.stringify(sent), /\[output dropped from the context to keep it small/);
    assert.equal(json(must(first.body.messages).slice(0, sent.length)), json(sent));
    session.close();
  });

  it('a background fork works while the parent goes on; its report reaches the parent later, and nothing the parent did after the call reaches the fork', async () => {
    let release!: () => void;
    const parentWentOn = new Promise<void>((r) => (release = r));
    api.route([
      { name: 'fork', match: (r) => directiveOf(r) !== undefined, replies: [reply.text('BG-FORK-REPORT', { until: parentWentOn })] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'look around', fork: true, run_in_background: true } }),
          reply.toolUse({ name: 'read_file', input: { path: 'later.txt' } }),
          reply.text('waiting for the fork'),
          reply.text('got it'),
        ],
      },
    ]);
    const workdir = tempDir('delegate-fork-ws-');
    writeFileSync(join(workdir, 'later.txt'), 'PARENT-AFTER-THE-CALL\n');
    const { session } = await openSession(api, workdir, tempDir('delegate-fork-tr-'));
    const running = session.run('go', new AbortController().signal);
    await waitUntil(() => api.messageRequests().filter((r) => r.route === 'parent').length >= 3, 'the parent sends its third request', 10_000);
    release();
    const result = await running;
    assert.equal(result.status, 'completed', result.error);
    assert.equal(result.subagents[0]?.fork, true);
    const forkSent = JSON.stringify(api.messageRequests().filter((r) => r.route === 'fork').map((r) => r.body.messages));
    assert.equal(forkSent.includes('PARENT-AFTER-THE-CALL'), false);
    assert.match(JSON.stringify(api.messageRequests().at(-1)?.body.messages), /BG-FORK-REPORT/);
    api.assertAllConsumed();
    session.close();
  });

  it("a subagent's fork (max depth 2) starts from that subagent's conversation, with its system prompt and tools", async () => {
    api.route([
      { name: 'fork', match: (r) => directiveOf(r) !== undefined, replies: [reply.text('GRANDCHILD-FORK-REPORT')] },
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'task', input: { prompt: 'dig deeper', fork: true } }), reply.text('CHILD-REPORT')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-TASK: look' } }), reply.text('done')] },
    ]);
    const { session, events } = await openSession(api, tempDir('delegate-fork-ws-'), tempDir('delegate-fork-tr-'), { limits: { maxDepth: 2 } });
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.status, 'completed', result.error);
    api.assertAllConsumed();
    const produced = must(api.messageRequests().filter((r) => r.route === 'child')[0]);
    const first = must(api.messageRequests().find((r) => r.route === 'fork'));
    assert.equal(json(first.body.system), json(produced.body.system));
    assert.equal(json(first.body.tools), json(produced.body.tools));
    // A string content is the same prompt as one text block to the API (and its cache); the tail breakpoint turns one into the other.
    const asBlocks = (ms: readonly unknown[]): unknown[] => ms.map((m) => { const { role, content } = m as { role: string; content: unknown }; return { role, content: typeof content === 'string' ? [{ type: 'text', text: content }] : content }; });
    assert.equal(json(asBlocks(must(first.body.messages).slice(0, 2))), json(asBlocks([...must(produced.body.messages), must(api.messageRequests().filter((r) => r.route === 'child')[1]).body.messages?.[1]])));
    const start = must(events.find((e) => e.type === 'agent_started' && e.forkedFrom !== undefined));
    assert.equal(start.type === 'agent_started' && start.depth, 2);
    const child = must(events.find((e) => e.type === 'agent_started' && e.parentId === result.agentId));
    assert.equal(start.parentId, child.agentId);
    assert.deepEqual(start.type === 'agent_started' && start.forkedFrom, { agentId: child.agentId, messageCount: 2 });
    assert.deepEqual(result.subagents.map((s) => [s.agent_type, s.fork === true]), [['fork', true], ['general-purpose', false]]);
    session.close();
  });
});
