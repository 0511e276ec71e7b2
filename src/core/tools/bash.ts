/**
 * `bash`: runs one shell command in the workspace in its own process group, so a timeout, a cancel,
 * or the end of the command takes every process it started with it (no orphans left running).
 * A launcher (the session's sandbox) decides what process runs it: plain /bin/bash, or bwrap around it;
 * either way that process leads the group, so the kill paths below are the same.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { OutputCapture } from './output-capture';
import { heldCommand, ProcessGroups } from './process-groups';
import { ToolEnv } from '../secrets/tool-env';
import { asRecord, type ParseResult, type Tool, type ToolContext, type ToolResult } from './types';

export interface BashInput {
  command: string;
  /** Milliseconds. */
  timeout?: number;
}

export interface BashToolOptions {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  /** Characters of combined output kept in memory (head + tail); more is spilled whole to the call's outputPath. */
  maxOutputChars: number;
  /** Between SIGTERM and SIGKILL of the process group. */
  killGraceMs?: number;
  /** The session's list of live process groups (every exit path kills what is in it); a private one when omitted. */
  groups?: ProcessGroups;
  /** Wraps each command (e.g. in a sandbox) or refuses it; plain /bin/bash -c when omitted. */
  launcher?: CommandLauncher;
  /** The commands' environment, credentials withheld (secrets/tool-env.ts); the defaults when omitted. */
  env?: ToolEnv;
}

/** The process that runs a command: its argv and extra environment. */
export interface LaunchPlan {
  file: string;
  args: string[];
  env?: Record<string, string>;
  /** Give the process fd 3, a pipe only we hold the other end of: it reads end-of-file when we die. */
  lifeline?: boolean;
  /** Called once when the command is over, or did not start: undoes what the launcher made for it. */
  release?: () => void;
  /** A line to add after the command's output (why the sandbox refused a write it shows), or undefined. */
  explain?: (output: string) => string | undefined;
}

export interface CommandLauncher {
  /** How to start `command` in `workdir`, or why it must not run at all. */
  prepare(command: string, workdir: string): Promise<LaunchPlan | { refused: string }>;
}

const DEFAULT_KILL_GRACE_MS = 1000;
const DEFAULT_ENV = new ToolEnv();

export function createBashTool(workdir: string, opts: BashToolOptions): Tool<BashInput> {
  const grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const groups = opts.groups ?? new ProcessGroups();
  return {
    name: 'bash',
    description:
      'Run /bin/bash -c in the workspace root; stdin is /dev/null (avoid prompts). Returns stdout and stderr interleaved ' +
      'and the exit code; long output keeps its start and end. Background processes stop when it ends.' +
      (opts.launcher
        ? ' In the sandbox only the workspace and /tmp are writable and the network may be off: ' +
          '"Read-only file system" or a failed connection is the sandbox, not a bug to work around.'
        : ''),
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: { type: 'integer', minimum: 1, description: `Milliseconds (default ${opts.defaultTimeoutMs}, max ${opts.maxTimeoutMs}).` },
      },
      required: ['command'],
    },
    kind: 'exec',

    parse(raw): ParseResult<BashInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'bash input must be an object with a "command" string' };
      if (typeof rec.command !== 'string' || rec.command.trim() === '') return { ok: false, error: 'bash needs "command" (a non-empty string)' };
      const t = rec.timeout;
      if (t !== undefined && t !== null && (typeof t !== 'number' || !Number.isInteger(t) || t < 1)) {
        return { ok: false, error: 'timeout must be a positive integer number of milliseconds' };
      }
      return { ok: true, input: { command: rec.command, timeout: typeof t === 'number' ? t : undefined } };
    },

    describe: (input) => ({ summary: input.command, paths: [] }),

    execute: async (input, ctx) => {
      const cancelled = { content: 'Command cancelled before it started', isError: true };
      if (ctx.signal.aborted) return cancelled;
      const plan = opts.launcher ? await opts.launcher.prepare(input.command, workdir) : { file: '/bin/bash', args: ['-c', input.command] };
      if ('refused' in plan) return { content: plan.refused, isError: true };
      if (ctx.signal.aborted) {
        plan.release?.();
        return cancelled;
      }
      return runCommand(workdir, input, ctx, opts, grace, groups, plan);
    },
  };
}

