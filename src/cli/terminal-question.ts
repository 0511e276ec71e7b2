/**
 * One question at the terminal: asked on stderr (stdout stays the run's output), answered by one line of stdin.
 * The folder's trust (trust-prompt.ts) and the fan-out card (fanout-prompt.ts) ask through it; both only when stdin
 * and stderr are a terminal.
 */

/** The line typed; undefined when the input ended or the run was interrupted (`signal.aborted` says which). */
export async function askLine(question: string, signal: AbortSignal): Promise<string | undefined> {
  // Loaded when a question is asked: most runs ask none (node:readline ~0.5 ms before the first request).
  const { createInterface } = await import('node:readline');
  process.stderr.write(question);
  const rl = createInterface({ input: process.stdin, terminal: false });
  return new Promise((resolve) => {
    let settled = false;
    const done = (line: string | undefined): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      rl.close();
      process.stdin.pause();
      resolve(line);
    };
    const onAbort = (): void => done(undefined);
    if (signal.aborted) return done(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (line) => done(line));
    rl.once('close', () => done(undefined));
  });
}
