/**
 * `delegate acp` takes its settings the way `delegate -p` does (one resolver, core/settings/resolve-settings.ts),
 * through the BUILT CLI's stdio: DELEGATE_MAX_RETRY_WAIT caps a wait the API asks for, DELEGATE_PRICES prices a
 * model the built-in table lacks, DELEGATE_CONTEXT_WINDOW sizes the window, `--tool-env NAME` passes a variable
 * to commands, and a variable that cannot be used stops the agent at its start with one line.
 */
import assert from 'node:assert/strict';
import { methods, type ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { acpClients, updatesOf, type AcpClient } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
const AWS = 'FAKEAWS-5d0c2e9b17a4f368';
const toolText = (req: RecordedRequest | undefined): string => String(lastToolResults(req ?? ({} as RecordedRequest))[0]?.content ?? '');

describe('delegate acp: the settings the CLI reads', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const started = acpClients(() => cli.env());
  const start = (env: Record<string, string> = {}, args: string[] = []): Promise<AcpClient> => started({ env, args });

  it('DELEGATE_MAX_RETRY_WAIT caps the wait the API asks for: a longer one fails the prompt at once, naming the variable', async () => {
    cli.api.script(reply.rateLimited(5), reply.text('never sent'));
    const client = await start({ DELEGATE_MAX_RETRY_WAIT: '1' });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    const started = Date.now();
    await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hi') }), (err: { message?: string }) =>
      /the API asked to wait 5 s \(rate limited, 429\); the cap is 1 s \(DELEGATE_MAX_RETRY_WAIT\)/.test(err.message ?? ''),
    );
    assert.ok(Date.now() - started < 4000, 'no sleep through the wait');
    assert.equal(cli.api.messageRequests().length, 1, 'not retried');
  });

  it('DELEGATE_PRICES prices a model the table lacks (the session cost grows); DELEGATE_CONTEXT_WINDOW is the window', async () => {
    cli.api.script(reply.text('priced'));
    const unpriced = await start({}, ['--model', 'acme-coder-1']);
    const first = await unpriced.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await unpriced.agent.request(methods.agent.session.prompt, { sessionId: first.sessionId, prompt: text('hi') });
    assert.equal(updatesOf(unpriced, first.sessionId, 'usage_update').at(-1)?.cost, undefined, 'no price, no cost');

    cli.api.script(reply.text('priced'));
    const client = await start({ DELEGATE_PRICES: '{"acme-coder-1": {"input": 1000, "output": 1000}}', DELEGATE_CONTEXT_WINDOW: '54321' }, ['--model', 'acme-coder-1']);
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hi') });
    const usage = must(updatesOf(client, sessionId, 'usage_update').at(-1));
    assert.equal(usage.cost?.currency, 'USD');
    assert.ok((usage.cost?.amount ?? 0) > 0, 'the price counts');
    assert.equal(usage.size, 54321);
    assert.equal(cli.api.messageRequests().at(-1)?.body.model, 'acme-coder-1');
  });

  it('--tool-env NAME passes that credential to commands; without it they never see it', async () => {
    const env = { AWS_SECRET_ACCESS_KEY: AWS };
    for (const args of [[], ['--tool-env', 'AWS_SECRET_ACCESS_KEY']]) {
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'env' } }), reply.text('done'));
      const client = await start(env, ['--permission-mode', 'bypassPermissions', ...args]);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('look') });
      const out = toolText(cli.api.messageRequests().at(-1));
      assert.match(out, /^PATH=/m, 'bash ran');
      if (args.length) assert.match(out, new RegExp(`^AWS_SECRET_ACCESS_KEY=${AWS}$`, 'm'));
      else assert.ok(!out.includes(AWS), 'withheld by default');
      assert.ok(!out.includes(cli.env().ANTHROPIC_API_KEY ?? 'no key'), 'never the key');
    }
    const named = await start({}, ['--tool-env', 'NOT_SET_ANYWHERE']);
    await named.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    assert.match(named.stderr(), /delegate acp: --tool-env NOT_SET_ANYWHERE: not set in the environment, nothing to pass/);
  });

  it('a variable it cannot use stops it at the start with one line (exit 2), as it stops delegate -p', async () => {
    const prices = await runDelegate(['acp'], { env: cli.env({ DELEGATE_PRICES: 'cheap' }) });
    assert.equal(prices.code, 2);
    assert.equal(prices.stderr, 'delegate acp: DELEGATE_PRICES: not JSON: write {"model-id": {"input": 3, "output": 15}} ($ per million tokens)\n');
    const wait = await runDelegate(['acp'], { env: cli.env({ DELEGATE_MAX_RETRY_WAIT: 'soon' }) });
    assert.equal(wait.code, 2);
    assert.equal(wait.stderr, 'delegate acp: DELEGATE_MAX_RETRY_WAIT must be a whole number of seconds ≥ 0 (got "soon")\n');
    const flag = await runDelegate(['acp', '--tool-env', 'A=B'], { env: cli.env() });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^delegate acp: --tool-env takes one variable name \(got "A=B"\)\n/);
  });
});
