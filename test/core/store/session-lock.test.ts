// One writer per session (src/core/store/session-lock.ts): a live holder is named and refused, a dead or
// unreadable one is taken over, a lock from another host is honoured, release removes only its own.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { acquireSessionLock, lockFileOf, SessionBusyError } from '../../../src/core/store/session-lock';
import { tempDir } from '../../kit/temp-dirs';

const owner = (pid: number, host = hostname()) => JSON.stringify({ pid, host, since: Date.parse('2026-12-01T10:00:00Z') });

describe('store/session-lock', () => {
  const root = (): string => tempDir('delegate-lock-');

  it('is refused while a live process holds it, naming that process; taken over once the process is gone', async () => {
    const dir = root();
    const holder = spawn('sleep', ['30']);
    const pid = holder.pid;
    assert.ok(pid);
    writeFileSync(lockFileOf(dir, 's1'), owner(pid));
    assert.throws(
      () => acquireSessionLock(dir, 's1'),
      (err: unknown) => err instanceof SessionBusyError && err.message === `session s1 is in use by another Delegate (pid ${pid}, since 2026-12-01T10:00:00.000Z): wait for it to end, or start a new session`,
    );
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const lock = acquireSessionLock(dir, 's1');
    assert.equal(JSON.parse(readFileSync(lockFileOf(dir, 's1'), 'utf8')).pid, process.pid);
    lock.release();
    assert.equal(existsSync(lockFileOf(dir, 's1')), false);
  });

  it('takes over an unreadable lock; honours one from another host; is shared within this process', () => {
    const dir = root();
    writeFileSync(lockFileOf(dir, 'garbled'), '{"pid":');
    acquireSessionLock(dir, 'garbled').release();

    const dead = spawnSync('true').pid;
    writeFileSync(lockFileOf(dir, 'remote'), owner(dead ?? 1, 'another-host'));
    assert.throws(() => acquireSessionLock(dir, 'remote'), /in use by another Delegate \(pid \d+ on another-host, since/);

    const first = acquireSessionLock(dir, 'mine');
    const again = acquireSessionLock(dir, 'mine');
    again.release();
    assert.ok(existsSync(lockFileOf(dir, 'mine')), 'the second holder in this process does not remove the first one’s lock');
    first.release();
    assert.equal(existsSync(lockFileOf(dir, 'mine')), false);
  });

  it('release leaves alone a lock another process took over meanwhile', () => {
    const dir = root();
    const lock = acquireSessionLock(dir, 's2');
    writeFileSync(lockFileOf(dir, 's2'), owner(1));
    lock.release();
    assert.ok(existsSync(lockFileOf(dir, 's2')));
  });
});
