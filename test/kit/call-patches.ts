/**
 * A tool call's events as the loop emits them (core/events.ts ToolCallPatch), for tests that script a session by
 * hand: `callOpened` = the record's pending patch (what the call is, in its tool's words) then running, `callEnded`
 * = its end. The words are what the core's tools say (their describe()) for the inputs tests use; pass `said` for
 * anything else.
 */
import type { EventBody, ToolCallDescription } from '../../src/core/events';

type Said = Partial<Omit<ToolCallDescription, 'input'>>;

const str = (input: unknown, key: string): string => {
  const v = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

/** What the core's tools say of these inputs (tools/*.ts describe), so scripted rows read as live ones. */
function toolWords(name: string, input: unknown): Said {
  switch (name) {
    case 'bash':
      return { kind: 'exec', summary: str(input, 'command'), paths: [] };
    case 'read_file':
      return { kind: 'read', summary: str(input, 'path'), paths: [str(input, 'path')] };
    case 'write_file':
    case 'edit_file':
      return { kind: 'write', summary: str(input, 'path'), paths: [str(input, 'path')] };
    case 'grep': {
      const path = str(input, 'path');
      return { kind: 'read', summary: `${str(input, 'pattern')}${path ? ` in ${path}` : ''}`, paths: path ? [path] : [] };
    }
    case 'glob':
      return { kind: 'read', summary: str(input, 'pattern'), paths: [] };
    case 'task':
      return { kind: 'delegate', summary: str(input, 'description') || str(input, 'prompt').split('\n')[0] || '', paths: [] };
    default:
      return { summary: '', paths: [] };
  }
}

/** The pending patch alone: the call read from the reply, not running yet. */
export function callPending(id: string, name: string, input: unknown, said: Said = {}): EventBody {
  const words = { ...toolWords(name, input), ...said };
  return { type: 'tool_call', id, name, state: 'pending', ...(words.kind ? { kind: words.kind } : {}), summary: words.summary ?? '', paths: words.paths ?? [], input };
}

/** The call's pending and running patches. */
export function callOpened(id: string, name: string, input: unknown, said: Said = {}): EventBody[] {
  return [callPending(id, name, input, said), { type: 'tool_call', id, name, state: 'running' }];
}

/** The call's end patch. */
export function callEnded(id: string, name: string, output: string, isError = false, durationMs = 120, fullOutputPath?: string): EventBody {
  return { type: 'tool_call', id, name, state: isError ? 'error' : 'completed', output, durationMs, ...(fullOutputPath ? { fullOutputPath } : {}) };
}
