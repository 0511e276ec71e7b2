/**
 * One tool call's record, made of the patches its `tool_call` events carry (events.ts): its states and what each
 * patch says. Apart from events.ts for its length; the same layer (the foundation).
 */
import type { ToolKind } from './tools/types';

/**
 * One tool call end to end, as OpenCode's ToolPart: its record is made of the patches its `tool_call` events carry, in
 * this order —
 *
 *   pending    the loop read it from the model's reply: what it is (name, kind, summary, paths, input), said once
 *   running    it passed the hooks and the permission check and runs (a PreToolUse hook's rewrite says what runs)
 *   completed  it ran: its output (as the model got it), how long it took
 *   error      it failed, or never ran (refused, unknown, invalid input, cancelled): the words the model got
 *
 * The tool said the summary and the paths (tools/types.ts describe); nothing downstream guesses them from the input.
 * A server-side call (web_search) goes from pending to completed. Transcripts written before records have
 * `tool_started` / `tool_finished` instead: store/legacy-events.ts reads them as a running patch that says what the
 * call is and an end patch.
 */
export type ToolCallState = 'pending' | 'running' | 'completed' | 'error';

/** What a call is, in its tool's words. */
export interface ToolCallDescription {
  /** Unknown tools, and calls from before tools declared one, have none. */
  kind?: ToolKind;
  /** One line: the command, the path, the pattern… (the tool's summary, cut to its first line). */
  summary: string;
  /** Files the call reads or writes, as the model gave them. */
  paths: string[];
  /** The input as the model wrote it (a running patch: as a PreToolUse hook rewrote it). */
  input: unknown;
}

/** How a call ended. */
export interface ToolCallEnd {
  /** What the model received (already cut to the output limit); a tool's output is carried only here (EventBus). */
  output: string;
  durationMs: number;
  /** Set when the output was cut: where the full output was saved. */
  fullOutputPath?: string;
}

export type ToolCallPatch = { id: string; name: string } & (
  | ({ state: 'pending' } & ToolCallDescription)
  | ({ state: 'running'; opens?: true } & Partial<ToolCallDescription>)
  | ({ state: 'completed' | 'error' } & ToolCallEnd)
);

/** One call as its patches so far make it (a host keeps one per call: agentId + id). */
export interface ToolCallRecord extends ToolCallDescription, Partial<ToolCallEnd> {
  id: string;
  agentId: string;
  name: string;
  state: ToolCallState;
}

/** A patch that says what the call is: a record's first (pending), or a running one after a PreToolUse hook's rewrite. */
export function describesCall<P extends ToolCallPatch>(patch: P): patch is P & ToolCallDescription {
  return 'summary' in patch && typeof patch.summary === 'string';
}

/**
 * A record's first patch: `pending`, or in a transcript before records (store/legacy-events.ts) a running patch that
 * `opens` it. Any other running patch that says what the call is tells a PreToolUse hook's rewrite of the same call.
 */
export function opensCall<P extends ToolCallPatch>(patch: P): patch is P & ToolCallDescription {
  return describesCall(patch) && (patch.state === 'pending' || ('opens' in patch && patch.opens === true));
}

/** A patch that ends the call (completed or error), with its output. */
export function endsCall<P extends ToolCallPatch>(patch: P): patch is P & { state: 'completed' | 'error' } & ToolCallEnd {
  return patch.state === 'completed' || patch.state === 'error';
}

/** `record` with `patch` applied (a new record when there was none: a patch may come first in a cut transcript). */
export function patchToolCall(record: ToolCallRecord | undefined, agentId: string, patch: ToolCallPatch): ToolCallRecord {
  const base: ToolCallRecord = record ?? { id: patch.id, agentId, name: patch.name, state: patch.state, summary: '', paths: [], input: undefined };
  const next: ToolCallRecord = { ...base, name: patch.name, state: patch.state };
  // Only the record's own fields (an event's envelope, `type` and `opens` stay out of it).
  if (describesCall(patch)) Object.assign(next, { ...(patch.kind !== undefined ? { kind: patch.kind } : {}), summary: patch.summary, paths: patch.paths, input: patch.input });
  if (endsCall(patch)) Object.assign(next, { output: patch.output, durationMs: patch.durationMs, ...(patch.fullOutputPath !== undefined ? { fullOutputPath: patch.fullOutputPath } : {}) });
  return next;
}
