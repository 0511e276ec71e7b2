/** Runs the built CLI (bin/delegate.js) as a user would, against a local Messages-API server. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './temp-dirs';

export const REPO = resolve(__dirname, '..', '..');
const BIN = join(REPO, 'bin', 'delegate.js');

export function assertBuilt(): void {
  if (!existsSync(join(REPO, 'dist', 'cli', 'start.cjs'))) throw new Error('dist/cli is missing: run `npm run build` first');
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Called once the process is up (e.g. to send SIGINT later). */
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
  /** Written to its stdin, which is then closed (`-p -` reads the prompt there); /dev/null otherwise. */
  input?: string;
}

let home: string | undefined;
function freshHome(): string {
  home ??= tempDir('delegate-home-', 'run');
  return home;
}

export function runDelegate(args: string[], opts: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    // A fresh HOME unless the test gives one: the developer's own ~/.claude (agents, hooks, CLAUDE.md) must not
    // reach the CLI under test.
    // DELEGATE_CHUNK_LOG: the chunks it loads, for the proof that the tests load them all (chunk-coverage.ts).
    // TMPDIR: the run's own temp dir (root-hooks.ts), where what the CLI leaves (a sandbox's private /tmp) is seen.
    const entries = Object.entries({ PATH: process.env.PATH, HOME: freshHome(), TMPDIR: process.env.TMPDIR, DELEGATE_CHUNK_LOG: process.env.DELEGATE_CHUNK_LOG, ...opts.env });
    const env = Object.fromEntries(entries.filter(([, v]) => v !== undefined));
    // Without input, stdin stays /dev/null: a repository's link to /dev/stdin must meet a device, not a pipe.
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`delegate did not exit in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolvePromise({ code, signal, stdout, stderr }));
    });
    opts.onSpawn?.(child);
  });
}

export function lastJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? 'null') as Record<string, unknown>;
}

/** Every line of a JSONL file, parsed (fails on any invalid line). */
export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function listFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}
