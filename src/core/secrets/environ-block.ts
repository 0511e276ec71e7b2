/**
 * Clears variables out of this process's initial environment block: the bytes `/proc/<pid>/environ` shows to any
 * process of the same user, for as long as we live. `delete process.env.X` (unsetenv) does not touch them: the block
 * is the copy execve() put on our stack, and only our own memory can change it.
 *
 *   /proc/self/stat fields 50, 51 ─▶ env_start, env_end ─▶ /proc/self/mem (r+): read the block,
 *   find each `NAME=value\0`, write zeros over it ─▶ getenv() no longer finds NAME (the entry starts with \0)
 *
 * The caller keeps the values it needs in its own copies (setenv() puts a re-set variable on the heap, not back
 * in the block). What stays readable: the heap, through /proc/<pid>/mem, for a same-user process that may ptrace
 * us (docs/sandbox.md, "Credentials").
 *
 * Facts: the write position must be a Number (a BigInt position gave EIO); fields are counted after the last ')'
 * of the stat line, since the command name may hold spaces and parentheses.
 */
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

export type EnvironResult = { ok: true; cleared: number } | { ok: false; why: string };

/** Zeroes every `NAME=…` entry of the initial block for the given names; never throws. */
export function clearFromEnvironBlock(names: readonly string[]): EnvironResult {
  if (names.length === 0) return { ok: true, cleared: 0 };
  if (process.platform !== 'linux') return { ok: false, why: `the initial environment block is left as it is on ${process.platform}` };
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After "pid (comm) ", the first field is the 3rd (state): env_start (50th) and env_end (51st) are the 48th and 49th here.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return { ok: false, why: 'no environment block in /proc/self/stat' };
    fd = openSync('/proc/self/mem', 'r+');
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    const prefixes = names.map((n) => Buffer.from(`${n}=`));
    let cleared = 0;
    for (let at = 0; at < block.length; ) {
      const nul = block.indexOf(0, at);
      const stop = nul < 0 ? block.length : nul;
      if (prefixes.some((p) => stop - at >= p.length && block.compare(p, 0, p.length, at, at + p.length) === 0)) {
        writeSync(fd, Buffer.alloc(stop - at), 0, stop - at, start + at);
        cleared++;
      }
      at = stop + 1;
    }
    return { ok: true, cleared };
  } catch (err) {
    // A kernel that refuses writes to /proc/self/mem (proc_mem.force_override=never), a seccomp profile…
    return { ok: false, why: `the initial environment block could not be cleared: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
