/**
 * Processes seen from /proc, for tests that check nothing is left running: live pids by a marker in their command
 * line (a unique `sleep 300.<n>` argument), and whether one pid lives. Wait for them with waitUntil (wait.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Whether `pid` is a live process (a zombie is not: it has ended, only its parent has not reaped it). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Host pids of live (not zombie) processes, this one excepted, whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (isAlive(Number(entry)) && readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/**
 * Each pid as "pid (command line) ppid P pgrp G sid S": what a test names when something was left running, so a
 * failure on a loaded CI machine says which process escaped and from which group.
 */
export function describePids(pids: readonly number[]): string {
  return pids
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [, ppid, pgrp, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 120);
        return `${pid} (${cmd}) ppid ${ppid} pgrp ${pgrp} sid ${sid}`;
      } catch {
        return `${pid} (gone)`;
      }
    })
    .join('; ');
}
