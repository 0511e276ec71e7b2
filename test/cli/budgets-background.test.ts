/**
 * Several subagents you can trust, through the built CLI and the real SDK: a budget overrun (one last
 * answer with tools off, budget_exceeded, the cost in the JSON) and a background child that finishes
 * after the parent's next turn.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, reply } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

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

  it('--max-budget-usd on a model without a price refuses to start with one line naming DELEGATE_PRICES; with a price it runs and counts', async () => {
    const refused = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'gpt-5.1', '--max-budget-usd', '2', '--output-format', 'json'], { env: cli.env() });
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.stdout, '');
    assert.equal(cli.api.messageRequests().length, 0, 'nothing was sent');
    assert.equal(
      refused.stderr,
      `delegate: --max-budget-usd 2 cannot be kept: the model gpt-5.1 has no price. Give it one in DELEGATE_PRICES ('{"gpt-5.1": {"input": 3, "output": 15}}', $ per million tokens) or use a Claude model id (claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5)\n`,
    );
    const badPrices = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'gpt-5.1', '--max-budget-usd', '2'], { env: cli.env({ DELEGATE_PRICES: '{"gpt-5.1": {"input": 3}}' }) });
    assert.equal(badPrices.code, 2);
    assert.equal(badPrices.stderr, 'delegate: DELEGATE_PRICES: "gpt-5.1" needs "input" and "output" ($ per million tokens, numbers ≥ 0)\n');

    cli.api.script(reply.text('priced', { usage: { input_tokens: 1_000_000, output_tokens: 0 } }));
    const priced = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'gpt-5.1', '--max-budget-usd', '2', '--output-format', 'json'], {
      env: cli.env({ DELEGATE_PRICES: '{"gpt-5.1": {"input": 1.25, "output": 10}}' }),
    });
    assert.equal(priced.code, 0, priced.stderr);
    assert.equal(lastJsonLine(priced.stdout).total_cost_usd, 1.25);
  });

  it('a subagent whose agent file names a model without a price does not run under a dollar budget: its task fails with one line', async () => {
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(cli.dirs.workdir, '.claude', 'agents', 'other.md'), '---\nname: other\ndescription: Runs elsewhere.\nmodel: local-llama-3\n---\nYou work.\n');
    cli.api.route([{ name: 'parent', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { prompt: 'work', subagent_type: 'other' } }), reply.text('the child could not run')] }]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-budget-usd', '1', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(cli.api.messageRequests().filter(isChild).length, 0, 'the child sent nothing');
    const child = must((lastJsonLine(run.stdout).subagents as Record<string, unknown>[])[0]);
    assert.equal(child.status, 'error');
    assert.match(JSON.stringify(cli.api.messageRequests().at(-1)?.body.messages?.at(-1)), /a budget of \$1\.00 cannot be kept: the model local-llama-3 has no price\. Give it one \(\$ per million tokens: DELEGATE_PRICES for the CLI, delegate\.prices in the editor\)/);
  });

  it('a lying endpoint cannot buy budget back: negative usage counts nothing and the run still stops at --max-budget-usd; Infinity is no budget', async () => {
    cli.api.script(
      // -100M output tokens would be -$1,500 on this model: the budget would never be reached again.
      reply.toolUse({ name: 'glob', input: { pattern: '*' } }, { usage: { input_tokens: 10, output_tokens: -100_000_000 } }),
      reply.toolUse({ name: 'glob', input: { pattern: '**/*' } }, { usage: { input_tokens: 1_000_000, output_tokens: 10 } }),
      reply.text('What I have so far.'),
    );
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'claude-sonnet-5-5', '--max-budget-usd', '2', '--output-format', 'json'], { env: cli.env() });
    cli.api.assertAllConsumed();
    const result = lastJsonLine(run.stdout);
    assert.equal(result.status, 'budget_exceeded', run.stdout);
    assert.ok(typeof result.total_cost_usd === 'number' && result.total_cost_usd >= 3, `spent ${String(result.total_cost_usd)}`);
    assert.deepEqual(cli.api.messageRequests().at(-1)?.body.tool_choice, { type: 'none' }, 'the last answer came with tools off');
    for (const bad of ['Infinity', '1e999']) {
      const refused = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-budget-usd', bad], { env: cli.env() });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, new RegExp(`^delegate: --max-budget-usd must be a positive number of dollars \\(got "${bad}"\\)\n`));
    }
  });
});
