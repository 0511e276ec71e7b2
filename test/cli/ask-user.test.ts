/**
 * `ask_user` through the built CLI: nobody can answer a headless run, so the agent — main or subagent — gets an
 * error result telling it to decide itself and say so in its report, and the run goes on (no hang, no prompt).
 */
import assert from 'node:assert/strict';
import { lastToolResults, reply } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { isChild } from '../kit/is-child';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

describe('delegate CLI: ask_user', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  it('a headless question gets "decide yourself" as an error result, for the main agent and a subagent alike', async () => {
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [reply.toolUse([{ name: 'ask_user', input: { question: 'Which port?', options: ['8080', '3000'] } }]), reply.text('chose 8080 myself')],
      },
      {
        name: 'main',
        match: () => true,
        replies: [
          reply.toolUse([{ name: 'ask_user', input: { question: 'Tabs or spaces?' } }]),
          reply.toolUse([{ name: 'task', input: { description: 'pick a port', prompt: 'Pick a port.' } }]),
          reply.text('done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'set things up', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(lastJsonLine(run.stdout).result, 'done');
    const requests = cli.api.messageRequests();
    const mainAnswer = lastToolResults(must(requests.filter((r) => !isChild(r))[1]))[0];
    const childAnswer = lastToolResults(must(requests.filter(isChild)[1]))[0];
    for (const answer of [mainAnswer, childAnswer]) {
      assert.equal(answer?.is_error, true);
      assert.match(String(answer?.content), /No user can answer questions in this run \(it is headless\)\. Decide yourself/);
    }
  });

  it('a question without text is refused with a clear error the model sees', async () => {
    cli.api.script(reply.toolUse([{ name: 'ask_user', input: { question: ' ', options: [] } }]), reply.text('ok'));
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const [result] = lastToolResults(must(cli.api.messageRequests().at(-1)));
    assert.equal(result?.is_error, true);
    assert.match(String(result?.content), /ask_user needs `question`: a non-empty string/);
  });
});
