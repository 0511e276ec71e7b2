/**
 * What the CLI says about the bash sandbox, and when. The probe behind it spawns bwrap, and a first spawn blocks
 * Node's main thread for ~10 ms (fork + exec): measured as +7 ms of CPU before the first request when it ran at
 * start. So only what needs the answer up front pays for it there:
 *
 *   --sandbox on   before anything is sent (a sandbox that cannot run is exit 2, not a surprise later)
 *   -v             at start, so the line comes first
 *   auto (default) once the model's first reply is streaming (hidden behind the network); a fallback line then
 *   json results   `sandbox` awaits the (by then settled) status at the end
 */
import type { Writers } from './output';
import { type Session, describeSandbox, type SandboxStatus } from '../core/session';

/** The stderr line, if any: always when the sandbox is missing (auto fell back) or required and missing; else only with -v. */
export function sandboxNotice(status: SandboxStatus, verbose: boolean): string | undefined {
  if (status.kind === 'refused') {
    return `delegate: --sandbox on, but ${status.detail}; nothing was run (install bubblewrap, or choose --sandbox auto or off)\n`;
  }
  if (status.kind === 'none' && status.reason === 'unavailable') {
    return `delegate: no sandbox: ${status.detail}, so bash commands run unconfined (the deny list still applies); install bubblewrap, or pass --sandbox off to silence this\n`;
  }
  return verbose ? `delegate: sandbox: ${describeSandbox(status)}\n` : undefined;
}

/**
 * Says which sandbox is in force, once: before the run when it is known or asked for (-v; awaited, so the line
 * comes first), else when the model's first reply arrives. Returns a wait for a line still being worked out,
 * for the end of the run (a short answer can finish before the probe does).
 */
export async function announceSandbox(session: Session, verbose: boolean, out: Writers): Promise<() => Promise<void>> {
  const say = async (): Promise<void> => {
    const line = sandboxNotice((await session.status()).sandbox, verbose);
    if (line) out.stderr(line);
  };
  if (verbose || session.sandbox.settings.mode !== 'auto') {
    await say();
    return () => Promise.resolve();
  }
  let said: Promise<void> | undefined;
  // Not unsubscribed from inside the listener: the bus is iterating its listener list at that moment.
  session.subscribe((event) => {
    if (said === undefined && (event.type === 'text_delta' || event.type === 'usage' || event.type === 'error')) said = say();
  });
  return () => said ?? Promise.resolve();
}
