/**
 * Extended thinking through the built CLI and the real SDK, against the local server (which checks thinking as
 * the API does and rejects a changed or missing signature): what the default run sends, --thinking off, a tool
 * loop whose signed thinking blocks go back unchanged, agent files' own thinking / effort, and stream-json
 * carrying each agent's thinking while the parent never sees its child's.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, reply, systemText } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

describe('delegate CLI: extended thinking', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  const run = (...args: string[]) => runDelegate(['--cwd', cli.dirs.workdir, ...args], { env: cli.env() });


  it('default run: the default model thinks adaptively (no budget, no interleaved beta) with max_tokens from its family; a budget model gets a budget below max_tokens and the interleaved beta', async () => {
    cli.api.script(reply.text('Hi.', { thinking: 'Say hi.' }), reply.text('Hi again.', { thinking: 'Again.' }));
    const first = await run('-p', 'hello');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'Hi.');
    const [adaptive] = cli.api.messageRequests();
    // Preserved thinking: a block whose prefix changed (compaction) is dropped, not a 400 (its own beta).
    assert.deepEqual(adaptive?.body.thinking, { type: 'adaptive', display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
    assert.equal(adaptive?.body.max_tokens, 64_000);
    assert.equal(adaptive?.body.output_config, undefined, "the model's own default effort");
    assert.equal(adaptive?.headers['anthropic-beta'], 'thinking-binding-controls-2026-08-01', 'adaptive thinking interleaves without the interleaved beta');
    assert.equal(adaptive?.body.temperature, undefined);

    const second = await run('-p', 'hello', '--model', 'claude-haiku-4-5-20251001');
    assert.equal(second.code, 0, second.stderr);
    const budget = must(cli.api.messageRequests()[1]);
    const thinking = budget.body.thinking as { type: string; budget_tokens: number };
    assert.equal(thinking.type, 'enabled');
    assert.ok(thinking.budget_tokens >= 1024 && thinking.budget_tokens < (budget.body.max_tokens ?? 0), `budget ${thinking.budget_tokens} < max_tokens ${budget.body.max_tokens}`);
    assert.equal(budget.headers['anthropic-beta'], 'interleaved-thinking-2025-05-14');
    cli.api.assertAllConsumed();
  });

  it('--thinking off: a budget model gets no thinking at all; Sonnet 5.5 its lowest setting (between_tools, which it takes instead of disabled)', async () => {
    cli.api.script(reply.text('a'), reply.text('b'));
    const haiku = await run('-p', 'x', '--thinking', 'off', '--model', 'claude-haiku-4-5');
    assert.equal(haiku.code, 0, haiku.stderr);
    const sonnet = await run('-p', 'x', '--thinking', 'off');
    assert.equal(sonnet.code, 0, sonnet.stderr);
    const [h, s] = cli.api.messageRequests();
    assert.equal(h?.body.thinking, undefined);
    assert.equal(h?.headers['anthropic-beta'], undefined);
    assert.deepEqual(s?.body.thinking, { type: 'between_tools' });
    assert.equal(s?.body.output_config, undefined);
    // A model that cannot stop thinking: said once, and it runs at the lowest effort.
    cli.api.script(reply.text('c', { thinking: 'brief' }));
    const opus = await runDelegate(['--cwd', cli.dirs.workdir, '-p', 'x', '--thinking', 'off', '--model', 'claude-opus-5-5', '-v'], { env: cli.env() });
    assert.equal(opus.code, 0, opus.stderr);
    assert.match(opus.stderr, /claude-opus-5-5 cannot turn thinking off: it runs at effort low instead/);
    assert.match(opus.stderr, /^thinking: brief$/m, '-v shows the thinking on stderr');
    assert.deepEqual(must(cli.api.messageRequests()[2]).body.output_config, { effort: 'low' });
    // A bad value: one line, exit 2, nothing sent.
    const bad = await run('-p', 'x', '--thinking', '100');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--thinking: a thinking budget is at least 1024 tokens/);
    assert.equal(cli.api.messageRequests().length, 3);
  });

  it("internal requests (a compaction summary) do not think: the agents' setting is theirs, the summary runs with thinking off", async () => {
    cli.api.route([
      { name: 'summary', match: (r) => systemText(r).startsWith('You summarize'), replies: [reply.text('SUMMARY: said hello four times')] },
      { name: 'agent', match: () => true, replies: ['a', 'b', 'c', 'd'].map((t) => reply.text(t, { thinking: `thought ${t}` })) },
    ]);
    for (const [i, p] of ['one', 'two', 'three', 'four'].entries()) {
      const r = await run(...(i > 0 ? ['--continue'] : []), '-p', p, '--thinking', 'high');
      assert.equal(r.code, 0, r.stderr);
    }
    const compact = await run('--continue', '--compact', '--thinking', 'high');
    assert.equal(compact.code, 0, compact.stderr);
    assert.match(compact.stderr + compact.stdout, /compacted/);
    const agent = cli.api.messageRequests().filter((r) => !systemText(r).startsWith('You summarize'));
    const summary = must(cli.api.messageRequests().find((r) => systemText(r).startsWith('You summarize')));
    assert.ok(agent.every((r) => (r.body.output_config as { effort?: string } | undefined)?.effort === 'high'));
    assert.deepEqual(summary.body.thinking, { type: 'between_tools' });
    assert.equal(summary.body.output_config, undefined);
    cli.api.assertAllConsumed();
  });

  it('a tool loop with thinking sends the signed thinking blocks back unchanged (the server rejects anything else)', async () => {
    writeFileSync(join(cli.dirs.workdir, 'a.txt'), 'alpha\n');
    cli.api.script(
      reply.toolUse({ name: 'read_file', input: { path: 'a.txt' } }, { thinking: 'I will read a.txt first.' }),
      reply.toolUse({ name: 'glob', input: { pattern: '*' } }, { thinking: 'It says alpha; list the folder too.' }),
      reply.text('a.txt says alpha.', { thinking: 'Enough to answer.' }),
    );
    const result = await run('-p', 'what is in a.txt?', '--model', 'claude-haiku-4-5', '--thinking', '2048');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'a.txt says alpha.');
    const requests = cli.api.messageRequests();
    assert.equal(requests.length, 3);
    assert.deepEqual(requests[0]?.body.thinking, { type: 'enabled', budget_tokens: 2048, display: 'summarized' });
    const third = must(requests[2]);
    const assistants = (third.body.messages ?? []).filter((m) => m.role === 'assistant');
    const thinkingBlocks = assistants.map((m) => (typeof m.content === 'string' ? undefined : m.content[0]));
    assert.deepEqual(thinkingBlocks.map((b) => b?.type), ['thinking', 'thinking']);
    assert.deepEqual(thinkingBlocks.map((b) => b?.thinking), ['I will read a.txt first.', 'It says alpha; list the folder too.']);
    assert.ok(thinkingBlocks.every((b) => typeof b?.signature === 'string' && (b.signature as string).startsWith('EsLocal.')));
    cli.api.assertAllConsumed();
  });

  it("agent files' thinking: / effort: give each subagent its own; stream-json carries every agent's thinking; the parent never gets its child's", async () => {
    const agents = join(cli.dirs.workdir, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'quick.md'), '---\nname: quick\ndescription: Quick looks.\neffort: low\n---\nBe quick.\n');
    writeFileSync(join(agents, 'quiet.md'), '---\nname: quiet\ndescription: No thinking.\nthinking: off\n---\nJust answer.\n');
    cli.api.route([
      { name: 'quick', match: (r) => isChild(r) && firstUserText(r).includes('QUICK'), replies: [reply.text('quick report', { thinking: 'CHILD-SECRET-THOUGHT' })] },
      { name: 'quiet', match: (r) => isChild(r) && firstUserText(r).includes('QUIET'), replies: [reply.text('quiet report')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse(
            [
              { name: 'task', input: { prompt: 'QUICK: look around', description: 'quick look', subagent_type: 'quick' } },
              { name: 'task', input: { prompt: 'QUIET: answer', description: 'quiet one', subagent_type: 'quiet' } },
            ],
            { thinking: 'PARENT-THOUGHT: two helpers.' },
          ),
          reply.text('Both reported.'),
        ],
      },
    ]);
    const result = await run('-p', 'go', '--thinking', 'high', '--output-format', 'stream-json');
    assert.equal(result.code, 0, result.stderr);
    const requests = cli.api.messageRequests();
    const parent = requests.filter((r) => !isChild(r));
    const quick = must(requests.find((r) => isChild(r) && firstUserText(r).includes('QUICK')));
    const quiet = must(requests.find((r) => isChild(r) && firstUserText(r).includes('QUIET')));
    // The parent's own setting (--thinking high); each child its file's.
    assert.deepEqual(parent[0]?.body.output_config, { effort: 'high' });
    assert.equal((quick.body.thinking as { type: string }).type, 'adaptive');
    assert.deepEqual(quick.body.output_config, { effort: 'low' });
    assert.deepEqual(quiet.body.thinking, { type: 'between_tools' });
    // stream-json: a thinking event per agent that thought, each under its own agent id.
    const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const thinking = events.filter((e) => e.type === 'thinking');
    const started = new Map(events.filter((e) => e.type === 'agent_started').map((e) => [e.agentId, e]));
    assert.deepEqual(thinking.map((e) => e.text).sort(), ['CHILD-SECRET-THOUGHT', 'PARENT-THOUGHT: two helpers.']);
    const childEvent = must(thinking.find((e) => e.text === 'CHILD-SECRET-THOUGHT'));
    assert.notEqual(childEvent.parentId, null);
    assert.equal((started.get(childEvent.agentId) as { description?: string } | undefined)?.description, 'quick look');
    // The parent's next request holds its own thinking (signed) and the child's report, never the child's thinking.
    const next = JSON.stringify(must(parent[1]).body.messages);
    assert.match(next, /PARENT-THOUGHT/);
    assert.match(next, /quick report/);
    assert.doesNotMatch(next, /CHILD-SECRET-THOUGHT/);
    cli.api.assertAllConsumed();
  });
});
