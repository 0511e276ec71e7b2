/**
 * What `delegate revert` and `delegate land` do alike before their work: print the usage for --help, one line and
 * the usage's first line for a bad argument (exit 2), and refuse a session id that is not one (exit 2).
 */
import type { Writers } from './output';
import { isSessionId } from '../core/session/history';

export type SubcommandArgs<T> = T | { kind: 'help' } | { kind: 'error'; message: string };

/** The parsed arguments when the command should go on; else the exit code, having said why. */
export async function subcommandArgs<T extends { kind: string; session: string }>(parsed: SubcommandArgs<T>, usage: string, out: Writers): Promise<T | number> {
  if (parsed.kind === 'help') {
    await out.stdout(`${usage}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    out.stderr(`delegate: ${(parsed as { message: string }).message}\n${usage.split('\n')[0]}\n`);
    return 2;
  }
  const args = parsed as T;
  if (!isSessionId(args.session)) {
    out.stderr(`delegate: not a session id: "${args.session}"\n`);
    return 2;
  }
  return args;
}
