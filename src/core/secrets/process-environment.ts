/**
 * A host's first step (CLI, editor, Action): every variable its commands would not get (tool-env.ts) leaves this
 * process's initial environment block, so `/proc/<pid>/environ` of Delegate shows none of them to a command run
 * without the sandbox (a reported Claude Code exposure):
 *
 *   credentials the host reads itself (`take`) ──▶ cleared, removed from process.env, handed back to the caller
 *   every other withheld variable              ──▶ cleared, set again in process.env (on the heap): the process and
 *                                                 other extensions in it read it as before; commands still lose it
 *
 * Called again when the host learns a credential later (the editor's key from its secret storage): a variable
 * holding a copy of it is withheld by value (`secretValues`).
 */
import { clearFromEnvironBlock } from './environ-block';
import { withholding } from './tool-env';

export interface SealedEnvironment {
  /** The `take` variables that were set, now only here. */
  taken: Record<string, string>;
  /** Why the block could not be cleared (not Linux, /proc/self/mem refused): for a debug line, never an error. */
  note?: string;
}

export function sealProcessEnvironment(take: readonly string[] = [], secretValues: readonly string[] = []): SealedEnvironment {
  const env = process.env;
  const credentials = [...take.map((name) => env[name]), ...secretValues].filter((v): v is string => v !== undefined && v !== '');
  const held: [string, string][] = Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined && (take.includes(kv[0]) || withholding(kv[0], kv[1], credentials) !== undefined));
  const result = clearFromEnvironBlock(held.map(([name]) => name));
  const taken: Record<string, string> = {};
  for (const [name, value] of held) {
    if (take.includes(name)) {
      taken[name] = value;
      Reflect.deleteProperty(env, name); // unsetenv: gone from process.env as well
    } else {
      // Cleared from the block, getenv() no longer finds it: set it again, now on the heap.
      env[name] = value;
    }
  }
  return { taken, ...(result.ok ? {} : { note: result.why }) };
}
