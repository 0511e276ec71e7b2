/**
 * A tool's output travels once (through the built CLI): `tool_finished` carries it, the `message` event that hands
 * it to the model refers to it (`outputRefs`, the result block without `content`) — on stream-json and in the
 * transcript — and `--resume` rebuilds the exact conversation from it, from a transcript written before the
 * change (every content inline) as well.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, readJsonl, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

const CANARY = 'BIG-OUTPUT-CANARY';
/** ~30,000 characters: a big output, under the 50,000-character limit. */
const BIG_FILE = Array.from({ length: 500 }, (_, i) => `line ${i} ${CANARY} ${'x'.repeat(40)}`).join('\n');

type Line = Record<string, unknown>;
const occurrences = (text: string, needle: string): number => text.split(needle).length - 1;
/** A request's messages without the cache breakpoints, which move from request to request. */
const withoutBreakpoints = (messages: unknown): unknown => JSON.parse(JSON.stringify(messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value)));

describe('delegate CLI: a tool output is carried once', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  beforeEach(async () => {
    writeFileSync(join(cli.dirs.workdir, 'big.txt'), BIG_FILE);
    writeFileSync(join(cli.dirs.workdir, 'small.txt'), 'a small file\n');
  });

  /** One run: two reads in one reply (a big file and a small one), then an answer. Returns the stream-json lines. */
  async function readBoth(): Promise<Line[]> {
    cli.api.script(
      reply.toolUse([
        { name: 'read_file', input: { path: 'big.txt' } },
        { name: 'read_file', input: { path: 'small.txt' } },
      ]),
      reply.text('Read both.'),
    );
    const run = await runDelegate(['-p', 'read both files', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(occurrences(run.stdout, `line 499 ${CANARY}`), 1, 'stream-json carries the big output once');
    return run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
  }

  it('stream-json: tool_finished has the output, the message refers to it by tool_use id', async () => {
    const lines = await readBoth();
    const finished = lines.filter((e) => e.type === 'tool_finished');
    assert.equal(finished.length, 2);
    assert.match(String(must(finished[0]).output), /line 499 BIG-OUTPUT-CANARY/);
    const results = must(lines.find((e) => e.type === 'message' && JSON.stringify(e.message).includes('"tool_result"')));
    assert.deepEqual(results.outputRefs, finished.map((e) => e.toolUseId));
    const blocks = (results.message as { content: Record<string, unknown>[] }).content;
    assert.deepEqual(blocks.map((b) => [b.type, b.tool_use_id, 'content' in b]), finished.map((e) => ['tool_result', e.toolUseId, false]));
  });

  it('--resume rebuilds the exact conversation from the references, and from a transcript written before them', async () => {
    const lines = await readBoth();
    const result = must(lines.at(-1));
    const transcript = String(result.transcript);
    const stored = readFileSync(transcript, 'utf8');
    assert.equal(occurrences(stored, `line 499 ${CANARY}`), 1, 'the transcript holds the big output once');
    // What the model saw on the run's second request: prompt, the two calls, their results.
    const live = withoutBreakpoints(must(must(cli.api.messageRequests()[1]).body.messages));

    const resumedMessages = async (): Promise<unknown[]> => {
      cli.api.script(reply.text('Still read.'));
      const before = cli.api.messageRequests().length;
      const run = await runDelegate(['--resume', String(result.session_id), '-p', 'and now?', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(lastJsonLine(run.stdout).status, 'completed');
      return withoutBreakpoints(must(must(cli.api.messageRequests()[before]).body.messages)) as unknown[];
    };
    const resumed = await resumedMessages();
    assert.deepEqual(resumed.slice(0, 3), live, 'the results come back byte for byte, in the live order of keys');
    assert.equal(JSON.stringify(resumed.slice(0, 3)), JSON.stringify(live));
    assert.match(JSON.stringify(resumed[3]), /Read both\./);

    // The same transcript as an older Delegate wrote it: every result inline, no outputRefs.
    const events = readJsonl(transcript);
    const outputs = new Map(events.filter((e) => e.type === 'tool_call' && 'output' in e).map((e) => [String(e.id), String(e.output)]));
    const old = events.map((e) => {
      if (e.type !== 'message' || !e.outputRefs) return e;
      const { outputRefs: _refs, ...rest } = e;
      const message = e.message as { role: string; content: Record<string, unknown>[] };
      const content = message.content.map((b) => (b.type === 'tool_result' ? { type: b.type, tool_use_id: b.tool_use_id, content: outputs.get(String(b.tool_use_id)), ...b } : b));
      return { ...rest, message: { ...message, content } };
    });
    const oldText = old.map((e) => JSON.stringify(e)).join('\n') + '\n';
    // Measured: what the references save on this run (the inline form repeats every output once more).
    console.log(`      transcript: ${oldText.length.toLocaleString('en-US')} chars with outputs inline, ${stored.length.toLocaleString('en-US')} with references`);
    assert.ok(oldText.length > stored.length + BIG_FILE.length, 'the inline form repeats the big output');
    writeFileSync(transcript, oldText);
    const fromOld = await resumedMessages();
    assert.deepEqual(fromOld.slice(0, 4), resumed.slice(0, 4), 'an older transcript resumes to the same conversation');
  });
});
