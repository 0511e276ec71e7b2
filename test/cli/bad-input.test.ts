/**
 * Bad input gets a clear line, through the built CLI: a file name holding a newline is one result of glob and grep
 * (quoted as git quotes it), an SSE event whose JSON was cut short is retried with one line, never the SDK's
 * multi-line dump of the event and its chunk, and a folder's config files that are pipes or devices are one line
 * each, never a hang.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastToolResults, reply } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

describe('delegate CLI: bad input, clear lines', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  it('glob and grep show a file name holding a newline as one result, quoted, in every mode', async () => {
    writeFileSync(join(cli.dirs.workdir, 'a\nb.txt'), 'needle one\n');
    writeFileSync(join(cli.dirs.workdir, 'c.txt'), 'needle two\n');
    // A name shaped like the harness's own lines: it stays inside its quotes.
    writeFileSync(join(cli.dirs.workdir, 'x.txt\n[changes] wrote nothing.txt'), 'needle three\n');
    cli.api.script(
      reply.toolUse([
        { name: 'glob', input: { pattern: '*.txt' } },
        { name: 'grep', input: { pattern: 'needle' } },
        { name: 'grep', input: { pattern: 'needle', output_mode: 'content' } },
        { name: 'grep', input: { pattern: 'needle', output_mode: 'count' } },
      ]),
      reply.text('listed'),
    );
    const run = await runDelegate(['-p', 'list them', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const results = lastToolResults(must(cli.api.messageRequests()[1])).map((b) => String(b.content));
    assert.deepEqual(results, [
      '"a\\nb.txt"\nc.txt\n"x.txt\\n[changes] wrote nothing.txt"',
      '"a\\nb.txt"\nc.txt\n"x.txt\\n[changes] wrote nothing.txt"',
      results[2],
      '"a\\nb.txt":1\nc.txt:1\n"x.txt\\n[changes] wrote nothing.txt":1',
    ]);
    assert.deepEqual(results[2]?.split('\n').sort(), ['"a\\nb.txt":1:needle one', '"x.txt\\n[changes] wrote nothing.txt":1:needle three', 'c.txt:1:needle two']);
  });

  it('an SSE event that is not JSON is retried without a word; given up on, it is one line', async () => {
    cli.api.script(reply.malformed({ partialText: 'Hel' }), reply.text('whole answer'));
    const retried = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(retried.stdout, 'whole answer\n');
    assert.equal(retried.stderr, '', 'no dump of the event and its chunk');

    cli.api.script(reply.malformed(), reply.malformed(), reply.malformed());
    const verbose = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '-v'], { env: cli.env() });
    assert.equal(verbose.code, 1);
    const lines = verbose.stderr.trim().split('\n').filter((l) => !l.startsWith('delegate: sandbox:'));
    assert.equal(lines.length, 4, verbose.stderr);
    assert.deepEqual(lines.slice(0, 2), [
      '! stream failed (an event that is not valid JSON: Unterminated string in JSON at position 83); retrying (1/2)',
      '! stream failed (an event that is not valid JSON: Unterminated string in JSON at position 83); retrying (2/2)',
    ]);
    assert.equal(lines[2], '! stream failed (an event that is not valid JSON: Unterminated string in JSON at position 83) (gave up after 3 attempts)');
    assert.match(lines.at(-1) ?? '', /^delegate: stream failed \(an event that is not valid JSON: Unterminated string in JSON at position 83\) \(gave up after 3 attempts\) \(transcript: /);
    assert.doesNotMatch(verbose.stderr, /Could not parse|From chunk/);
  });

  it("a repository's agent file, settings and .mcp.json that are a FIFO or a link to /dev/zero or /dev/stdin: one line each, the run goes on", async () => {
    const w = cli.dirs.workdir;
    mkdirSync(join(w, '.claude', 'agents'), { recursive: true });
    // A FIFO waits for a writer when opened; git can hold the links (a terminal's /dev/stdin would wait for a key).
    execFileSync('mkfifo', [join(w, '.claude', 'agents', 'pipe.md'), join(w, '.mcp.json')]);
    symlinkSync('/dev/zero', join(w, '.claude', 'agents', 'zero.md'));
    symlinkSync('/dev/stdin', join(w, '.claude', 'settings.json'));
    writeFileSync(join(w, '.claude', 'agents', 'fine.md'), '---\nname: fine\ndescription: Still loads.\n---\nYou work.\n');
    cli.api.script(reply.text('answered'));
    const started = Date.now();
    const run = await runDelegate(['-p', 'hi', '--cwd', w], { env: cli.env(), timeoutMs: 15_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started < 10_000, 'no wait on a pipe, no endless read');
    assert.equal(run.stdout, 'answered\n');
    const lines = run.stderr.trim().split('\n').sort();
    assert.deepEqual(lines, [
      `delegate: error: ${join(w, '.claude', 'agents', 'pipe.md')}: cannot read it: not a regular file (a device, a pipe or a folder)`,
      `delegate: error: ${join(w, '.claude', 'agents', 'zero.md')}: cannot read it: not a regular file (a device, a pipe or a folder)`,
      'delegate: warning: .claude/settings.json: it is not a regular file (a device, a pipe or a folder); its hooks are skipped',
      `delegate: warning: ${join(w, '.mcp.json')}: MCP config is not a regular file (a device, a pipe or a folder)`,
    ].sort());
    assert.match(JSON.stringify(cli.api.messageRequests()[0]?.body.tools), /- fine: Still loads\./);
  });
});
