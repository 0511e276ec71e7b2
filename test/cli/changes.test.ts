/**
 * Several subagents in one folder, end to end through the built CLI and the real SDK against the local
 * Messages-API server: the stale-write guard between real parallel children, the [changes] manifest (footer
 * and JSON), and `delegate revert` with a conflict.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, readJsonl, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);
const CONFIG = 'export const retries = 3;\nexport const delay = 10;\n';

describe('delegate CLI: several subagents in one folder', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  beforeEach(async () => {
    writeFileSync(join(cli.dirs.workdir, 'config.ts'), CONFIG);
  });

  it('two parallel children read a file, one edits it, the other\'s edit is refused naming the first; the manifest says what each did', async () => {
    cli.api.route([
      {
        name: 'A',
        match: childOf('CHILD-A'),
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'config.ts' } }),
          reply.toolUse({ name: 'edit_file', input: { path: 'config.ts', old_text: 'retries = 3', new_text: 'retries = 5' } }),
          // A look and a command that may change files: only the second is listed with the changes.
          reply.toolUse([
            { name: 'bash', input: { command: 'wc -l config.ts && git status 2>/dev/null | head -3' } },
            { name: 'bash', input: { command: 'test -f config.ts && touch checked.flag' } },
          ]),
          reply.text('Retries raised to 5.'),
        ],
      },
      {
        name: 'B',
        match: childOf('CHILD-B'),
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'config.ts' } }),
          // Late: by now A has edited the file B read.
          reply.toolUse({ name: 'edit_file', input: { path: 'config.ts', old_text: 'delay = 10', new_text: 'delay = 20' } }, { delayMs: 800 }),
          reply.text('My edit was refused.'),
        ],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: raise retries to 5 in config.ts', description: 'raise retries' } },
            { name: 'task', input: { prompt: 'CHILD-B: raise the delay to 20 in config.ts', description: 'raise delay' } },
          ]),
          reply.text('Done.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'tune config.ts', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(readFileSync(join(cli.dirs.workdir, 'config.ts'), 'utf8'), 'export const retries = 5;\nexport const delay = 10;\n', 'exactly one change: A\'s');

    const result = lastJsonLine(run.stdout);
    const subagents = result.subagents as { id: string; description: string; changes?: unknown }[];
    const a = subagents.find((s) => s.description === 'raise retries');
    const b = subagents.find((s) => s.description === 'raise delay');
    assert.ok(a && b);
    const refusal = cli.api.messageRequests().filter(childOf('CHILD-B')).map((r) => String(lastToolResults(r)[0]?.content ?? '')).find((c) => c.startsWith('Refused'));
    assert.equal(
      refusal,
      `Refused: config.ts changed since you last read it: the subagent "raise retries" (${a.id}) changed it. Read it again with read_file, then redo your edit on the current content.`,
    );
    // The file the command created is listed too, by that command (the look changed nothing and is not scanned).
    assert.deepEqual(a.changes, {
      files: [
        { path: 'config.ts', action: 'modified', added: 1, removed: 1 },
        { path: 'checked.flag', action: 'created', added: 0, removed: 0, by: [{ tool: 'bash', command: 'test -f config.ts && touch checked.flag', agent_id: a.id }] },
      ],
      commands: [{ command: 'test -f config.ts && touch checked.flag', exit_code: 0 }],
    });
    assert.deepEqual(b.changes, { files: [], commands: [] });

    // The parent reads the harness's footer after each child's own words.
    const footers = lastToolResults(cli.api.messageRequests().filter((r) => !isChild(r)).at(-1) as RecordedRequest).map((r) => String(r.content));
    assert.deepEqual(footers, [
      `Retries raised to 5.\n\n[changes] modified config.ts (+1 -1); created checked.flag (+0) by \`test -f config.ts && touch checked.flag\`; ran \`test -f config.ts && touch checked.flag\` (exit 0)\n[subagent ${a.id}: send_message and read_subagent reach it]`,
      `My edit was refused.\n\n[changes] none\n[subagent ${b.id}: send_message and read_subagent reach it]`,
    ]);
    // The journal: a file_changed event for A's edit, a manifest per child, in the transcripts.
    const transcript = String(result.transcript);
    const childEvents = readJsonl(join(transcript.replace(/\.jsonl$/, ''), 'subagents', `agent-${a.id}.jsonl`));
    const changed = childEvents.find((e) => e.type === 'file_changed');
    assert.equal(changed?.path, 'config.ts');
    // With its hunks, for the panel's inline diff.
    assert.equal(changed?.diff, '@@ -1,2 +1,2 @@\n-export const retries = 3;\n+export const retries = 5;\n export const delay = 10;');
    assert.ok(existsSync(join(transcript.replace(/\.jsonl$/, ''), 'changes', String(changed?.before))), 'the old content is kept in the session folder');
    assert.ok(childEvents.some((e) => e.type === 'change_manifest'));
  });

  it('delegate revert restores what a subagent did, from another folder; a file changed afterwards is refused with its diff', async () => {
    writeFileSync(join(cli.dirs.workdir, 'README.md'), '# Demo\n');
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [
          reply.toolUse([
            { name: 'read_file', input: { path: 'config.ts' } },
            { name: 'read_file', input: { path: 'README.md' } },
          ]),
          reply.toolUse([
            { name: 'edit_file', input: { path: 'config.ts', old_text: 'retries = 3', new_text: 'retries = 7' } },
            { name: 'write_file', input: { path: 'README.md', content: '# Demo\n\nNow with docs.\n' } },
            { name: 'write_file', input: { path: 'notes/todo.md', content: '- ship it\n' } },
          ]),
          reply.text('Three files changed.'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Change some files.', description: 'change files' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'acceptEdits'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const result = lastJsonLine(run.stdout);
    const sessionId = String(result.session_id);
    const agentId = String((result.subagents as { id: string }[])[0]?.id);
    // The user edits the README after the subagent did.
    writeFileSync(join(cli.dirs.workdir, 'README.md'), '# Demo\n\nNow with docs.\nAnd my own line.\n');

    // Run from the test's own folder, not the workspace: the session knows its workspace.
    const revert = await runDelegate(['revert', '--session', sessionId, '--agent', agentId], { env: cli.env() });
    assert.equal(revert.code, 1, `a refused file makes the exit non-zero\n${revert.stderr}`);
    assert.deepEqual(revert.stdout.trim().split('\n').sort(), [
      'deleted   notes/todo.md',
      'refused   README.md  (it was changed since by someone else)',
      'restored  config.ts',
    ]);
    assert.match(revert.stderr, /README\.md was not reverted; what changed since the subagent's last change:\n--- a\/README\.md\n\+\+\+ b\/README\.md\n@@ -1,3 \+1,4 @@\n # Demo\n \n Now with docs\.\n\+And my own line\./);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'config.ts'), 'utf8'), CONFIG);
    assert.equal(existsSync(join(cli.dirs.workdir, 'notes', 'todo.md')), false);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'README.md'), 'utf8'), '# Demo\n\nNow with docs.\nAnd my own line.\n', 'the user\'s change is left alone');

    // The revert is in the transcript; a second one reverts nothing twice.
    const recorded = readJsonl(String(result.transcript)).find((e) => e.type === 'changes_reverted');
    assert.equal(recorded?.target, agentId);
    assert.deepEqual((recorded?.files as { path: string; outcome: string }[]).map((f) => `${f.outcome} ${f.path}`).sort(), ['deleted notes/todo.md', 'refused README.md', 'restored config.ts']);
    // The user takes their line back: the README can now be reverted too.
    writeFileSync(join(cli.dirs.workdir, 'README.md'), '# Demo\n\nNow with docs.\n');
    const again = await runDelegate(['revert', '--session', sessionId, '--agent', agentId, '--output-format', 'json'], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    const report = JSON.parse(again.stdout) as { files: { path: string; outcome: string }[]; already_reverted: string[] };
    assert.deepEqual(report.files.map((f) => `${f.outcome} ${f.path}`), ['restored README.md']);
    assert.deepEqual(report.already_reverted.sort(), ['config.ts', 'notes/todo.md']);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'README.md'), 'utf8'), '# Demo\n');

    const bad = await runDelegate(['revert', '--session', sessionId, '--agent', 'main'], { env: cli.env() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /only a subagent's changes can be reverted/);
    const usage = await runDelegate(['revert', '--agent', agentId], { env: cli.env() });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /revert needs --session ID/);
  });
});
