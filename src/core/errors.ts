/** Small helpers shared by the core for turning failures into one-line text and waiting abortably. */

/** The message of an error, or its string form: what the model and the user are shown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: callers check the signal). */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
