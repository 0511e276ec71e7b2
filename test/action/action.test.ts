/**
 * The GitHub Action end to end through @github/local-action (the TypeScript entry, toolkit stubbed as that runner
 * does) and through the runner's own protocol (the bundle dist/action/index.js, INPUT_* variables, GITHUB_OUTPUT):
 * both spawn the built CLI against the local Messages-API server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastToolResults, reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { localAction, releaseCheckout, runnerBundle } from '../kit/local-action';
import { tempDir } from '../kit/temp-dirs';

describe('the GitHub Action', function () {
  this.timeout(90_000);
  const cli = cliSuite();

  /** The test server's key and URL through the action's inputs; the data home from RUNNER_TEMP (the action's own). */
  const keyInputs = () => ({ 'anthropic-api-key': 'test-key', 'base-url': cli.api.baseURL });

  it('local-action: a run with a subagent gives the outputs, the summary with the tree, and the transcript artifact', async () => {
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [reply.toolUse({ name: 'write_file', input: { path: 'more.txt', content: 'two\n' } }), reply.text('Wrote more.txt.')],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { prompt: 'Write the next line to more.txt.', description: 'extend the notes' } }), reply.text('The notes go on in more.txt.')],
      },
    ]);
    const run = await localAction({ prompt: 'Extend the notes', 'working-directory': cli.dirs.workdir, 'permission-mode': 'acceptEdits', ...keyInputs() }, {});
    assert.equal(run.code, 0, run.stdout + run.stderr);
    cli.api.assertAllConsumed();
    assert.doesNotMatch(run.stdout, /^::error::/m, run.stdout);
    assert.equal(run.outputs.status, 'completed', run.stdout);
    assert.equal(run.outputs.result, 'The notes go on in more.txt.');
    assert.match(run.outputs['session-id'] ?? '', /^[\w-]{8,}$/);
    assert.ok(Number(run.outputs['cost-usd']) > 0, `cost-usd ${run.outputs['cost-usd']}`);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'more.txt'), 'utf8'), 'two\n');
    // The CLI's --verbose progress reaches the step's log.
    assert.match(run.stderr, /\[extend the notes\] write_file/);

    assert.match(run.summary, /### Delegate: completed/);
    assert.match(run.summary, /\| extend the notes \| general-purpose \| completed \| 2 \| [\d,]+ \| \$\d+\.\d{4} \| 1 file \(\+1 −0\) \|/);
    assert.match(run.summary, /`more\.txt` created \(\+1 −0\)/);
    assert.match(run.summary, /The notes go on in more\.txt\./);

    const sessionId = String(run.outputs['session-id']);
    assert.equal(run.outputs['artifact-name'], `delegate-transcript-${sessionId}`);
    const zip = readFileSync(join(run.artifacts, `delegate-transcript-${sessionId}.zip`)).toString('latin1');
    assert.ok(zip.includes(`${sessionId}.jsonl`), 'the main transcript is in the artifact');
    assert.match(zip, new RegExp(`${sessionId}/subagents/agent-[\\w-]+\\.jsonl`), 'the subagent transcript is in the artifact');
  });

  it('local-action: output-schema gives the structured-output output; a typed subagent’s JSON is in subagent-outputs', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('Checked.\n```json\n{"ok": true}\n```')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Check the build.', description: 'check build', output_schema: schema } }), reply.text('Build is fine.\n```json\n{"ok": true}\n```')] },
    ]);
    // A file in the working directory (local-action's dotenv file mangles quotes inside a value; the runner does not).
    writeFileSync(join(cli.dirs.workdir, 'verdict.schema.json'), JSON.stringify(schema));
    const run = await localAction({ prompt: 'Check', 'working-directory': cli.dirs.workdir, 'output-schema': 'verdict.schema.json', ...keyInputs() }, {});
    assert.equal(run.code, 0, run.stdout + run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(run.outputs["structured-output"], '{"ok":true}', 'the main agent’s own typed answer');
    const outputs = JSON.parse(run.outputs['subagent-outputs'] ?? 'null') as { description: string; agent_type: string; output: unknown }[];
    assert.deepEqual(outputs.map(({ description, agent_type, output }) => ({ description, agent_type, output })), [{ description: 'check build', agent_type: 'general-purpose', output: { ok: true } }]);
  });

  it('local-action: budget_exceeded fails the step with fail-on-budget, and passes without it', async () => {
    const million = { usage: { input_tokens: 1_000_000, output_tokens: 0 } };
    const spend = () => [reply.toolUse({ name: 'glob', input: { pattern: '*' } }, million), reply.toolUse({ name: 'glob', input: { pattern: '**' } }, million), reply.text('stopping here')];
    cli.api.script(...spend(), ...spend());
    const inputs = { prompt: 'spend', 'working-directory': cli.dirs.workdir, 'max-budget-usd': '5', 'upload-transcript': 'false', ...keyInputs() };
    const failing = await localAction({ ...inputs, 'fail-on-budget': 'true' }, {});
    assert.equal(failing.outputs.status, 'budget_exceeded', failing.stdout);
    assert.match(failing.stdout, /^::error::delegate: the run stopped at its budget \(the run's budget of \$5\.00 is spent/m);
    assert.match(failing.summary, /### Delegate: budget_exceeded/);
    const passing = await localAction(inputs, {});
    assert.equal(passing.outputs.status, 'budget_exceeded', passing.stdout);
    assert.doesNotMatch(passing.stdout, /^::error::/m);
  });

  it('local-action: an API error fails the step with the reason', async () => {
    cli.api.script(reply.httpError(400, 'invalid_request_error', 'model: unknown model'));
    const run = await localAction({ prompt: 'hi', 'working-directory': cli.dirs.workdir, 'upload-transcript': 'false', ...keyInputs() }, {});
    assert.equal(run.outputs.status, 'error', run.stdout);
    assert.match(run.stdout, /^::error::delegate: the run failed: .*unknown model/m);
  });

  it("local-action: the step's error is the CLI's reason line, not the usage after it; a budget on a model without a price is refused", async () => {
    const usage = await localAction({ prompt: 'hi', 'working-directory': cli.dirs.workdir, 'max-turns': 'many', 'upload-transcript': 'false', ...keyInputs() }, {});
    assert.equal(usage.outputs.status, 'error', usage.stdout);
    assert.match(usage.stdout, /^::error::delegate exited with 2: --max-turns must be an integer ≥ 1 \(got "many"\)$/m);
    assert.doesNotMatch(usage.stdout, /::error::.*Try 'delegate --help'/);

    const unpriced = await localAction({ prompt: 'hi', 'working-directory': cli.dirs.workdir, model: 'gpt-5.1', 'max-budget-usd': '3', 'upload-transcript': 'false', ...keyInputs() }, {});
    assert.equal(unpriced.outputs.status, 'error', unpriced.stdout);
    assert.match(unpriced.stdout, /^::error::delegate exited with 2: --max-budget-usd 3 cannot be kept: the model gpt-5\.1 has no price\. Give it one in DELEGATE_PRICES/m);
    assert.equal(cli.api.messageRequests().length, 0, 'nothing was sent');
  });

  it('local-action: a working-directory that does not exist fails the step with one line naming it', async () => {
    const missing = join(cli.dirs.workdir, 'no-such-folder');
    const run = await localAction({ prompt: 'hi', 'working-directory': missing, 'upload-transcript': 'false', ...keyInputs() }, {});
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    assert.deepEqual(errors, [`::error::delegate: the working-directory input "${missing}" does not exist (${missing})`], run.stdout);
    assert.equal(cli.api.messageRequests().length, 0);
  });

  it('the bundle under the runner protocol: outputs in GITHUB_OUTPUT, the summary, exit 0, the artifact client loaded; no key exits 1', async () => {
    cli.api.script(reply.text('All good.\nSecond line.'));
    const ok = await runnerBundle({ prompt: 'check', 'working-directory': cli.dirs.workdir }, cli.env());
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(ok.outputs.status, 'completed');
    assert.equal(ok.outputs.result, 'All good.\nSecond line.');
    assert.match(ok.summary, /### Delegate: completed/);
    // dist/action/artifact.js loads (the real client, self-contained) and finds no artifact service outside GitHub.
    assert.match(ok.stdout, /::warning::the transcript was not uploaded \(Unable to get the ACTIONS_RUNTIME_TOKEN env variable\); it is at .*\.jsonl/);

    const noKey = await runnerBundle({ prompt: 'check', 'working-directory': cli.dirs.workdir }, { ANTHROPIC_BASE_URL: cli.api.baseURL });
    assert.equal(noKey.code, 1, noKey.stdout + noKey.stderr);
    assert.equal(noKey.outputs.status, 'error');
    assert.match(noKey.stdout, /::error::delegate exited with 1: no API key: set ANTHROPIC_API_KEY/);
  });

  it("the bundle trusts its own checkout: the folder's SessionStart hook runs and nothing says it was skipped", async () => {
    const marker = join(cli.dirs.workdir, '..', 'ran.log');
    mkdirSync(join(cli.dirs.workdir, '.claude'));
    writeFileSync(join(cli.dirs.workdir, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo hook >> '${marker}'` }] }] } }));
    cli.api.script(reply.text('Done.'));
    const run = await runnerBundle({ prompt: 'check', 'working-directory': cli.dirs.workdir, 'upload-transcript': 'false' }, cli.env());
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.status, 'completed');
    assert.equal(readFileSync(marker, 'utf8'), 'hook\n');
    assert.doesNotMatch(run.stdout + run.stderr, /not trusted/);
  });

  it("the agent's commands see neither the key input nor the runner's tokens, nor the action's /proc/<pid>/environ (no sandbox: a runner without bubblewrap)", async () => {
    const KEY = 'sk-ant-FAKEINPUTKEY-61d0b3e8f2a9c457';
    const RUNTIME = 'FAKERUNTIMETOKEN-2c9e';
    const OIDC = 'FAKEOIDCTOKEN-7a41';
    // A PATH without bwrap (as on runners whose AppArmor refuses its namespaces): auto runs commands unsandboxed.
    const bin = tempDir('delegate-nobwrap-');
    for (const tool of ['env', 'tr', 'grep', 'sed', 'cut', 'cat']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    try {
      // Its own environment, the CLI's, the action's (the CLI's parent), and every other it can read.
      const snoop = [
        'env',
        "echo '--- cli'; tr '\\0' '\\n' < /proc/$PPID/environ",
        "echo '--- action'; tr '\\0' '\\n' < /proc/$(cut -d' ' -f4 /proc/$PPID/stat)/environ",
        "echo '--- all'; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\" 2>/dev/null | grep -a FAKE; done; echo '--- end'",
      ].join('; ');
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: snoop } }), reply.text('looked'));
      const run = await runnerBundle(
        { prompt: 'look', 'working-directory': cli.dirs.workdir, 'permission-mode': 'bypassPermissions', 'upload-transcript': 'false', 'anthropic-api-key': KEY, 'base-url': cli.api.baseURL },
        { PATH: bin, ACTIONS_RUNTIME_TOKEN: RUNTIME, ACTIONS_ID_TOKEN_REQUEST_TOKEN: OIDC, ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/oidc' },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      cli.api.assertAllConsumed();
      for (const req of cli.api.messageRequests()) {
        const body = JSON.stringify(req.body);
        for (const secret of [KEY, RUNTIME, OIDC]) assert.ok(!body.includes(secret), `request #${req.index} carries ${secret}`);
      }
      const out = String(lastToolResults(cli.api.messageRequests()[1] ?? ({} as never))[0]?.content ?? '');
      assert.match(out, /--- action\n[^]*GITHUB_ACTIONS=true[^]*--- all/, "the action's environ was read");
      assert.match(out, /--- end/);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('a release checkout (no node_modules, no build) runs a delegation: the bundles are self-contained', async () => {
    const release = releaseCheckout();
    assert.ok(!existsSync(join(release, 'node_modules')));
    for (const file of ['action.yml', 'bin/delegate.js', 'dist/cli/start.cjs', 'dist/action/index.js', 'dist/action/artifact.js']) assert.ok(existsSync(join(release, file)), file);
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'glob', input: { pattern: '*' } }), reply.text('Nothing here.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Look around.', description: 'look around' } }), reply.text('Looked.')] },
    ]);
    const run = await runnerBundle({ prompt: 'look', 'working-directory': cli.dirs.workdir, 'upload-transcript': 'false' }, cli.env(), release);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.status, 'completed');
    assert.equal(run.outputs.result, 'Looked.');
    assert.match(run.summary, /^\| look around \| general-purpose \| completed \| 2 \|/m);
  });
});
