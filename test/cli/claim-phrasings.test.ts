/**
 * The claim check reads real phrasings (issue 24 §5), through the built CLI against the local Messages-API server:
 * a negation in one part of a sentence leaves the claims of the others checked; a command that only names a file
 * backs no edit of it the manifest disproves; `[deliverables]` lists only files the child wrote. The assertions read
 * the tool_result the parent's next request carries.
 */
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

describe('delegate CLI: the claim check reads real phrasings', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  beforeEach(() => {
    mkdirSync(join(cli.dirs.workdir, 'src'));
    writeFileSync(join(cli.dirs.workdir, 'src', 'parse.js'), 'module.exports = (s) => s.split(",");\n');
    writeFileSync(join(cli.dirs.workdir, 'test.sh'), 'echo "1 failing: parses empty input"\nexit 1\n');
  });

  /** The parent's tool_result for one task whose child runs `childReplies`. */
  async function delegate(childReplies: ReturnType<typeof reply.text>[]): Promise<string> {
    cli.api.route([
      { name: 'child', match: isChild, replies: childReplies },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Fix the parser.', description: 'fix' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const parent = cli.api.messageRequests().filter((r) => !isChild(r)).at(-1) as RecordedRequest;
    return lastToolResults(parent).map((b) => contentText(b.content as never)).join('\n');
  }

  it('"fixed X so it no longer throws, and all tests pass" after a failed run: the pass claim is flagged, the fix is not', async () => {
    const result = await delegate([
      reply.toolUse({ name: 'read_file', input: { path: 'src/parse.js' } }),
      reply.toolUse({ name: 'edit_file', input: { path: 'src/parse.js', old_text: 's.split(",")', new_text: '(s ? s.split(",") : [])' } }),
      reply.toolUse({ name: 'bash', input: { command: 'sh test.sh' } }),
      reply.text('Fixed `src/parse.js` so it no longer throws on empty input, and all tests pass.'),
    ]);
    const unverified = result.split('\n').filter((l) => l.startsWith('[unverified]'));
    assert.deepEqual(unverified, ['[unverified] "Fixed `src/parse.js` so it no longer throws on empty input, and all tests pass.": `sh test.sh` exited 1'], result);
  });

  it('claims said as a run and its result, in a table row and in a check list, after a failed run and no edit: each is flagged', async () => {
    const result = await delegate([
      reply.toolUse({ name: 'bash', input: { command: 'sh test.sh' } }),
      reply.text('Ran sh test.sh: all passing.\n\n| Check | Result |\n|---|---|\n| Tests | ✅ pass |\n\n- [x] Updated `src/parse.js` for empty input'),
    ]);
    assert.deepEqual(result.split('\n').filter((l) => l.startsWith('[unverified]')), [
      '[unverified] "Ran sh test.sh: all passing.": `sh test.sh` exited 1',
      '[unverified] "| Tests | ✅ pass |": `sh test.sh` exited 1',
      '[unverified] "- [x] Updated `src/parse.js` for empty input": no write or edit of src/parse.js in the record, and no command changed it',
    ], result);
  });

  it('a command that only names the file (`cat src/parse.js && sh test.sh`) backs no edit of it', async () => {
    const result = await delegate([reply.toolUse({ name: 'bash', input: { command: 'cat src/parse.js && sh test.sh' } }), reply.text('Updated `src/parse.js` to handle empty input.')]);
    assert.match(result, /\n\[changes\] ran `cat src\/parse\.js && sh test\.sh` \(exit 1\)\n\[unverified\] "Updated `src\/parse\.js` to handle empty input\.": no write or edit of src\/parse\.js in the record, and no command changed it\n/);
  });

  it('a writing command that changed nothing (`sed -i` that matched nothing) backs no edit claim about a watched file', async () => {
    const result = await delegate([reply.toolUse({ name: 'bash', input: { command: "sed -i 's/no such text/x/' src/parse.js" } }), reply.text('Updated `src/parse.js` to handle empty input.')]);
    assert.match(result, /\n\[unverified\] "Updated `src\/parse\.js` to handle empty input\.": no write or edit of src\/parse\.js in the record, and no command changed it\n/);
  });

  it('[deliverables] lists the file the child wrote, not one it only touched', async () => {
    writeFileSync(join(cli.dirs.workdir, 'report.md'), 'an old report\n');
    utimesSync(join(cli.dirs.workdir, 'report.md'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const result = await delegate([
      reply.toolUse({ name: 'bash', input: { command: 'touch report.md' } }),
      reply.toolUse({ name: 'write_file', input: { path: 'notes.md', content: 'the parser needs a guard\n' } }),
      reply.text('See report.md and notes.md.'),
    ]);
    const line = must(result.split('\n').find((l) => l.startsWith('[deliverables]')), result);
    assert.equal(line, '[deliverables] notes.md (25 bytes)');
  });
});
