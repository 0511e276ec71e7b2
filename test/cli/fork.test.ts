/**
 * Forks from the built CLI: the model's task{fork: true} runs a fork whose first request repeats the parent's
 * latest one; json `subagents[]` says `fork: true`; stream-json carries the fork's `agent_started` with
 * `forkedFrom`; `-v` names it a fork; `--resume` goes on with the parent's conversation only.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { contentJson, sharedPrefixShare } from '../kit/cache-prefix';
import { must } from '../kit/must';
import { lastJsonLine, readJsonl, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

const isFork = (req: RecordedRequest): boolean => JSON.stringify(req.body.messages).includes('You are a fork');

describe('delegate CLI: forks', function () {
  this.timeout(30_000);
  const cli = cliSuite({ server: { strictToolPairs: true } });

  beforeEach(async () => {
    writeFileSync(join(cli.dirs.workdir, 'config.ts'), `export const config = {\n${Array.from({ length: 120 }, (_, i) => `  option${i}: ${i},`).join('\n')}\n};\n`);
    writeFileSync(join(cli.dirs.workdir, 'secret.txt'), 'FORK-ONLY-CANARY\n');
    cli.api.route([
      { name: 'fork', match: isFork, replies: [reply.toolUse({ name: 'read_file', input: { path: 'secret.txt' } }), reply.text('FORK-REPORT: option7 is 7.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'config.ts' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'Check what option7 is set to.', description: 'check option7', fork: true } }),
          reply.text('option7 is 7.'),
        ],
      },
    ]);
  });

  const parent = (): RecordedRequest[] => cli.api.messageRequests().filter((r) => r.route === 'parent');
  const fork = (): RecordedRequest[] => cli.api.messageRequests().filter((r) => r.route === 'fork');

  it('json: subagents[] has fork: true, -v names it a fork; the fork starts from the parent\'s latest request and only its report returns', async () => {
    const run = await runDelegate(['-p', 'What is option7?', '--cwd', cli.dirs.workdir, '--output-format', 'json', '-v'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\] started \(fork [0-9a-f]+, depth 1\)/);
    const result = lastJsonLine(run.stdout);
    assert.equal(result.result, 'option7 is 7.');
    const subagents = result.subagents as Record<string, unknown>[];
    assert.equal(subagents.length, 1);
    assert.equal(subagents[0]?.fork, true);
    assert.equal(subagents[0]?.agent_type, 'fork');
    assert.match(String(subagents[0]?.result), /^FORK-REPORT: option7 is 7\./);
    cli.api.assertAllConsumed();

    const produced = must(parent()[1]).body;
    const first = must(fork()[0]).body;
    // As the cache compares them: without `cache_control` markers (a breakpoint moves to each request's tail).
    assert.equal(contentJson(first.system), contentJson(produced.system));
    assert.equal(contentJson(first.tools), contentJson(produced.tools));
    const sent = must(produced.messages);
    assert.equal(contentJson(must(first.messages).slice(0, sent.length)), contentJson(sent));
    const share = sharedPrefixShare(produced, first);
    // What the fork does not share is what it adds: the task call and its directive (a share would move with the size
    // of the parent's prefix: 90 % before issue 30 cut it, 89.5 % after, for the same unshared characters).
    const added = share.totalChars - share.sharedChars;
    assert.ok(added <= 1_000, `${added} characters of the fork's first request are not the parent's (${(share.share * 100).toFixed(1)} %, from ${share.firstDifference})`);
    const last = JSON.stringify(must(parent()[2]).body.messages);
    assert.equal(last.includes('FORK-ONLY-CANARY'), false, "the fork's tool output stayed out of the parent");
    assert.equal(last.includes('You are a fork'), false);

    // Its own transcript file, which says where it was forked.
    const lines = readJsonl(join(String(result.transcript).replace(/\.jsonl$/, ''), 'subagents', `agent-${String(subagents[0]?.id)}.jsonl`));
    assert.equal(lines[0]?.type, 'agent_started');
    assert.deepEqual(lines[0]?.forkedFrom, { agentId: lines[0]?.parentId, messageCount: sent.length + 1 });
    assert.ok(lines.some((l) => l.type === 'tool_call' && l.state === 'completed' && String(l.output).includes('FORK-ONLY-CANARY')));

    // Resumed: the first request holds the parent's conversation, with the fork's report once and nothing else of it.
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.text('Still 7.')] }]);
    const before = cli.api.messageRequests().length;
    const again = await runDelegate(['--resume', String(result.session_id), '-p', 'Still?', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    const resumed = JSON.stringify(must(cli.api.messageRequests()[before]).body.messages);
    assert.equal(resumed.split('FORK-REPORT').length, 2);
    assert.equal(resumed.includes('FORK-ONLY-CANARY'), false);
    assert.equal(resumed.includes('You are a fork'), false);
  });

  it('stream-json: the fork\'s agent_started has forkedFrom and agentType fork, its opening message is its own', async () => {
    const run = await runDelegate(['-p', 'What is option7?', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const root = must(lines.find((e) => e.type === 'agent_started' && e.parentId === null));
    const started = must(lines.find((e) => e.type === 'agent_started' && e.parentId !== null));
    assert.equal(started.agentType, 'fork');
    assert.deepEqual(started.forkedFrom, { agentId: root.agentId, messageCount: 4 });
    // Its opening message (placeholder result for the parent's call, then its directive) is its own event, not the parent's.
    const opening = must(lines.find((e) => e.type === 'message' && e.agentId === started.agentId));
    assert.match(JSON.stringify(opening.message), /"type":"tool_result".*"type":"text","text":"You are a fork/);
    assert.equal(lines.some((e) => e.type === 'message' && e.agentId === root.agentId && JSON.stringify(e.message).includes('You are a fork')), false);
    const result = must(lines.at(-1));
    assert.equal(result.type, 'result');
    assert.equal((result.subagents as Record<string, unknown>[])[0]?.fork, true);
  });
});
