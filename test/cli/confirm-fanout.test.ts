/**
 * `delegate -p --confirm-fanout` at a terminal: before a reply's subagents start, the fan-out card lists them on
 * stderr and reads one line (r: run, anything else: none starts). Without a terminal the flag is refused in one line.
 * The built CLI in a pseudo-terminal (test/kit/terminal.ts) against the local Messages-API server.
 */
import assert from 'node:assert/strict';
import { reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { runDelegate } from '../kit/run-cli';
import { tempDir } from '../kit/temp-dirs';
import { runInTerminal } from '../kit/terminal';

describe('delegate -p --confirm-fanout (the fan-out card at a terminal)', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const three = (tag: string) => reply.toolUse(['one', 'two', 'three'].map((n) => ({ name: 'task', input: { description: `${tag} ${n}`, prompt: `CHILD ${tag} ${n}: report` } })));
  const route = (tag: string) =>
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [three(tag), reply.text(`${tag}: the main agent is done`)] },
      { name: 'children', match: isChild, replies: [reply.text('done 1'), reply.text('done 2'), reply.text('done 3')] },
    ]);
  const env = () => ({ ...cli.env(), HOME: tempDir('delegate-fanout-home-') });

  it('lists the children and asks; n starts none (their results say the user cancelled), r starts them', async () => {
    route('alpha');
    const no = await runInTerminal(['-p', 'fan out', '--cwd', cli.dirs.workdir, '--confirm-fanout', 'auto'], { env: env(), answer: 'n\n', prompt: /\[N\]o: $/ });
    assert.equal(no.code, 0, no.output);
    assert.match(no.output, /^delegate: The main agent wants to start 3 subagents:$/m);
    assert.match(no.output, /^ {2}- alpha two \(general-purpose on claude-sonnet-5-5, default mode\)$/m);
    assert.equal(cli.api.messageRequests().filter(isChild).length, 0, 'no child started');
    assert.match(JSON.stringify(cli.api.messageRequests().at(-1)?.body.messages?.at(-1)), /cancel/i);

    route('beta');
    const yes = await runInTerminal(['-p', 'fan out', '--cwd', cli.dirs.workdir, '--confirm-fanout', 'auto'], { env: env(), answer: 'r\n', prompt: /\[N\]o: $/ });
    assert.equal(yes.code, 0, yes.output);
    assert.equal(cli.api.messageRequests().filter(isChild).length, 3);
    assert.match(yes.output, /beta: the main agent is done/);
  });

  it('without a terminal the flag is refused in one line (exit 2); a bad value too; never is the default', async () => {
    const piped = await runDelegate(['-p', 'fan out', '--cwd', cli.dirs.workdir, '--confirm-fanout', 'always'], { env: env() });
    assert.equal(piped.code, 2);
    assert.equal(piped.stderr, 'delegate: --confirm-fanout asks at a terminal, and stdin or stderr is not one: leave it out (subagents then start unasked)\n');
    const bad = await runDelegate(['-p', 'fan out', '--confirm-fanout', 'sometimes'], { env: env() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--confirm-fanout must be auto, always or never \(got "sometimes"\)/);
    assert.equal(cli.api.messageRequests().length, 0);
    route('gamma');
    const unasked = await runInTerminal(['-p', 'fan out', '--cwd', cli.dirs.workdir], { env: env() });
    assert.equal(unasked.code, 0, unasked.output);
    assert.doesNotMatch(unasked.output, /wants to start/);
    assert.equal(cli.api.messageRequests().filter(isChild).length, 3);
  });
});
