/**
 * One writer per session. Two Delegates appending to one transcript (`delegate --continue` in two terminals,
 * a revert while the session runs elsewhere) would write events with the same seq numbers, and the reader
 * keeps one event per seq: the other's would be lost.
 *
 *   acquire ─▶ create <root>/<session>.lock exclusively, holding {pid, host, since}
 *                exists ─▶ its process alive (same host)? ─▶ SessionBusyError, naming it
 *                          gone, or unreadable          ─▶ removed, and created again (once)
 *   release ─▶ removed, if it is still this process's
 *
 * A process that dies without releasing leaves a lock whose pid is gone: the next writer takes it over.
 * A lock from another host (a shared folder) cannot be checked, so it is honoured.
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

interface LockOwner {
  pid: number;
  host: string;
  since: number;
}

export class SessionBusyError extends Error {
  constructor(
    readonly sessionId: string,
    readonly owner: LockOwner,
  ) {
    super(`session ${sessionId} is in use by another Delegate (pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}, since ${new Date(owner.since).toISOString()}): wait for it to end, or start a new session`);
    this.name = 'SessionBusyError';
  }
}

export interface SessionLock {
  release(): void;
}

export const lockFileOf = (root: string, sessionId: string): string => join(root, `${sessionId}.lock`);

/** Takes the session's lock (its transcript folder must exist); throws SessionBusyError when another process holds it. */
export function acquireSessionLock(root: string, sessionId: string): SessionLock {
  const file = lockFileOf(root, sessionId);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const owner = readOwner(file);
      // This process already holds it (a session reopened here): the lock is shared within the process.
      if (owner?.pid === process.pid && owner.host === me.host) return { release: () => undefined };
      if (owner && isAlive(owner)) throw new SessionBusyError(sessionId, owner);
      rmSync(file, { force: true });
    }
  }
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      const owner = readOwner(file);
      if (owner?.pid === me.pid && owner.since === me.since) rmSync(file, { force: true });
    },
  };
}

/** Whether a live process (or one on another host) holds session `sessionId`'s lock. */
export function isSessionHeld(root: string, sessionId: string): boolean {
  const owner = readOwner(lockFileOf(root, sessionId));
  return owner !== undefined && isAlive(owner);
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'number' ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user has that pid; it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
