/**
 * The port a fan-out passes before its children start: the session may put the `task` calls of one reply in front
 * of the user (the editor's card: each child, its forecast, Run / Run with caps / Cancel) and refuse some or all.
 *
 *   runToolCalls ─▶ task calls of this reply, not already blocked ─▶ FanoutGate.review(parent, calls)
 *                   ◀── refusals by tool_use id (a refused call gets its reason as an error result, and never starts)
 *
 * The session decides when to ask (fanout-review.ts); the loop only hands the calls over, all at once.
 */
import type { AgentIdentity } from '../vocabulary';

export interface FanoutCall {
  toolUseId: string;
  /** The call's input as the model wrote it (description, prompt, subagent_type…). */
  input: unknown;
}

export interface FanoutGate {
  /** Why each refused call is not run, by tool_use id; an empty map runs them all. */
  review(parent: AgentIdentity, calls: readonly FanoutCall[], signal: AbortSignal): Promise<ReadonlyMap<string, string>>;
}
