/**
 * Waiting in the end-to-end tests on what was seen, not on how long things take: the machines are
 * noisy (2 cores shared with the editor, Chromium and the servers), so a reply held for "3 s" to keep a
 * subagent running flaked. Hold it on a gate the test opens once it has seen what it came for.
 *
 *   const seen = gate();   reply.text('late', { until: seen.opened })   …   seen.open()
 */
import { waitUntil as kitWaitUntil } from '../kit/wait';
import { STEP_TIMEOUT } from './panel';

export interface Gate {
  /** Settles (never rejects) once `open()` is called. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The kit's poll with the end-to-end suite's step timeout, every 100 ms (a check often asks the browser). */
export function waitUntil(test: () => boolean | Promise<boolean>, what: string, timeoutMs = STEP_TIMEOUT): Promise<void> {
  return kitWaitUntil(test, what, timeoutMs, 100);
}

/** A gate that opens by itself once `test` holds (or after `timeoutMs`, so a failing test still ends). */
export function gateWhen(test: () => boolean, timeoutMs = STEP_TIMEOUT): Promise<void> {
  return waitUntil(test, 'a gate condition', timeoutMs).catch(() => undefined);
}
