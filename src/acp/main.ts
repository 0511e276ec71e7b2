/**
 * `delegate acp`: Delegate as an Agent Client Protocol agent over stdio (newline-delimited JSON-RPC; the client
 * starts the process and owns stdin/stdout). Loaded lazily by the CLI's main.ts, so `delegate -p` never pays for
 * the ACP SDK. Nothing but protocol goes to stdout; diagnostics go to stderr, which clients keep in their logs.
 *
 *   stdin ─▶ ndJsonStream ─▶ the agent app (agent.ts) ─▶ AcpSession ─▶ the core's session face
 *   stdout ◀───────────────────────────┘
 *   stdin closed, SIGTERM, SIGINT ─▶ every session shut down (agents cancelled, process groups killed), exit 0
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk/unstable';
import type { AcpSettings } from './session-setup';
import { delegateAgent } from './agent';
import { resolveSettingValues } from '../core/session';

export async function acpMain(settings: AcpSettings, env: NodeJS.ProcessEnv): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`delegate acp: ${line}\n`);
  // A variable that cannot be used (DELEGATE_PRICES, DELEGATE_MAX_RETRY_WAIT…) stops the agent at its start, as it stops `delegate -p`.
  const values = resolveSettingValues(env, settings.overrides, 'acp');
  if ('error' in values) {
    log(values.error);
    return 2;
  }
  const { app, closeAll } = delegateAgent(settings, env, log);
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  let ending: Promise<void> | undefined;
  const end = (reason: string): Promise<void> => (ending ??= closeAll(reason));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void end(`stopped by ${signal}`).then(() => connection.close());
    });
  }
  await connection.closed;
  await end('the ACP client closed the connection');
  return 0;
}
