/**
 * Several subagents you can trust, through the built CLI and the real SDK: a budget overrun (one last
 * answer with tools off, budget_exceeded, the cost in the JSON) and a background child that finishes
 * after the parent's next turn.
 */
import assert from 'node:assert/strict';
import { firstUserText, reply } from '../fixtures/messages-api-server';
import { must } from '../support/must';
import { lastJsonLine, runDelegate } from '../support/run-cli';
import { isChild } from '../support/is-child';
import { cliSuite } from '../support/cli-suite';

describe('delegate CLI: budgets and background subagents', function () {
  this.timeout(30_000);
  const cli = cliSuite();


  it('--subagent-max-tokens: the child answers once with tools off and ends budget_exceeded; costs in the JSON', async () => {
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [
          reply.toolUse({ name: 'glob', input: { pattern: '*' } }, { usage: { input_tokens: 700, output_tokens: 50 } }),
          reply.toolUse({ name: 'glob', input: { pattern: '**/*' } }, { usage: { input_tokens: 800, output_tokens: 50 } }),
          reply.text('Found nothing yet.'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'look', description: 'looker' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'claude-sonnet-5-5', '--subagent-max-tokens', '1000', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const result = lastJsonLine(run.stdout);
    const child = must((result.subagents as Record<string, unknown>[])[0]);
    assert.equal(child.status, 'budget_exceeded');
    assert.ok(typeof child.cost_usd === 'number' && child.cost_usd > 0);
    assert.ok(typeof result.total_cost_usd === 'number' && result.total_cost_usd >= (child.cost_usd as number));
    const last = must(cli.api.messageRequests().filter(isChild).at(-1));
    assert.deepEqual(last.body.tool_choice, { type: 'none' });
    assert.match(JSON.stringify(last.body.messages?.at(-1)), /Budget reached: token budget of 1,000 reached/);
  });

  it('a background child finishes after the parent’s next turn; its report reaches the parent’s third request', async () => {
    cli.api.route([
      { name: 'child', match: (r) => isChild(r) && firstUserText(r).includes('BG'), replies: [reply.text('background report', { delayMs: 600 })] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'BG: summarize the docs', description: 'docs', run_in_background: true } }),
          reply.toolUse({ name: 'glob', input: { pattern: '*' } }),
          reply.text('Waiting for the docs summary.'),
          reply.text('Done, with the summary.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const parents = cli.api.messageRequests().filter((r) => !isChild(r));
    assert.equal(parents.length, 4);
    assert.match(JSON.stringify(parents[1]?.body.messages?.at(-1)), /in the background/);
    assert.doesNotMatch(JSON.stringify(parents[2]?.body.messages), /background report/, 'the second turn came before the report');
    assert.match(JSON.stringify(parents[3]?.body.messages?.at(-1)), /finished:\]\\nbackground report/);
    assert.equal(lastJsonLine(run.stdout).result, 'Done, with the summary.');
  });
});
