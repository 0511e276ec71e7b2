// A huge command output: memory stays bounded, the file beside the transcript holds all of it, and the
// model is told exactly how much it does not see and where the whole is.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { ScriptedModel } from '../../kit/scripted-model';
import { OutputCapture } from '../../../src/core/tools/output-capture';
import { must } from '../../kit/must';
import { testSession } from '../../kit/test-session';

describe('huge command outputs', function () {
  this.timeout(60_000);

  it('50 MB of output: the saved file holds every byte; the model sees the head, the tail and exact figures', async () => {
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'bash', input: { command: "echo BEGIN; head -c 50000000 /dev/zero | tr '\\0' a; echo; echo END" } }] }, { text: 'ok' });
    const { session } = await testSession({ model });
    const before = process.memoryUsage().rss;
    await session.run('print a lot', new AbortController().signal);
    const grew = process.memoryUsage().rss - before;
    const result = must(model.requests[1]).request.messages.at(-1);
    const content = JSON.stringify(result);
    const total = 6 + 50_000_000 + 1 + 4; // "BEGIN\n" + a×50M + "\n" + "END\n"
    assert.match(content, new RegExp(`characters cut here: the command printed ${total.toLocaleString('en-US')} characters\\. The full output is in ([^ ]+\\.txt)`));
    const path = must(/The full output is in ([^ ]+\.txt)/.exec(content))[1] as string;
    assert.equal(statSync(path).size, total, 'the file holds the whole output');
    const text = readFileSync(path, 'latin1');
    assert.ok(text.startsWith('BEGIN\naaa') && text.endsWith('aaa\nEND\n'));
    assert.match(content, /^.*BEGIN\\naaaa/);
    assert.match(content, /aaaa\\nEND\\n\[exit code 0\]/);
    const shown = must(/"content":"([^"]*)"/.exec(content))[1]?.length ?? 0;
    assert.ok(shown < 60_000, `the model gets a bounded output (${shown} chars)`);
    assert.ok(grew < 200 * 1024 * 1024, `memory grew ${Math.round(grew / 1048576)} MB for a 50 MB output`);
    session.close();
  });

  it('counts and says what it dropped when there is nowhere to save it', () => {
    const capture = new OutputCapture(10, undefined);
    capture.push('0123456789abcdefghij');
    const out = capture.finish();
    assert.equal(out.totalChars, 20);
    assert.equal(out.spill, undefined);
    assert.match(out.text, /^01234\n\[\.\.\. 10 of 20 characters of output dropped \(not saved\) \.\.\.\]\nfghij$/);
  });
});
