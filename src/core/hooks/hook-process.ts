/**
 * Runs one hook command the way Claude Code does — through the shell, in the project folder, the event's JSON
 * on stdin, `CLAUDE_PROJECT_DIR` set — and makes sure nothing it started outlives it:
 *
 *   spawn bash -c COMMAND (own process group, listed in the session's ProcessGroups)
 *     ├─ exits        ─▶ TERM the group (whatever it left in the background), collect stdout/stderr/code
 *     ├─ timeout      ─▶ TERM the group ─grace─▶ KILL
 *     ├─ agent stops  ─▶ the same
 *     └─ session ends ─▶ ProcessGroups.terminateAll / killAllNow (every exit path of both hosts)
 *
 * Hook commands are the user's own configuration, not model output: they run unsandboxed, like Claude Code's.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { heldCommand, type ProcessGroups } from '../tools/process-groups';
import { ToolEnv } from '../secrets/tool-env';

export interface HookProcessOptions {
  cwd: string;
  /** Added to the environment commands get (this process's, credentials withheld: `toolEnv`). */
  env: Record<string, string>;
  /** The session's command environment; the defaults (every credential withheld, nothing named) when omitted. */
  toolEnv?: ToolEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  groups: ProcessGroups;
  /** Between TERM and KILL. Default 1000. */
  killGraceMs?: number;
}

export interface HookProcessResult {
  /** null when killed by a signal or never started. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** The shell could not be started at all. */
  spawnError?: string;
  durationMs: number;
}

/** Per stream: a hook that floods its output must not fill the memory (what it says is meant to be short). */
const OUTPUT_LIMIT = 1_000_000;

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
const DEFAULT_ENV = new ToolEnv();

export function runHookProcess(command: string, stdin: string, opts: HookProcessOptions): Promise<HookProcessResult> {
  const started = Date.now();
  const grace = opts.killGraceMs ?? 1000;
  return new Promise((resolve) => {
    if (opts.signal?.aborted) {
      resolve({ code: null, stdout: '', stderr: '', timedOut: false, cancelled: true, durationMs: 0 });
      return;
    }
    // Held until the watchdog has its group (process-groups.ts).
    const held = heldCommand(SHELL, ['-c', command], 3);
    const child = opts.groups.spawn(
      `hook: ${command}`,
      () =>
        spawn(held.file, held.args, {
          cwd: opts.cwd,
          detached: true,
          stdio: held.held ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
          env: (opts.toolEnv ?? DEFAULT_ENV).build(opts.env),
        }),
      held.held ? 3 : undefined,
    );
    const pid = child.pid;
    const out = { stdout: '', stderr: '' };
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (out[stream].length < OUTPUT_LIMIT) out[stream] += decoders[stream].write(chunk).slice(0, OUTPUT_LIMIT - out[stream].length);
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    // A hook that never reads stdin closes it early: EPIPE is its business, not an error of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);

    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let terminating = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const terminate = (): void => {
      if (terminating || pid === undefined) return;
      terminating = true;
      if (opts.groups.signal(pid, 'SIGTERM')) {
        const kill = setTimeout(() => {
          opts.groups.signal(pid, 'SIGKILL');
          opts.groups.remove(pid);
        }, grace);
        kill.unref();
      } else {
        opts.groups.remove(pid);
      }
      // Something that left the group (setsid) and still holds our pipes: stop waiting for it.
      timers.push(setTimeout(() => finish(), grace + 500));
    };
    const onAbort = (): void => {
      cancelled = true;
      terminate();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminate();
      }, opts.timeoutMs),
    );

    function finish(spawnError?: string): void {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener('abort', onAbort);
      // Forgotten at once when the group is already empty (its KILL timer then finds nothing to do).
      if (pid !== undefined && !opts.groups.signal(pid, 0)) opts.groups.remove(pid);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        code: exitCode,
        stdout: out.stdout + decoders.stdout.end(),
        stderr: out.stderr + decoders.stderr.end(),
        timedOut,
        cancelled,
        ...(spawnError !== undefined ? { spawnError } : {}),
        durationMs: Date.now() - started,
      });
    }

    child.on('error', (err) => finish(existsSync(opts.cwd) ? err.message : `the project folder does not exist: ${opts.cwd}`));
    child.on('exit', (code) => {
      exitCode = code;
      // The hook is done: what it left running in its group goes too.
      terminate();
    });
    child.on('close', () => finish());
  });
}
