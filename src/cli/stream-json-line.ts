/**
 * One stream-json line per event. A call's record (core/events.ts: `tool_call` patches) keeps the two lines stream-json
 * has always had for a call, with the record's `id` and `state` added, so readers of either shape follow it:
 *
 *   pending            ─▶ tool_started   {toolUseId, name, input, kind?, summary, paths}          what the call is
 *   running            ─▶ tool_call      {id, name, state: 'running'} (+ what runs, after a PreToolUse rewrite)
 *   completed / error  ─▶ tool_finished  {toolUseId, name, isError, output, durationMs, fullOutputPath?}
 *
 * Every other event is written as it is.
 */
import { endsCall, type DelegateEvent } from '../core/events';

export function streamJsonLine(event: DelegateEvent): string {
  return JSON.stringify(lineOf(event)) + '\n';
}

function lineOf(event: DelegateEvent): unknown {
  if (event.type !== 'tool_call') return event;
  if (event.state === 'pending') return { ...event, type: 'tool_started', toolUseId: event.id };
  if (endsCall(event)) return { ...event, type: 'tool_finished', toolUseId: event.id, isError: event.state === 'error' };
  return event;
}
