/**
 * Every way the CLI process can end, and what each one does, so that no exit leaves a `bash` process
 * group running under init or a transcript without its last word:
 *
 *   Ctrl-C, SIGTERM, SIGHUP (1st) ─▶ cancel the run: agents stop, tools are killed, the transcript records
 *                                    `cancelled`, exit 130. A deadline turns a slow cancel into the forced path.
 *   Ctrl-C / any signal (2nd)     ─▶ forced: kill every process group (TERM, ≤ grace, KILL), record the
 *                                    interruption, then die by the signal itself (within ~2 s, whatever a tool
 *                                    is doing: a process killed by a signal does not wait for Node's thread pool)
 *   uncaught error                ─▶ forced, one line on stderr, exit 1
 *   stdout closed (EPIPE)         ─▶ cancel quietly (`… | head -n1`)
 *   process 'exit'                ─▶ KILL whatever group is still listed (synchronous last resort)
 */
import type { Session } from '../core/session';

type ExitSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface ExitGuardOptions {
  /** Aborting it cancels the run gracefully. */
  controller: AbortController;
  stderr(text: string): void;
  /** Between TERM and KILL of the process groups on the forced path. Default 1000. */
  graceMs?: number;
  /** How long a graceful cancel may take before the forced path runs. Default 5000. */
  cancelDeadlineMs?: number;
}

export class ExitGuard {
  private session: Session | undefined;
  private forcing = false;
  private deadline: NodeJS.Timeout | undefined;
  /** Set when stdout was closed by the reader: nothing more is written there. */
  stdoutClosed = false;
  private readonly graceMs: number;
  private readonly cancelDeadlineMs: number;

  constructor(private readonly opts: ExitGuardOptions) {
    this.graceMs = opts.graceMs ?? 1000;
    this.cancelDeadlineMs = opts.cancelDeadlineMs ?? 5000;
  }

  install(): void {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => this.onSignal(signal));
    process.on('uncaughtException', (err) => void this.force(`crashed: ${err.message}`, 1, undefined, err));
    process.on('unhandledRejection', (err) => void this.force(`crashed: ${err instanceof Error ? err.message : String(err)}`, 1, undefined, err));
    whenMade('stdout', (stdout) =>
      stdout.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'EIO') return void this.force(`stdout failed: ${err.message}`, 1);
        this.stdoutClosed = true;
        this.opts.controller.abort();
      }),
    );
    whenMade('stderr', (stderr) => stderr.on('error', () => undefined)); // a closed terminal must not turn into an uncaught error
    process.on('exit', () => this.session?.shutdownNow('the process exited'));
  }

  /** The session whose agents and process groups the exit paths clean up. */
  attach(session: Session): void {
    this.session = session;
  }

  private onSignal(signal: ExitSignal): void {
    if (this.opts.controller.signal.aborted) {
      void this.force(`${signal} received again`, 130, signal);
      return;
    }
    this.opts.controller.abort();
    this.deadline = setTimeout(() => void this.force(`${signal}: the run did not stop within ${this.cancelDeadlineMs} ms`, 130, signal), this.cancelDeadlineMs);
    this.deadline.unref();
  }

  /** The graceful end ran to completion: kill what a finished command left behind, then exit. */
  async finish(code: number): Promise<never> {
    clearTimeout(this.deadline);
    await this.session?.shutdown('the run ended', this.graceMs);
    process.exit(code);
  }

  private async force(reason: string, code: number, signal?: ExitSignal, err?: unknown): Promise<void> {
    if (this.forcing) return;
    this.forcing = true;
    clearTimeout(this.deadline);
    this.opts.stderr(`delegate: ${reason}; stopping every command it started\n`);
    if (err && process.env.DELEGATE_DEBUG) console.error(err);
    try {
      await this.session?.shutdown(reason, this.graceMs);
    } catch {
      this.session?.shutdownNow(reason);
    }
    if (!signal) process.exit(code);
    // Die by the signal itself (the shell reports 128 + n): unlike process.exit, this does not wait for
    // Node's thread pool, where a blocked open() would otherwise keep the process alive.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
}

/**
 * Runs `onMade` on process.stdout or process.stderr the moment it is made, before anyone can write to it. Node makes
 * the stream on the first read of the property (for a pipe a net.Socket: ~1 ms of the start's CPU, though a run
 * writes nothing there before its answer); reading it here would make it at once.
 */
function whenMade(name: 'stdout' | 'stderr', onMade: (stream: NodeJS.WriteStream) => void): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  const make = own?.get;
  if (!make || !own.configurable) return onMade(process[name]);
  let made: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable ?? true,
    get: () => {
      if (!made) {
        made = make.call(process) as NodeJS.WriteStream;
        onMade(made);
      }
      return made;
    },
  });
}
