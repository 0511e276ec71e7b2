/**
 * Addressable subagents through the built CLI and the real SDK (issue 16 §1–2): task's `name` (a reused one is
 * refused with the holder's id), send_message to a finished child (it resumes with its whole history: the server
 * sees its earlier messages and the new one) and to a running one (steering: its next request has the message),
 * read_subagent's pages (calls, files with diffs, transcript; offset; bad input), a pointer-only report's deliverable listed, and `--resume S --agent ID`.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentText, firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const parentOf = (r: RecordedRequest): boolean => !isChild(r);
/** The text of the tool_result blocks of a request's last message. */
const results = (r: RecordedRequest | undefined): string => lastToolResults(must(r)).map((b) => contentText(b.content as never)).join('\n---\n');
const isErrorResult = (r: RecordedRequest | undefined): boolean => lastToolResults(must(r)).some((b) => b.is_error === true);

describe('delegate CLI: addressable subagents (send_message, read_subagent, --agent)', function () {
  this.timeout(40_000);
  const cli = cliSuite();

  it('task{name}: the name is in agent_started and the result names the child; a reused name is refused with the holder\'s id', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('scouted: nothing odd')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD scout the repo', description: 'scout', name: 'scout' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD scout again', description: 'scout 2', name: 'scout' } }),
          reply.text('ok'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = events.filter((e) => e.type === 'agent_started' && e.parentId !== null);
    assert.equal(started.length, 1, 'the second task never started a child');
    assert.equal(started[0]?.name, 'scout');
    const id = String(started[0]?.agentId);
    const parents = cli.api.messageRequests().filter(parentOf);
    assert.match(results(parents[1]), new RegExp(`scouted: nothing odd\\n[\\s\\S]*\\[subagent ${id} "scout": send_message and read_subagent reach it\\]`));
    assert.ok(isErrorResult(parents[2]));
    assert.match(results(parents[2]), new RegExp(`a subagent named "scout" already exists in this session: ${id}`));
    cli.api.assertAllConsumed();
  });

  it('send_message to a finished child resumes it with its whole history; the parent gets its new report; one subagents[] entry, 2 segments', async () => {
    writeFileSync(join(cli.dirs.workdir, 'a.ts'), 'export const x = 1;\n');
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('FIRST REPORT: x is in a.ts'), reply.text('SECOND REPORT: y is in b.ts')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD find x', description: 'finder', name: 'finder' } }),
          reply.toolUse({ name: 'send_message', input: { to: 'finder', message: 'FOLLOW-UP: and where is y?' } }),
          reply.text('x in a.ts, y in b.ts'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '-v'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const children = cli.api.messageRequests().filter(isChild);
    assert.equal(children.length, 2);
    // The resumed child's request: its first prompt, its first report, then the message (marked as the parent's).
    const messages = must(children[1]?.body.messages);
    assert.equal(firstUserText(must(children[1])), 'CHILD find x');
    assert.equal(contentText(messages[1]?.content), 'FIRST REPORT: x is in a.ts');
    const last = contentText(messages.at(-1)?.content);
    assert.match(last, /FOLLOW-UP: and where is y\?/);
    assert.match(last, /not from the user/);
    // Same system prompt and tools as its first run.
    assert.equal(JSON.stringify(children[1]?.body.tools), JSON.stringify(children[0]?.body.tools));
    const parents = cli.api.messageRequests().filter(parentOf);
    // a.ts is named but was not written by the child: no deliverable.
    assert.doesNotMatch(results(parents[1]), /\[deliverables\]/);
    assert.match(results(parents[2]), /SECOND REPORT: y is in b\.ts/);
    assert.match(run.stderr, /resumed by its parent \(subagent [0-9a-f]+, segment 2\)/);
    const result = lastJsonLine(run.stdout);
    const subagents = result.subagents as Record<string, unknown>[];
    assert.equal(subagents.length, 1);
    assert.equal(subagents[0]?.segments, 2);
    assert.equal(subagents[0]?.num_turns, 2);
    assert.equal(subagents[0]?.result, 'SECOND REPORT: y is in b.ts');
    cli.api.assertAllConsumed();
  });

  it('send_message to a running (background) child: it reads the message at the start of its next turn', async () => {
    writeFileSync(join(cli.dirs.workdir, 'a.txt'), 'A\n');
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [reply.toolUse({ name: 'glob', input: { pattern: '*.txt' } }, { delayMs: 1500 }), reply.text('worker report: steered')],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD list the txt files', description: 'worker', name: 'worker', run_in_background: true } }),
          reply.toolUse({ name: 'send_message', input: { to: 'worker', message: 'STEER: also count them' } }),
          reply.text('Waiting for the worker.'),
          reply.text('Done.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const parents = cli.api.messageRequests().filter(parentOf);
    assert.match(results(parents[2]), /Message queued for [0-9a-f]+ "worker"/);
    const children = cli.api.messageRequests().filter(isChild);
    assert.equal(children.length, 2);
    assert.doesNotMatch(JSON.stringify(children[0]?.body.messages), /STEER/);
    const second = JSON.stringify(children[1]?.body.messages);
    assert.match(second, /STEER: also count them/);
    assert.match(second, /while you work/);
    assert.match(JSON.stringify(parents.at(-1)?.body.messages), /worker report: steered/);
    cli.api.assertAllConsumed();
  });

  it('read_subagent: calls, files (with a diff) and transcript pages with offset; a named deliverable with its size; bad id and what are errors', async () => {
    writeFileSync(join(cli.dirs.workdir, 'notes.txt'), 'one\ntwo\n');
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'notes.txt' } }),
          reply.toolUse({ name: 'edit_file', input: { path: 'notes.txt', old_text: 'two', new_text: 'TWO' } }),
          reply.toolUse({ name: 'write_file', input: { path: 'report.md', content: '# Report\nall good\n' } }),
          reply.text('Done: see report.md'),
        ],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD fix the notes', description: 'fixer', name: 'fixer' } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'fixer', what: 'calls', limit: 2 } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'fixer', what: 'calls', offset: 2 } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'fixer', what: 'files', diff: true } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'fixer', what: 'transcript', offset: 1, limit: 2 } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'nobody', what: 'calls' } }),
          reply.toolUse({ name: 'read_subagent', input: { id: 'fixer', what: 'everything' } }),
          reply.text('checked'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'acceptEdits'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const parents = cli.api.messageRequests().filter(parentOf);
    // The report only points at a file: the parent's task result lists it with its size.
    assert.match(results(parents[1]), /^Done: see report\.md\n\n\[changes\] [^\n]+\n\[deliverables\] report\.md \(18 bytes\)\n\[subagent [0-9a-f]{8} "fixer"/);
    const calls1 = results(parents[2]);
    assert.match(calls1, /Files its result names: report\.md \(18 bytes\)/);
    assert.match(calls1, /tool calls 1–2 of 3:/);
    assert.match(calls1, /#0 read_file `notes\.txt` → ok: /);
    assert.match(calls1, /#1 edit_file `notes\.txt` → ok/);
    assert.match(calls1, /1 more; offset=2/);
    const calls2 = results(parents[3]);
    assert.match(calls2, /tool calls 3–3 of 3:\n#2 write_file `report\.md` → ok/);
    assert.doesNotMatch(calls2, /more; offset=/);
    const files = results(parents[4]);
    assert.match(files, /modified notes\.txt \(\+1 -1\)/);
    assert.match(files, /-two\n\+TWO/);
    assert.match(files, /created report\.md \(\+2\)/);
    const transcript = results(parents[5]);
    assert.match(transcript, /messages 2–3 of 8:/);
    assert.match(transcript, /\[1\] assistant: → read_file/);
    assert.match(transcript, /\[2\] user: ← result: /);
    assert.match(transcript, /5 more; offset=3/);
    assert.ok(isErrorResult(parents[6]));
    assert.match(results(parents[6]), /No subagent "nobody" of yours \(your subagents: [0-9a-f]+ "fixer"\)/);
    assert.ok(isErrorResult(parents[7]));
    assert.match(results(parents[7]), /"what" must be one of "calls", "files", "transcript"/);
    cli.api.assertAllConsumed();
  });

  it('--resume S --agent ID sends the prompt to that subagent: it resumes with its history and its new result is printed', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.text('CHILD-1: the answer is 41'), reply.text('CHILD-2: corrected, it is 42')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD compute', description: 'calc' } }), reply.text('41')] },
    ]);
    const first = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(first.code, 0, first.stderr);
    const out = lastJsonLine(first.stdout);
    const session = String(out.session_id);
    const id = String((out.subagents as Record<string, unknown>[])[0]?.id);

    const missing = await runDelegate(['-p', 'hello', '--cwd', cli.dirs.workdir, '--resume', session, '--agent', 'nobody'], { env: cli.env() });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /delegate: no subagent "nobody" in this session/);
    const usage = await runDelegate(['-p', 'hello', '--cwd', cli.dirs.workdir, '--agent', id], { env: cli.env() });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--agent needs a session/);

    const again = await runDelegate(['-p', 'USER: check it again', '--cwd', cli.dirs.workdir, '--resume', session, '--agent', id], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'CHILD-2: corrected, it is 42\n');
    const children = cli.api.messageRequests().filter(isChild);
    assert.equal(children.length, 2);
    const messages = must(children[1]?.body.messages);
    assert.equal(firstUserText(must(children[1])), 'CHILD compute');
    assert.equal(contentText(messages[1]?.content), 'CHILD-1: the answer is 41');
    assert.equal(contentText(messages.at(-1)?.content), 'USER: check it again');
    assert.equal(cli.api.messageRequests().filter(parentOf).length, 2, 'the main agent did not run again');
    cli.api.assertAllConsumed();
  });
});
