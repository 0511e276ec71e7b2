/** The action's job summary (src/action/summary.ts) and input mapping (src/action/inputs.ts), as plain functions. */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultObject } from '../../src/cli/output';
import { buildSummary, tree } from '../../src/action/summary';
import { checkWorkdir, InputError, readInputs } from '../../src/action/inputs';
import { tempDir } from '../kit/temp-dirs';

type Subagent = ResultObject['subagents'][number];
const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 });

function agent(id: string, parent: string, over: Partial<Subagent> = {}): Subagent {
  return { id, parent_id: parent, description: `job ${id}`, agent_type: 'general-purpose', model: 'claude-sonnet-5-5', status: 'completed', num_turns: 2, tool_calls: 1, usage: usage(100, 20), cost_usd: 0.0123, result: 'ok', ...over };
}

function result(subagents: Subagent[], over: Partial<ResultObject> = {}): ResultObject {
  return { type: 'result', status: 'completed', result: 'All done.', num_turns: 3, usage: usage(5000, 400), total_cost_usd: 0.25, duration_ms: 1000, session_id: 'sess-1', transcript: '/t/sess-1.jsonl', sandbox: 'none', subagents, ...over };
}

describe('the action: job summary', () => {
  it('nests the subagent tree by parent_id, in the CLI’s order, the main agent’s children at the top', () => {
    // Finishing order: a grandchild finishes before its parent.
    const list = [agent('c', 'b'), agent('b', 'main'), agent('a', 'main'), agent('d', 'c')];
    assert.deepEqual(tree(list).map((n) => `${n.depth}:${n.agent.id}`), ['0:b', '1:c', '2:d', '0:a']);
  });

  it('has a row per subagent with status, turns, tokens, cost and changes; the totals; the answer', () => {
    const md = buildSummary(
      result([
        agent('b', 'main', {
          description: 'survey the parser',
          changes: {
            files: [
              { path: 'src/a.ts', action: 'modified', added: 10, removed: 3 },
              { path: 'src/b.ts', action: 'created', added: 4, removed: 0 },
            ],
            commands: [{ command: 'npm test', exit_code: 0 }],
          },
        }),
        agent('c', 'b', { description: 'read the tests', status: 'budget_exceeded', cost_usd: undefined, num_turns: 5 }),
      ]),
      'Fix the parser\nand more lines',
    );
    assert.match(md, /^### Delegate: completed$/m);
    assert.match(md, /^> Fix the parser$/m);
    assert.match(md, /^\| completed \| 3 \| 6,400 \| \$0\.2500 \| 2 \| `sess-1` \|$/m);
    assert.match(md, /^\| survey the parser \| general-purpose \| completed \| 2 \| 1,120 \| \$0\.0123 \| 2 files \(\+14 −3\), 1 command \|$/m);
    assert.match(md, /^\| └ read the tests \| general-purpose \| budget_exceeded \| 5 \| 1,120 \| — \| — \|$/m);
    assert.match(md, /- \*\*survey the parser\*\*\n {2}- `src\/a\.ts` modified \(\+10 −3\)\n {2}- `src\/b\.ts` created \(\+4 −0\)/);
    assert.match(md, /<details open><summary>Result<\/summary>\n\nAll done\.\n/);
    // No subagent, no table.
    assert.doesNotMatch(buildSummary(result([]), 'x'), /#### Subagents/);
  });

  it('keeps a model-written description inside its cell, and says why a run stopped', () => {
    const md = buildSummary(result([agent('b', 'main', { description: 'a | b\n<script>x</script>', fork: true })], { status: 'budget_exceeded', error: "the run's budget of $5.00 is spent ($6.00)" }), 'p');
    assert.match(md, /^\| a \\\| b &lt;script&gt;x&lt;\/script&gt; \| general-purpose \(fork\) \|/m);
    assert.match(md, /\*\*Budget:\*\* the run's budget of \$5\.00 is spent \(\$6\.00\)/);
  });

  it('cuts a very long answer (job summaries are limited to 1 MiB)', () => {
    const md = buildSummary(result([], { result: 'x'.repeat(200_000) }), 'p');
    assert.ok(md.length < 70_000, String(md.length));
    assert.match(md, /cut; the whole answer is the `result` output/);
  });
});

describe('the action: inputs', () => {
  const get = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

  it('passes the set inputs as flags, the prompt by stdin, the key and URL as the CLI’s environment, without INPUT_*', () => {
    const env = { PATH: '/bin', RUNNER_TEMP: '/rt', GITHUB_WORKSPACE: '/ws', 'INPUT_ANTHROPIC-API-KEY': 'sk-secret' };
    const inputs = readInputs(get({ prompt: '-starts with a dash', model: 'claude-opus-5-5', 'max-turns': '7', 'allowed-tools': 'Bash Read', 'anthropic-api-key': 'sk-secret', 'fail-on-budget': 'true' }), env);
    assert.equal(inputs.prompt, '-starts with a dash');
    assert.deepEqual(inputs.args, ['-p', '-', '--cwd=/ws', '--output-format=json', '--model=claude-opus-5-5', '--allowed-tools=Bash Read', '--max-turns=7', '--verbose', '--trust-folder']);
    assert.equal(inputs.env.ANTHROPIC_API_KEY, 'sk-secret');
    assert.equal(inputs.env.XDG_DATA_HOME, '/rt/delegate-data');
    assert.equal(inputs.env['INPUT_ANTHROPIC-API-KEY'], undefined);
    assert.equal(inputs.secret, 'sk-secret');
    assert.equal(inputs.failOnBudget, true);
    assert.equal(inputs.uploadTranscript, true);
  });

  it('keeps the workflow’s own data home and key; refuses an empty prompt and a bad boolean', () => {
    const inputs = readInputs(get({ prompt: 'p', verbose: 'false', 'working-directory': 'pkg/a' }), { XDG_DATA_HOME: '/mine', ANTHROPIC_API_KEY: 'env-key' });
    assert.equal(inputs.env.XDG_DATA_HOME, '/mine');
    assert.equal(inputs.env.ANTHROPIC_API_KEY, 'env-key');
    assert.ok(!inputs.args.includes('--verbose'));
    assert.ok(inputs.args.includes(`--cwd=${join(process.cwd(), 'pkg/a')}`), 'relative to the workspace (here: the current folder), made absolute');
    assert.equal(readInputs(get({ prompt: 'p', 'working-directory': 'pkg/a' }), { GITHUB_WORKSPACE: '/ws' }).workdir, '/ws/pkg/a');
    assert.throws(() => readInputs(get({ prompt: '  ' }), {}), InputError);
    assert.throws(() => readInputs(get({ prompt: 'p', 'fail-on-budget': 'yes' }), {}), /the fail-on-budget input must be true or false \(got "yes"\)/);
  });

  it('a working directory that is missing or not a folder is one line naming the input', () => {
    const root = tempDir('delegate-action-wd-');
    try {
      writeFileSync(join(root, 'file.txt'), '');
      checkWorkdir(root, '');
      assert.throws(() => checkWorkdir(join(root, 'nope'), 'nope'), new RegExp(`^Error: the working-directory input "nope" does not exist \\(${root}/nope\\)$`));
      assert.throws(() => checkWorkdir(join(root, 'file.txt'), 'file.txt'), /the working-directory input "file.txt" is not a folder/);
      assert.throws(() => checkWorkdir(join(root, 'gone'), ''), /^Error: the workspace .*gone does not exist: set the working-directory input$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tool-env names become --tool-env flags; the runner\'s tokens stay with the action', () => {
    const env = { PATH: '/bin', ACTIONS_RUNTIME_TOKEN: 'rt', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc', ACTIONS_ID_TOKEN_REQUEST_URL: 'https://t', GITHUB_TOKEN: 'gh', AWS_SECRET_ACCESS_KEY: 'aws' };
    const inputs = readInputs(get({ prompt: 'p', 'tool-env': 'AWS_SECRET_ACCESS_KEY, GH_X' }), env);
    assert.deepEqual(inputs.args.filter((a) => a.startsWith('--tool-env')), ['--tool-env=AWS_SECRET_ACCESS_KEY', '--tool-env=GH_X']);
    assert.deepEqual(Object.keys(inputs.env).filter((k) => k.startsWith('ACTIONS_')), []);
    // The CLI withholds these from the agent's commands itself (and lets the named one through).
    assert.equal(inputs.env.AWS_SECRET_ACCESS_KEY, 'aws');
    assert.equal(inputs.env.GITHUB_TOKEN, 'gh');
  });
});
