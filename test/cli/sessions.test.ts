/**
 * Sessions that last, from the CLI: `--resume ID` and `--continue` go on with a session (the first
 * request holds the earlier conversation, the parent's messages only; same session_id; the transcript
 * appended), `--compact` compacts it; an unknown id is one line and exit 2.
 */
import assert from 'node:assert/strict';
import { must } from '../kit/must';
import { existsSync, readFileSync } from 'node:fs';
import { reply, systemText } from '../fixtures/messages-api-server';
import { lastJsonLine, readJsonl, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';
import { waitUntil } from '../kit/wait';

describe('delegate CLI: resume, continue, compact', function () {
  this.timeout(30_000);
  const cli = cliSuite();


  async function firstSession(): Promise<Record<string, unknown>> {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('CHILD-SECRET found in notes')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'look', description: 'look' } }), reply.text('The notes are fine.')] },
    ]);
    const run = await runDelegate(['-p', 'check the notes', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    return lastJsonLine(run.stdout);
  }

  it('--resume ID: the first request holds the earlier conversation, same session id, transcript appended', async () => {
    const first = await firstSession();
    const transcript = String(first.transcript);
    const linesBefore = readFileSync(transcript, 'utf8').trim().split('\n').length;
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.text('Yes, still fine.')] }]);
    const before = cli.api.messageRequests().length;
    const run = await runDelegate(['--resume', String(first.session_id), '-p', 'still fine?', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const result = lastJsonLine(run.stdout);
    assert.equal(result.session_id, first.session_id);
    assert.equal(result.transcript, transcript);
    const sent = must(must(cli.api.messageRequests()[before]).body.messages);
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user']);
    const text = JSON.stringify(sent);
    assert.match(text, /check the notes/);
    assert.match(text, /The notes are fine\./);
    assert.match(text, /still fine\?/);
    assert.equal(text.split('CHILD-SECRET').length, 2, 'the child’s report once (its tool_result), never its conversation');
    const lines = readJsonl(transcript);
    assert.ok(lines.length > linesBefore, 'appended');
    const seqs = lines.map((l) => Number(l.seq));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'seq continues');
    assert.equal(new Set(seqs).size, seqs.length);
  });

  it('--continue takes the most recent session of that folder', async () => {
    const first = await firstSession();
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.text('continued')] }]);
    const run = await runDelegate(['--continue', '-p', 'and?', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(lastJsonLine(run.stdout).session_id, first.session_id);
  });

  it('a session another Delegate is writing is refused (one line, exit 2, nothing sent); once that one ends it goes on', async () => {
    const first = await firstSession();
    const id = String(first.session_id);
    const lockFile = String(first.transcript).replace(/\.jsonl$/, '.lock');
    assert.equal(existsSync(lockFile), false, 'released when the first run ended');
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.text('slow answer', { delayMs: 1500 }), reply.text('after it')] }]);
    const before = cli.api.messageRequests().length;
    const slow = runDelegate(['--resume', id, '-p', 'take your time', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    await waitUntil(() => cli.api.messageRequests().length > before, 'the first resume reaches the model');
    const second = await runDelegate(['--continue', '-p', 'me too', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(second.code, 2);
    assert.equal(second.stderr.trim().split('\n').length, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`^delegate: session ${id} is in use by another Delegate \\(pid \\d+, since `));
    assert.equal(cli.api.messageRequests().length, before + 1, 'the refused run sent nothing');
    assert.equal((await slow).code, 0);
    assert.equal(existsSync(lockFile), false);
    const after = await runDelegate(['--continue', '-p', 'me too', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(after.code, 0, after.stderr);
    assert.equal(lastJsonLine(after.stdout).session_id, id);
    const seqs = readJsonl(String(first.transcript)).map((l) => Number(l.seq));
    assert.equal(new Set(seqs).size, seqs.length, 'no seq written twice');
  });

  it('an unknown id, or nothing to continue, is one line and exit 2', async () => {
    const unknown = await runDelegate(['--resume', 'no-such-session', '-p', 'x', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
    assert.match(unknown.stderr, /no session "no-such-session"/);
    const none = await runDelegate(['--continue', '-p', 'x', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no session to continue in/);
    const bad = await runDelegate(['--resume', '../../etc/passwd', '-p', 'x', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(bad.code, 2);
    const compactAlone = await runDelegate(['--compact', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(compactAlone.code, 2);
    assert.match(compactAlone.stderr, /--compact needs a session/);
  });

  it('--compact summarizes the resumed conversation and says so; the next resume starts from the summary', async () => {
    const first = await firstSession();
    // Too little to summarize after one prompt: two more prompts first.
    cli.api.route([
      { name: 'summary', match: (r) => systemText(r).startsWith('You summarize'), replies: [reply.text('SUMMARY: the notes were checked and are fine')] },
      { name: 'parent', match: () => true, replies: [reply.text('a'), reply.text('b'), reply.text('c')] },
    ]);
    for (const p of ['one', 'two', 'three']) {
      const r = await runDelegate(['--resume', String(first.session_id), '-p', p, '--cwd', cli.dirs.workdir], { env: cli.env() });
      assert.equal(r.code, 0, r.stderr);
    }
    const compact = await runDelegate(['--resume', String(first.session_id), '--compact', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(compact.code, 0, compact.stderr);
    const line = lastJsonLine(compact.stdout);
    assert.equal(line.type, 'compacted');
    assert.equal(line.compacted, true);
    assert.ok(Number(line.tokens_after) < Number(line.tokens_before));
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.text('from the summary')] }]);
    const before = cli.api.messageRequests().length;
    const next = await runDelegate(['--continue', '-p', 'what now?', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(next.code, 0, next.stderr);
    const sent = JSON.stringify(must(cli.api.messageRequests()[before]).body.messages);
    assert.match(sent, /SUMMARY: the notes were checked/);
    assert.doesNotMatch(sent, /check the notes"/, 'the first prompt now lives in the summary');
  });
});
