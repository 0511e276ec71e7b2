/**
 * `delegate` — the headless host. Parses flags at once (cheap), then loads the run module lazily,
 * so `--help` and usage errors never pay for the SDK. Every exit path (signals, crashes, a closed
 * stdout) is handled in exit-guard.ts: Ctrl-C cancels the run and exits 130, a second one forces it.
 */
import { readFileSync } from 'node:fs';
import { ACP_USAGE, parseAcpArgs, parseCliArgs, USAGE } from './args';
import { ExitGuard } from './exit-guard';
import { probeBubblewrap } from '../core/session/sandbox-probe';
import { sealProcessEnvironment } from '../core/session/process-environment';

// V8's flags (no WebAssembly tier-up) are set in start.ts, which loads this module, on the first fetch().

declare const DELEGATE_VERSION: string;

/** The credentials the CLI reads itself: after the start they live only in its own copy (`env` below). */
const CREDENTIALS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

async function main(): Promise<void> {
  // First of all: no credential stays in this process's environment block, which /proc/<pid>/environ shows to every
  // process of the user (an unsandboxed command among them). Measured at ~0.1 ms (docs/benchmarks.md, section 2).
  const sealed = sealProcessEnvironment(CREDENTIALS);
  if (sealed.note && process.env.DELEGATE_DEBUG) process.stderr.write(`delegate: debug: ${sealed.note}\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...sealed.taken };
  if (process.argv[2] === 'revert') {
    // A subcommand of its own: no model, no run; it only reads the transcript and restores files.
    const { revertMain } = await import('./revert-command');
    process.exitCode = await revertMain(process.argv.slice(3), env, {
      stdout: (text) => new Promise<void>((resolve) => void process.stdout.write(text, () => resolve())),
      stderr: (text) => void process.stderr.write(text),
    });
    return;
  }
  if (process.argv[2] === 'land') {
    // Isolated subagents' kept changes into the session's folder: no model, no run.
    const { landMain } = await import('./land-command');
    process.exitCode = await landMain(process.argv.slice(3), env, {
      stdout: (text) => new Promise<void>((resolve) => void process.stdout.write(text, () => resolve())),
      stderr: (text) => void process.stderr.write(text),
    });
    return;
  }
  if (process.argv[2] === 'acp') {
    // The editor's agent (Agent Client Protocol on stdio): its own chunk, so `-p` runs never load the ACP SDK.
    const acp = parseAcpArgs(process.argv.slice(3));
    if (acp.kind === 'help') return void process.stdout.write(`${ACP_USAGE}\n`);
    if (acp.kind === 'error') {
      process.stderr.write(`delegate acp: ${acp.message}\n${ACP_USAGE.split('\n')[0]}\n`);
      process.exitCode = 2;
      return;
    }
    const { acpMain } = await import('../acp/main');
    const overrides = { toolEnv: acp.toolEnv, ...(acp.mode ? { permissionMode: acp.mode } : {}), ...(acp.model ? { model: acp.model } : {}) };
    process.exitCode = await acpMain({ overrides, trustFolder: acp.trustFolder, ...(acp.confirmFanout ? { confirmFanout: acp.confirmFanout } : {}) }, env);
    return;
  }
  const parsed = parseCliArgs(process.argv.slice(2), process.cwd());
  if (parsed.kind === 'help') return void process.stdout.write(`${USAGE}\n`);
  if (parsed.kind === 'version') return void process.stdout.write(`${typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev'}\n`);
  if (parsed.kind === 'error') {
    process.stderr.write(`delegate: ${parsed.message}\n${USAGE.split('\n')[0]}\nTry 'delegate --help'.\n`);
    process.exitCode = 2;
    return;
  }
  const options = parsed.options;
  if (options.prompt === '-') options.prompt = readFileSync(0, 'utf8');

  const controller = new AbortController();
  const guard = new ExitGuard({ controller, stderr: (text) => void process.stderr.write(text) });
  guard.install();

  // Where the sandbox status is needed before the run (sandbox-notice.ts), its probe runs while the SDK loads.
  if (options.sandbox === 'on' || (options.sandbox !== 'off' && options.verbose)) void probeBubblewrap();
  const { runCli } = await import('./run');
  const out = {
    // A reader that went away (`| head -n1`) ends the run quietly: later writes are dropped, not thrown.
    stdout: (text: string) =>
      new Promise<void>((resolve) => {
        if (guard.stdoutClosed) return resolve();
        process.stdout.write(text, () => resolve());
      }),
    stderr: (text: string) => void process.stderr.write(text),
  };
  let code: number;
  try {
    code = await runCli(options, env, out, controller.signal, { onSession: (session) => guard.attach(session) });
  } catch (err) {
    // Anything unexpected still ends with one line, not a stack trace (DELEGATE_DEBUG=1 shows it).
    process.stderr.write(`delegate: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.DELEGATE_DEBUG) console.error(err);
    code = 1;
  }
  // Output is flushed and transcripts awaited by now; kill what commands left behind, don't wait on idle sockets.
  await guard.finish(code);
}

void main();
