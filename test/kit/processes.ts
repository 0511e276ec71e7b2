/**
 * Processes seen from /proc, for tests that check nothing is left running: live pids by a marker in their command
 * line (a unique `sleep 300.<n>` argument), and a poll until a condition holds.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Host pids of live (not zombie) processes, this one excepted, whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Polls `check` every 25 ms; false when `ms` passed first. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}
