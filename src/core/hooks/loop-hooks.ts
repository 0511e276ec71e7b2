/**
 * The loop's hook point that is not a tool call (the prompt's hook context joins the first user message in
 * loop/conversation.ts, promptMessage):
 *
 *   answer ready ─▶ Stop handlers ─reason─▶ a user note and one more turn, at most MAX_STOP_CONTINUATIONS times a run
 *                                  (a hook that always objects must not keep an agent busy forever)
 */
import type { AgentEmit } from '../events';
import type { HookRegistry } from '../policy/hooks';
import type { AgentIdentity } from '../vocabulary';

const MAX_STOP_CONTINUATIONS = 3;

export interface StopScope {
  hooks: HookRegistry;
  identity: AgentIdentity;
  emit: AgentEmit;
  signal: AbortSignal;
}

/** The note that makes the agent go on, or undefined: it may end with `answer`. */
export async function stopHookNote(scope: StopScope, answer: string, continuations: number): Promise<string | undefined> {
  const out = await scope.hooks.runStop({ agent: scope.identity, result: answer, continuations, signal: scope.signal });
  const event = scope.identity.parentId === null ? 'Stop' : 'SubagentStop';
  for (const failure of out.failures) await scope.emit({ type: 'hook', hookEvent: event, outcome: 'error', message: failure });
  if (out.continueWith === undefined || scope.signal.aborted) return undefined;
  if (continuations >= MAX_STOP_CONTINUATIONS) {
    await scope.emit({
      type: 'hook',
      hookEvent: event,
      outcome: 'error',
      message: `a Stop hook asked this agent to go on a ${MAX_STOP_CONTINUATIONS + 1}th time; ignored, the agent ends (at most ${MAX_STOP_CONTINUATIONS} per prompt)`,
    });
    return undefined;
  }
  await scope.emit({ type: 'hook', hookEvent: event, outcome: 'continued', message: out.continueWith });
  return `A Stop hook did not let you finish yet. Its reason:\n${out.continueWith}\nAddress it, then give your final answer again.`;
}
