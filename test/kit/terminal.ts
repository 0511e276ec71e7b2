/**
 * The built CLI in a pseudo-terminal, as a user at a terminal runs it: util-linux `script` gives it a pty for
 * stdin, stdout and stderr (node-pty is not a dependency). The pty merges stdout and stderr and ends lines with
 * \r\n; `output` has them as \n. `answer` is typed once `prompt` shows (the trust question's "[y/N] ").
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './run-cli';

export interface TerminalRun {
  code: number | null;
  output: string;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

export function runInTerminal(args: string[], opts: { env: Record<string, string | undefined>; answer?: string; prompt?: RegExp; timeoutMs?: number }): Promise<TerminalRun> {
  const command = [process.execPath, join(REPO, 'bin', 'delegate.js'), ...args].map(quote).join(' ');
  const env = Object.fromEntries(Object.entries({ PATH: process.env.PATH, DELEGATE_CHUNK_LOG: process.env.DELEGATE_CHUNK_LOG, ...opts.env }).filter(([, v]) => v !== undefined));
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let answered = opts.answer === undefined;
    const onData = (d: Buffer): void => {
      output += d.toString().replace(/\r\n/g, '\n');
      if (!answered && (opts.prompt ?? /\[y\/N\] $/).test(output)) {
        answered = true;
        child.stdin.write(opts.answer ?? '');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the terminal run did not end in time\n${output}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      setImmediate(() => resolve({ code, output }));
    });
  });
}
