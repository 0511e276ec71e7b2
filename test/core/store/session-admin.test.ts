// History's sessions (src/core/store/session-index.ts, session-admin.ts): a true final status (the last
// prompt's subagents that did not complete), a name the user gives, and delete (refused while in use).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { deleteSession, renameSession } from '../../../src/core/store/session-admin';
import { listSessions } from '../../../src/core/store/session-index';
import { lockFileOf, SessionBusyError } from '../../../src/core/store/session-lock';
import { finishedSession, ROOT } from '../../webview/fixtures';
import { tempDir } from '../../kit/temp-dirs';

/** The root file as the transcript store writes it: the root's events and every agent's start and finish. */
function writeSession(root: string, id: string, stopAnother: boolean): void {
  const s = finishedSession();
  if (stopAnother) {
    s.rootStart('And profile it.');
    s.taskStart(ROOT, null, 'tu-d', 'agent-d', 'Profile the suite', 1);
    s.childFinish('agent-d', ROOT, 'cancelled', 1, 0, [800, 50], '', 'stopped by the user');
    s.taskStart(ROOT, null, 'tu-e', 'agent-e', 'Time each file', 1);
    s.childFinish('agent-e', ROOT, 'error', 1, 0, [800, 50], '', 'Model request failed: overloaded');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 1, toolCalls: 2, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
  }
  const lines = s.events.filter((e) => e.parentId === null || e.type === 'agent_started' || e.type === 'agent_finished').map((e) => JSON.stringify({ ...e, sessionId: id }));
  writeFileSync(join(root, `${id}.jsonl`), `${lines.join('\n')}\n`);
  mkdirSync(join(root, id, 'subagents'), { recursive: true });
  writeFileSync(join(root, id, 'subagents', 'agent-agent-a.jsonl'), '');
}

describe('store/session-admin: History\'s status, rename and delete', () => {
  const dir = (): string => tempDir('delegate-history-');

  it('a session\'s status counts its last prompt\'s subagents that did not complete', async () => {
    const root = dir();
    writeSession(root, 'one', false);
    writeSession(root, 'two', true);
    const byId = Object.fromEntries((await listSessions(root)).map((s) => [s.id, s]));
    assert.equal(byId.one?.status, 'completed');
    assert.deepEqual(byId.one?.subagents, { limited: 1, failed: 1 });
    // The second prompt's run: one stopped, one failed; the first prompt's are no longer counted.
    assert.deepEqual(byId.two?.subagents, { stopped: 1, failed: 1 });
    // From the cache, the same.
    assert.deepEqual((await listSessions(root)).find((s) => s.id === 'two')?.subagents, { stopped: 1, failed: 1 });
  });

  it('rename: the list shows the name (the transcript is untouched); an empty name goes back to the first prompt', async () => {
    const root = dir();
    writeSession(root, 'one', false);
    await renameSession(root, 'one', '  Flaky tests  \nsecond line');
    const [named] = await listSessions(root);
    assert.equal(named?.title, 'Flaky tests');
    assert.equal(named?.renamed, true);
    await renameSession(root, 'one', '');
    const [back] = await listSessions(root);
    assert.equal(back?.title, 'Find why the integration tests are flaky and fix it.');
    assert.equal(back?.renamed, undefined);
    await assert.rejects(renameSession(root, '../x', 'n'), /not a session id/);
  });

  it('delete removes the transcript, its folder and caches; refused while another Delegate writes it', async () => {
    const root = dir();
    writeSession(root, 'one', false);
    writeSession(root, 'two', false);
    await renameSession(root, 'one', 'named');
    await listSessions(root); // writes the summary caches
    await deleteSession(root, 'one');
    assert.deepEqual((await listSessions(root)).map((s) => s.id), ['two']);
    for (const f of ['one.jsonl', 'one', 'one.summary.json', 'one.meta.json', 'one.lock']) assert.equal(existsSync(join(root, f)), false, f);

    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(lockFileOf(root, 'two'), JSON.stringify({ pid: holder.pid, host: hostname(), since: Date.now() }));
      await assert.rejects(deleteSession(root, 'two'), SessionBusyError);
      assert.ok(existsSync(join(root, 'two.jsonl')), 'kept');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
