/**
 * Reverting one child never undoes another's work, end to end through the built CLI against the local
 * Messages-API server. Two parallel children whose bash calls overlap in time (one sleeps while the other
 * writes, so the scan that finds a change sees both calls running):
 *   - each changed its own files, named in its own command (a rename, a path with a space): each change goes to
 *     the command that names it, and `delegate revert` of A then B, or of B then A, puts back exactly that child's;
 *   - a file neither command names (written by a script in a string; the other names it only in a comment and an
 *     echoed string) is shared: skipped with one line saying who else and how to include it, exit 1;
 *     `--include-shared` puts it back;
 *   - both commands name the same file they both changed: shared for each; included, it goes back to before both;
 *   - A wrote a file with write_file and B's command changed it later: reverting A never undoes B's change;
 *   - A created a file and B's command deleted it: A's revert is refused (the file's absence is B's work).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, reply, type RecordedRequest, type Reply } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);

interface Subagent {
  id: string;
  description: string;
  changes?: { files: { path: string; action: string; by?: { agent_id: string }[]; shared?: true }[] };
}

describe('delegate CLI: reverting one of two overlapping children', function () {
  this.timeout(60_000);
  const cli = cliSuite();
  const file = (rel: string): string => join(cli.dirs.workdir, rel);
  const read = (rel: string): string | undefined => (existsSync(file(rel)) ? readFileSync(file(rel), 'utf8') : undefined);

  /** Runs the parent with children A and B (B's first reply a little later, so its call starts while A's runs). */
  async function run(a: Reply[], b: Reply[]): Promise<{ sessionId: string; a: Subagent; b: Subagent }> {
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: a },
      { name: 'B', match: childOf('CHILD-B'), replies: b },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: do a', description: 'do a' } },
            { name: 'task', input: { prompt: 'CHILD-B: do b', description: 'do b' } },
          ]),
          reply.text('Done.'),
        ],
      },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(r.stdout);
    const subagents = result.subagents as Subagent[];
    return { sessionId: String(result.session_id), a: subagents.find((s) => s.description === 'do a') as Subagent, b: subagents.find((s) => s.description === 'do b') as Subagent };
  }
  const revert = (sessionId: string, agent: Subagent, ...more: string[]): ReturnType<typeof runDelegate> =>
    runDelegate(['revert', '--session', sessionId, '--agent', agent.id, ...more], { env: cli.env() });
  const files = (s: Subagent): string[] => (s.changes?.files ?? []).map((f) => `${f.action} ${f.path}${f.shared ? ' shared' : ''}`).sort();

  // A writes and renames at 1 s, then sleeps on; B starts meanwhile and writes at 2 s, then ends: the scan at B's
  // end finds all of it while both calls run.
  const A_CMD = 'sleep 1; echo a > a.txt; mv old.txt new.txt; sleep 2';
  const B_CMD = 'sleep 2; echo b > "my b.txt"';
  for (const order of ['A then B', 'B then A'] as const) {
    it(`each changed its own files while the calls overlapped: revert ${order} puts back exactly that child's`, async () => {
      writeFileSync(file('old.txt'), 'old\n');
      const { sessionId, a, b } = await run(
        [reply.toolUse({ name: 'bash', input: { command: A_CMD } }), reply.text('A done.')],
        [reply.toolUse({ name: 'bash', input: { command: B_CMD } }, { delayMs: 300 }), reply.text('B done.')],
      );
      assert.deepEqual(files(a), ['created a.txt', 'created new.txt', 'deleted old.txt']);
      assert.deepEqual(files(b), ['created my b.txt']);
      const [first, second] = order === 'A then B' ? [a, b] : [b, a];

      const one = await revert(sessionId, first);
      assert.equal(one.code, 0, one.stderr);
      if (first === a) {
        assert.deepEqual(one.stdout.trim().split('\n').sort(), ['deleted   a.txt', 'deleted   new.txt', 'recreated old.txt']);
        assert.equal(read('my b.txt'), 'b\n', "B's file is untouched");
      } else {
        assert.equal(one.stdout, 'deleted   my b.txt\n');
        assert.deepEqual([read('a.txt'), read('new.txt'), read('old.txt')], ['a\n', 'old\n', undefined], "A's work is untouched");
      }
      const two = await revert(sessionId, second);
      assert.equal(two.code, 0, two.stderr);
      assert.deepEqual([read('a.txt'), read('new.txt'), read('old.txt'), read('my b.txt')], [undefined, undefined, 'old\n', undefined]);
    });
  }

  it('delegate revert --help says what a shared file is and names --include-shared', async () => {
    const help = await runDelegate(['revert', '--help'], { env: cli.env() });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: delegate revert --session ID --agent ID \[--include-shared\]/);
    assert.match(help.stdout, /is shared:\neither could have made the change, so it is skipped unless --include-shared puts it back as well\./);
  });

  it('a file neither command names is shared: skipped with a line saying who else and how; --include-shared puts it back', async () => {
    // A names shared.txt only in an echoed string and a comment; B writes it through a script in a string.
    const aCmd = 'sleep 2; echo "left shared.txt alone" > a.txt # shared.txt';
    const bCmd = "sleep 0.5; sh -c 'echo s > shared.txt'";
    const { sessionId, a, b } = await run(
      [reply.toolUse({ name: 'bash', input: { command: aCmd } }), reply.text('A done.')],
      [reply.toolUse({ name: 'bash', input: { command: bCmd } }, { delayMs: 300 }), reply.text('B done.')],
    );
    assert.deepEqual(files(a), ['created a.txt', 'created shared.txt shared']);
    assert.deepEqual(files(b), ['created shared.txt shared']);

    const skipped = await revert(sessionId, b);
    assert.equal(skipped.code, 1, 'not everything was put back');
    assert.equal(
      skipped.stdout,
      `skipped   shared.txt  (shared: \`${aCmd}\` of the subagent "do a" (${a.id}) ran at the same time and may have changed it; --include-shared reverts it too)\n`,
    );
    assert.equal(read('shared.txt'), 's\n', 'left alone');

    const included = await revert(sessionId, b, '--include-shared');
    assert.equal(included.code, 0, included.stderr);
    assert.equal(included.stdout, 'deleted   shared.txt\n');
    assert.equal(read('shared.txt'), undefined);
    // A's revert: its own file; the shared one was put back already.
    const rest = await revert(sessionId, a);
    assert.equal(rest.code, 0, rest.stderr);
    assert.deepEqual(rest.stdout.trim().split('\n'), ['deleted   a.txt', 'already   shared.txt  (reverted earlier)']);
  });

  it('both commands name the same file and both changed it in the overlap: shared for each; included, it goes back to before both', async () => {
    writeFileSync(file('same.txt'), 'start\n');
    const { sessionId, a, b } = await run(
      [reply.toolUse({ name: 'bash', input: { command: 'sleep 0.8; echo a >> same.txt; sleep 1.5' } }), reply.text('A done.')],
      [reply.toolUse({ name: 'bash', input: { command: 'sleep 1; echo b >> same.txt' } }, { delayMs: 300 }), reply.text('B done.')],
    );
    assert.equal(read('same.txt'), 'start\na\nb\n');
    assert.deepEqual(files(a), ['modified same.txt shared']);
    assert.deepEqual(files(b), ['modified same.txt shared']);
    const skipped = await revert(sessionId, a);
    assert.equal(skipped.code, 1);
    assert.match(skipped.stdout, /^skipped {3}same\.txt {2}\(shared: `sleep 1; echo b >> same\.txt` of the subagent "do b" \(\S+\) ran at the same time and may have changed it; --include-shared reverts it too\)\n$/);
    assert.equal(read('same.txt'), 'start\na\nb\n');
    const included = await revert(sessionId, a, '--include-shared', '--output-format', 'json');
    assert.equal(included.code, 0, included.stderr);
    assert.deepEqual((lastJsonLine(included.stdout).files as { path: string; outcome: string }[]).map((f) => `${f.outcome} ${f.path}`), ['restored same.txt']);
    assert.equal(read('same.txt'), 'start\n');
    const rest = await revert(sessionId, b);
    assert.equal(rest.stdout, 'already   same.txt  (reverted earlier)\n');
  });

  for (const order of ['A then B', 'B then A'] as const) {
    it(`A wrote a file (write_file), B's command changed it later while A's ran: revert ${order} never undoes B's change`, async () => {
      const { sessionId, a, b } = await run(
        [reply.toolUse({ name: 'write_file', input: { path: 'f.txt', content: 'by A\n' } }), reply.toolUse({ name: 'bash', input: { command: 'sleep 2; echo a > a.txt' } }), reply.text('A done.')],
        [reply.toolUse({ name: 'bash', input: { command: 'sleep 0.5; echo "by B" >> f.txt' } }, { delayMs: 600 }), reply.text('B done.')],
      );
      assert.equal(read('f.txt'), 'by A\nby B\n');
      assert.deepEqual(files(a), ['created a.txt', 'created f.txt']);
      assert.deepEqual(files(b), ['modified f.txt']);
      // B's append is B's alone (its command names f.txt): A's record of f.txt is its write_file only.
      assert.deepEqual(a.changes?.files.find((f) => f.path === 'f.txt')?.by, undefined);
      assert.deepEqual(b.changes?.files.find((f) => f.path === 'f.txt')?.by?.map((c) => c.agent_id), [b.id]);
      if (order === 'A then B') {
        const one = await revert(sessionId, a);
        assert.equal(one.code, 1, 'f.txt is refused');
        assert.deepEqual(one.stdout.trim().split('\n'), ['refused   f.txt  (it was changed since by someone else)', 'deleted   a.txt']);
        assert.match(one.stderr, /f\.txt was not reverted; what changed since the subagent's last change:\n[^]*\+by B/);
        assert.equal(read('f.txt'), 'by A\nby B\n', "B's change stays");
        const two = await revert(sessionId, b);
        assert.equal(two.code, 0, two.stderr);
        assert.equal(read('f.txt'), 'by A\n', "B's change alone undone");
      } else {
        const one = await revert(sessionId, b);
        assert.equal(one.code, 0, one.stderr);
        assert.equal(one.stdout, 'restored  f.txt\n');
        assert.equal(read('f.txt'), 'by A\n');
        const two = await revert(sessionId, a);
        assert.equal(two.code, 0, two.stderr);
        assert.deepEqual([read('f.txt'), read('a.txt')], [undefined, undefined]);
      }
    });
  }

  it("A created a file (write_file) and B's command deleted it: A's revert is refused, not \"unchanged\", so reverting B then A leaves no file", async () => {
    const { sessionId, a, b } = await run(
      [reply.toolUse({ name: 'write_file', input: { path: 'f.txt', content: 'by A\n' } }), reply.text('A done.')],
      [reply.toolUse({ name: 'bash', input: { command: 'sleep 1; rm f.txt' } }, { delayMs: 300 }), reply.text('B done.')],
    );
    assert.deepEqual([files(a), files(b)], [['created f.txt'], ['deleted f.txt']]);
    // Before: "unchanged f.txt (it already holds what it held before)", exit 0 — and B's revert then brought A's file back for good.
    const one = await revert(sessionId, a);
    assert.equal(one.code, 1, one.stdout);
    assert.equal(one.stdout, 'refused   f.txt  (it was deleted since)\n');
    const two = await revert(sessionId, b);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(read('f.txt'), 'by A\n', "B's revert puts back what B deleted");
    const three = await revert(sessionId, a);
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stdout, 'deleted   f.txt\n');
    assert.equal(read('f.txt'), undefined, 'both reverted: as before either ran');
  });
});
