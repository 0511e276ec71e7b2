/**
 * A task call's own shape of its child, through the built CLI: `model` (an alias or id, through the session's alias
 * table) reaches the child's requests, `effort` its output_config, and a model dearer than the session's cap
 * (`--subagent-model-cap`, default the session's model: VS Code's rule) is refused in the parent's tool_result,
 * naming the cap, with no child request sent. stream-json's agent_started says what the call chose.
 */
import assert from 'node:assert/strict';
import { firstUserText, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

/** The parent's tool_result for its task call, as its second request carried it. */
function taskResult(req: RecordedRequest | undefined): { text: string; isError: boolean } {
  for (const m of req?.body.messages ?? []) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      const block = b as { type: string; content?: unknown; is_error?: boolean };
      if (block.type !== 'tool_result') continue;
      const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
      return { text, isError: block.is_error === true };
    }
  }
  throw new Error('no tool_result');
}

describe('delegate CLI: a task call picks its child’s model and effort', function () {
  this.timeout(40_000);
  const cli = cliSuite();

  it('model "haiku" runs the child on the alias table’s Haiku and effort low reaches its output_config; the parent keeps its own', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('found it')] },
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse([{ name: 'task', input: { prompt: 'JOB-1: find the config', description: 'find config', model: 'haiku', effort: 'low' } }]), reply.text('done')],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const child = must(cli.api.messageRequests().find((r) => isChild(r) && firstUserText(r).includes('JOB-1')));
    assert.equal(child.body.model, 'claude-haiku-5-5');
    assert.deepEqual(child.body.output_config, { effort: 'low' });
    const parent = must(cli.api.messageRequests().find((r) => !isChild(r)));
    assert.equal(parent.body.model, 'claude-sonnet-5-5');
    assert.equal(parent.body.output_config, undefined);
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = must(events.find((e) => e.type === 'agent_started' && e.parentId !== null));
    assert.match(JSON.stringify(started), /"asked":\{"model":"haiku","effort":"low"\}/);
    assert.match(JSON.stringify(started), /"model":"claude-haiku-5-5"/);
  });

  it('a model dearer than the session’s is refused naming the cap; --subagent-model-cap opus lets it run; none lifts the cap', async () => {
    const script = (model: string) =>
      cli.api.route([
        { name: 'child', match: isChild, replies: [reply.text('reviewed')] },
        { name: 'parent', match: () => true, replies: [reply.toolUse([{ name: 'task', input: { prompt: 'JOB-2: review', model } }]), reply.text('ok')] },
      ]);
    script('opus');
    const capped = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(capped.code, 0, capped.stderr);
    assert.equal(cli.api.messageRequests().filter(isChild).length, 0, 'no child request was sent');
    const refused = taskResult(cli.api.messageRequests()[1]);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /model claude-opus-5-5 \(\$25 per million output tokens\) is in a dearer tier than this session lets a subagent use: the session's model claude-sonnet-5-5 \(\$15; --subagent-model-cap sets the cap\)/);
    assert.deepEqual(lastJsonLine(capped.stdout).subagents, []);

    cli.api.requests.splice(0);
    script('opus');
    const raised = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--subagent-model-cap', 'opus'], { env: cli.env() });
    assert.equal(raised.code, 0, raised.stderr);
    assert.equal(must(cli.api.messageRequests().find(isChild)).body.model, 'claude-opus-5-5');

    cli.api.requests.splice(0);
    script('claude-opus-4-1');
    const env = { ...cli.env(), DELEGATE_SUBAGENT_MODEL_CAP: 'sonnet' };
    const byEnv = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir], { env });
    assert.equal(byEnv.code, 0, byEnv.stderr);
    assert.match(taskResult(cli.api.messageRequests()[1]).text, /claude-opus-4-1 \(\$75 per million output tokens\).*sonnet \(claude-sonnet-5-5\) \(\$15; DELEGATE_SUBAGENT_MODEL_CAP sets the cap\)/);

    cli.api.requests.splice(0);
    script('claude-opus-4-1');
    const open = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--subagent-model-cap', 'none'], { env: cli.env() });
    assert.equal(open.code, 0, open.stderr);
    assert.equal(must(cli.api.messageRequests().find(isChild)).body.model, 'claude-opus-4-1');
  });

  it('a cheaper model and inherit pass the default cap; a model without a price is refused (its tier is unknown); bad effort and model with fork are input errors', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('small job done'), reply.text('same job done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-3: small', model: 'claude-haiku-4-5' } },
            { name: 'task', input: { prompt: 'JOB-7: same', model: 'inherit', effort: 'high' } },
            { name: 'task', input: { prompt: 'JOB-4: odd', model: 'my-local-model' } },
            { name: 'task', input: { prompt: 'JOB-5: hard', effort: 'extreme' } },
            { name: 'task', input: { prompt: 'JOB-6: fork', fork: true, model: 'haiku' } },
          ]),
          reply.text('ok'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const children = cli.api.messageRequests().filter(isChild);
    assert.deepEqual(children.map((r) => [firstUserText(r).slice(0, 6), r.body.model]).sort(), [['JOB-3:', 'claude-haiku-4-5'], ['JOB-7:', 'claude-sonnet-5-5']]);
    assert.deepEqual(must(children.find((r) => firstUserText(r).startsWith('JOB-7'))).body.output_config, { effort: 'high' });
    const results = JSON.stringify(cli.api.messageRequests().at(-1)?.body.messages?.at(-1));
    assert.match(results, /model my-local-model has no price, so its cost tier is unknown/);
    assert.match(results, /\\"effort\\" must be one of low, medium, high, xhigh, max/);
    assert.match(results, /a fork runs on your model and thinking/);
  });
});
