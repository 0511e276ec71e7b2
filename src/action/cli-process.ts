/**
 * Runs the built CLI (`bin/delegate.js` beside the action) headless: the prompt on stdin, `--output-format json`,
 * its stderr (progress with --verbose, notices, the one-line reason of a failure) straight into the step's log.
 * The result is the JSON object the CLI prints last; there is none when it stopped before running (no key, a
 * bad flag). The runner's SIGINT/SIGTERM (a cancelled job) is passed on, so the CLI cancels its agents and
 * records the interruption.
 */
import { spawn } from 'node:child_process';
import type { ResultObject } from '../cli/output';

export interface CliRequest {
  /** The CLI's entry (bin/delegate.js). */
  bin: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Written to its stdin. */
  prompt: string;
  /** Each chunk of its stderr, as it comes. */
  onStderr(text: string): void;
}

export interface CliOutcome {
  /** Its exit code (null when a signal ended it). */
  code: number | null;
  /** The result object, when it printed one. */
  result?: ResultObject;
  /** The reason of a failure: its last `delegate: …` line on stderr (a usage error's is followed by the usage and "Try 'delegate --help'"), else its last line. */
  reason: string;
}

export function runCli(request: CliRequest): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [request.bin, ...request.args], { cwd: request.cwd, env: request.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderrTail = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      request.onStderr(text);
      stderrTail = (stderrTail + text).slice(-4000);
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt).on('SIGTERM', onTerm);
    child.on('error', (err) => {
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      reject(err);
    });
    child.on('close', (code) => {
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      const result = lastResult(stdout);
      resolve({ code, reason: reasonLine(stderrTail), ...(result ? { result } : {}) });
    });
    // A CLI that exits before reading its stdin (a usage error) closes the pipe: not this step's failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.prompt);
  });
}

/** The CLI says why it stops in a line of its own, `delegate: …`, last of such lines; progress lines (--verbose) have no prefix. */
function reasonLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return [...lines].reverse().find((line) => line.startsWith('delegate: ')) ?? lines.at(-1) ?? '';
}

function lastResult(stdout: string): ResultObject | undefined {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(line) as { type?: unknown };
    return parsed.type === 'result' ? (parsed as ResultObject) : undefined;
  } catch {
    return undefined;
  }
}
