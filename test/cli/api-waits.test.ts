/**
 * A wait the API asks for is said, and bounded, through the built CLI and the real SDK against the local server's
 * 429s as the API sends them (retry-after in seconds, anthropic-ratelimit-* headers, rate_limit_error's body):
 * each wait is a stderr line and a `waiting` event in stream-json; one longer than --max-retry-wait (60 s by
 * default) ends the run at once with one line, where the SDK alone would sleep through it in silence.
 */
import assert from 'node:assert/strict';
import { reply } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const events = (stdout: string): Record<string, unknown>[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('delegate CLI: waits the API asks for', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  it("a 429's retry-after is said (stderr, and a waiting event in stream-json), waited, and the retry answers", async () => {
    cli.api.script(reply.rateLimited(1), reply.text('answered after the wait'));
    const started = Date.now();
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started >= 1000, 'the SDK waited the second the API asked for');
    assert.equal(run.stderr, 'delegate: the API asked to wait 1 s (rate limited, 429): attempt 2 then\n');
    const waiting = must(events(run.stdout).find((e) => e.type === 'waiting'));
    assert.deepEqual(waiting.retry, { status: 429, waitMs: 1000, asked: true, reason: 'rate limited' });
    assert.equal(waiting.attempt, 1);
    assert.equal(cli.api.messageRequests().length, 2);
  });

  it('a wait over the cap ends the run at once with one line naming the wait, the reason and --max-retry-wait', async () => {
    cli.api.script(reply.rateLimited(600), reply.text('never sent'));
    const started = Date.now();
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 1);
    assert.ok(Date.now() - started < 10_000, 'no sleep');
    assert.match(run.stderr, /^delegate: the API asked to wait 600 s \(rate limited, 429\); the cap is 60 s \(--max-retry-wait\): raise it to wait, or try again later \(transcript: [^\n]+\)\n$/);
    assert.equal(cli.api.messageRequests().length, 1, 'not retried');

    // retry-after as an HTTP date (RFC 9110 allows it; the SDK reads it): five minutes ahead is over the cap too.
    cli.api.script(reply.httpError(529, 'overloaded_error', 'Overloaded', { retryAfterMs: null, headers: { 'retry-after': new Date(Date.now() + 300_000).toUTCString() } }));
    const dated = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(dated.code, 1);
    assert.match(dated.stderr, /^delegate: the API asked to wait (?:29\d|300) s \(overloaded, 529\); the cap is 60 s/);

    cli.api.script(reply.rateLimited(2));
    const flag = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--max-retry-wait', '1'], { env: cli.env() });
    assert.match(flag.stderr, /^delegate: the API asked to wait 2 s \(rate limited, 429\); the cap is 1 s \(--max-retry-wait\)/);
    cli.api.script(reply.rateLimited(2));
    const env = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env({ DELEGATE_MAX_RETRY_WAIT: '0' }) });
    assert.match(env.stderr, /^delegate: the API asked to wait 2 s \(rate limited, 429\); the cap is 0 s \(DELEGATE_MAX_RETRY_WAIT\)/);
    const bad = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env({ DELEGATE_MAX_RETRY_WAIT: 'soon' }) });
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'delegate: DELEGATE_MAX_RETRY_WAIT must be a whole number of seconds ≥ 0 (got "soon")\n');
  });

  it("a 529 without retry-after is said with the SDK's back-off; a subagent's wait names the subagent", async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.httpError(529, 'overloaded_error', 'Overloaded', { retryAfterMs: null }), reply.text('child done')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'work', description: 'worker' } }), reply.text('all done')] },
    ]);
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.match(run.stderr, /^delegate: the API refused the request \(overloaded, 529\): attempt 2 in 1 s \(subagent [\w-]+\)\n$/);
  });
});