function runCommand(workdir: string, input: BashInput, ctx: ToolContext, opts: BashToolOptions, grace: number, groups: ProcessGroups, plan: LaunchPlan): Promise<ToolResult> {
  const timeoutMs = Math.min(input.timeout ?? opts.defaultTimeoutMs, opts.maxTimeoutMs);

  return new Promise<ToolResult>((resolve) => {
    // Bounded in memory; a larger output goes whole to ctx.outputPath (the model is told exactly what it sees).
    const out = new OutputCapture(opts.maxOutputChars, ctx.outputPath);
    // Held until the watchdog has its group (process-groups.ts); the sandbox needs no hold: bwrap dies with us.
    const stdio: ('ignore' | 'pipe')[] = plan.lifeline ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'];
    const held = plan.lifeline ? { file: plan.file, args: plan.args, held: false } : heldCommand(plan.file, plan.args, stdio.length);
    const child = groups.spawn(input.command, () =>
      spawn(held.file, held.args, {
        cwd: workdir,
        // Own process group: one kill(-pid) reaches every descendant that did not setsid away.
        detached: true,
        stdio: held.held ? [...stdio, 'pipe'] : stdio,
        // Pagers and credential prompts would wait forever on a closed stdin. bwrap hands this same environment on.
        env: (opts.env ?? DEFAULT_ENV).build({ PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', ...plan.env }),
      }),
      held.held ? stdio.length : undefined,
    );

    let timedOut = false;
    let aborted = false;
    let terminating = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];

    const terminate = (): void => {
      if (terminating || child.pid === undefined) return;
      terminating = true;
      const pid = child.pid;
      // Nobody left in the group (the usual end of a command): it is forgotten, nothing more to kill.
      if (groups.signal(pid, 'SIGTERM')) {
        // Not cleared on close: a process that ignores SIGTERM but let go of our pipes still dies. Unref'd: an
        // exit before it fires is covered by the session's exit paths, which kill every group still listed.
        const kill = setTimeout(() => {
          groups.signal(pid, 'SIGKILL');
          groups.remove(pid);
        }, grace);
        kill.unref();
      }
      // If something escaped the group (setsid) and still holds our pipes, stop waiting for them.
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, grace + 1000),
      );
    };

    // After the command exited, a late timeout or cancel only cleans up; it does not relabel the result.
    const onAbort = (): void => {
      if (exit) return;
      aborted = true;
      terminate();
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        if (exit) return;
        timedOut = true;
        terminate();
      }, timeoutMs),
    );

    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    // The output as it comes goes to the host too (a live card), besides the capture the model gets at the end.
    const take = (text: string): void => {
      out.push(text);
      if (text) ctx.onOutput?.(text);
    };
    child.stdout?.on('data', (b: Buffer) => take(decoders.stdout.write(b)));
    child.stderr?.on('data', (b: Buffer) => take(decoders.stderr.write(b)));

    function finish(spawnError?: Error): void {
      if (settled) return;
      settled = true;
      plan.release?.();
      for (const t of timers) clearTimeout(t);
      // A group that is already empty is forgotten now, not when its KILL timer fires.
      if (child.pid !== undefined) groups.signal(child.pid, 0);
      ctx.signal.removeEventListener('abort', onAbort);
      child.stdio[3]?.destroy(); // the lifeline: nothing is left to watch over
      take(decoders.stdout.end() + decoders.stderr.end());
      if (spawnError) {
        // spawn blames the program (ENOENT) when it is really the cwd that is missing.
        const why = existsSync(workdir) ? spawnError.message : `workspace folder does not exist: ${workdir}`;
        resolve({ content: `could not run bash: ${why}`, isError: true });
        return;
      }
      const captured = out.finish();
      const text = captured.text;
      const note = plan.explain?.(text);
      const body = (text === '' ? '(no output)' : text.replace(/\n$/, '')) + (note ? `\n${note}` : '');
      const spill = captured.spill;
      // Where the head and tail meet in `body`: the part of the output between them is only in the file.
      const fullOutput = spill
        ? { path: spill.path, totalChars: captured.totalChars, savedChars: spill.savedChars, gapAt: spill.gapAt, gapChars: captured.totalChars - text.length }
        : undefined;
      const done = (content: string, isError: boolean, exitCode: number | null): void => resolve({ content, isError, exitCode, ...(fullOutput ? { fullOutput } : {}) });
      if (timedOut) done(`${body}\nCommand timed out after ${timeoutMs} ms (process group killed)`, true, null);
      else if (aborted) done(`${body}\nCommand cancelled (process group killed)`, true, null);
      else if (exit?.signal) done(`${body}\n[killed by signal ${exit.signal}]`, true, null);
      else {
        const code = exit?.code ?? -1;
        done(`${body}\n[exit code ${code}]`, code !== 0, code);
      }
    }

    child.on('error', (err) => finish(err));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The command is over: stop whatever it left in the background so nothing outlives the call.
      terminate();
    });
    child.on('close', () => finish());
  });
}
