/**
 * Prompts the CLI must not send (the session's rule, core/session/prompt-check.ts): a blank one and one too big for
 * the model's window are one line and exit 2, with nothing sent; one the API refuses as too long anyway (a window
 * set wider than the model's) fails alone, and `--resume` goes on without it.
 */
import assert from 'node:assert/strict';
import { contentText, reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';

/** About 2.3 MB of log lines (read from stdin: one argument holds at most 128 KiB). */
const HUGE = 'ERROR 2026-12-05T02:00:00Z worker-17 request failed: upstream timed out after 30000 ms\n'.repeat(28_000);

describe('delegate CLI: prompts it must not send', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  it('a blank prompt is one line and exit 2; nothing is sent', async () => {
    const run = await runDelegate(['-p', ' \n ', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'delegate: the prompt is empty: nothing was sent\n');
    assert.equal(cli.api.messageRequests().length, 0);
  });

  it('a prompt too big for the window (from stdin) is one line naming its size and what to do, exit 2; nothing is sent', async () => {
    const run = await runDelegate(['-p', '-', '--cwd', cli.dirs.workdir], { env: cli.env(), input: `What went wrong?\n${HUGE}` });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^delegate: the prompt is too long for the model's context window: about [\d,]+ tokens \([\d,]+ characters\), and [\d,]+ fit \(a 200,000-token window.*\); nothing was sent\. Save the text in a file in the workspace and ask the agent to read it\n$/);
    assert.equal(cli.api.messageRequests().length, 0);
  });

  it('a prompt the API refuses as too long fails that run; --resume goes on without it', async () => {
    const env = cli.env({ DELEGATE_CONTEXT_WINDOW: '4000000' });
    const failed = await runDelegate(['-p', '-', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env, input: `What went wrong?\n${HUGE}` });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /prompt is too long: \d+ tokens > 200000 maximum/);
    const sessionId = String(lastJsonLine(failed.stdout).session_id);
    const refused = cli.api.messageRequests().length;

    cli.api.script(reply.text('Back to normal.'));
    const next = await runDelegate(['--resume', sessionId, '-p', 'and now?', '--cwd', cli.dirs.workdir], { env });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, 'Back to normal.\n');
    const sent = must(cli.api.messageRequests()[refused]).body;
    assert.ok(JSON.stringify(sent).length < 100_000, 'the refused text is not sent again');
    assert.match(contentText(sent.messages?.at(-1)?.content), /the API refused it \(.*prompt is too long.*\)\.\]\nand now\?$/);
  });
});
