/**
 * ripgrep, the engine under `grep` and `glob`: one fast process per call that already knows .gitignore
 * (nested files too, in a git repo or not), so no call re-reads every ignore file in the tree in JS.
 * The binary is the host's to find (the CLI: @vscode/ripgrep; the editor: the one VS Code ships).
 */
import { spawn } from 'node:child_process';
import { ToolEnv } from '../secrets/tool-env';
import { accessSync, constants } from 'node:fs';

/**
 * The binary of the @vscode/ripgrep dependency (the CLI, tests), else `rg` on PATH. Required at run time,
 * not bundled: its index computes the path from its own folder (both builds keep it external).
 */
export function defaultRipgrepPath(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved at run time from node_modules, never bundled
    const found = (require('@vscode/ripgrep') as { rgPath?: string }).rgPath;
    return found ?? 'rg';
  } catch {
    return 'rg';
  }
}

/** A ripgrep binary, or how to find it on first use (grep and glob take either). */
export type RipgrepPath = string | undefined | (() => string | undefined);

export const ripgrepAt = (path: RipgrepPath): string | undefined => (typeof path === 'function' ? path() : path);

/**
 * defaultRipgrepPath, looked up on the first grep or glob call and then kept. Not at session start: the package's
 * index is an ES module, and requiring it costs ~9 ms (Node's ESM loader comes with it) before the first request.
 */
export function lazyDefaultRipgrepPath(): () => string {
  let found: string | undefined;
  return () => (found ??= defaultRipgrepPath());
}

/** rg searches what the model asks for in the workspace: it gets no credential either. */
const RG_ENV = new ToolEnv();

/** The first candidate that is an executable file (`rg` alone is looked up on PATH by spawn). */
export function findRipgrep(candidates: readonly string[]): string | undefined {
  for (const candidate of candidates) {
    if (!candidate.includes('/') && !candidate.includes('\\')) return candidate;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface RipgrepResult {
  /** 0 matches found, 1 none, 2 an error (rg's own codes). */
  code: number;
  stdout: string;
  stderr: string;
  /** stdout was longer than `maxChars` and was cut there. */
  truncated: boolean;
}

/** Ignored everywhere, whatever .gitignore says: never what the model is looking for. */
export const ALWAYS_EXCLUDED = ['!**/node_modules/**', '!**/.git/**'];

export function runRipgrep(rgPath: string, args: string[], opts: { cwd: string; signal: AbortSignal; maxChars?: number }): Promise<RipgrepResult> {
  const max = opts.maxChars ?? 20_000_000;
  return new Promise((resolve) => {
    if (opts.signal.aborted) return resolve({ code: 2, stdout: '', stderr: 'cancelled', truncated: false });
    // --no-require-git: .gitignore applies in a folder that is not a git repository too.
    const child = spawn(rgPath, ['--no-require-git', '--no-config', ...args], { cwd: opts.cwd, env: RG_ENV.build(), stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal });
    let stdout = '';
    let stderr = '';
    let truncated = false;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (truncated) return;
      stdout += chunk;
      if (stdout.length > max) {
        stdout = stdout.slice(0, max);
        truncated = true;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', (err) => resolve({ code: 2, stdout, stderr: err.message, truncated }));
    child.on('close', (code) => resolve({ code: truncated ? 0 : (code ?? 2), stdout, stderr, truncated }));
  });
}
