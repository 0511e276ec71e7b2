/**
 * Transcripts written before call records (events.ts ToolCallPatch) hold two events a call; this reads them as
 * patches, so everything after the transcript reader sees one shape:
 *
 *   tool_started  {toolUseId, name, input, kind?, summary?, paths?} ─▶ tool_call running that `opens` the record
 *   tool_finished {toolUseId, name, isError, output, durationMs}    ─▶ tool_call completed / error
 *
 * A running patch that says what the call is opens the record (such a call was shown running from its start). The
 * words are what the panel showed for those events, so a session reopened builds the tree it always did: the
 * summary's first line; for the oldest transcripts, whose events carry no summary, paths or kind, the guess the
 * panel made from the input (below, kept only for them); a `task` call's description, and its kind.
 */
import type { DelegateEvent, EventEnvelope, ToolCallDescription } from '../events';
import { oneLine } from '../shown-text';

type ToolKind = NonNullable<ToolCallDescription['kind']>;

interface LegacyStarted extends EventEnvelope {
  type: 'tool_started';
  toolUseId: string;
  name: string;
  input: unknown;
  kind?: ToolKind;
  summary?: string;
  paths?: string[];
}

interface LegacyFinished extends EventEnvelope {
  type: 'tool_finished';
  toolUseId: string;
  name: string;
  isError: boolean;
  output: string;
  durationMs: number;
  fullOutputPath?: string;
}

/** An event as read from a transcript line: a call's two events of an older transcript become its patches. */
export function upgradeEvent(event: DelegateEvent | LegacyStarted | LegacyFinished): DelegateEvent {
  if (event.type === 'tool_started') {
    const { type: _type, toolUseId, name, input, kind, summary, paths, ...envelope } = event;
    return { ...envelope, type: 'tool_call', id: toolUseId, name, state: 'running', opens: true, ...describedAsShown(name, input, kind, summary, paths) };
  }
  if (event.type === 'tool_finished') {
    const { type: _type, toolUseId, name, isError, output, durationMs, fullOutputPath, ...envelope } = event;
    return { ...envelope, type: 'tool_call', id: toolUseId, name, state: isError ? 'error' : 'completed', output, durationMs, ...(fullOutputPath !== undefined ? { fullOutputPath } : {}) };
  }
  return event;
}

/** The core's delegation tool: a call of it without a kind (the oldest transcripts) delegates. */
const TASK_TOOL = 'task';

function describedAsShown(name: string, input: unknown, kind: ToolKind | undefined, summary: string | undefined, paths: string[] | undefined): ToolCallDescription {
  const delegates = kind !== undefined ? kind === 'delegate' : name === TASK_TOOL;
  return {
    ...(kind !== undefined ? { kind } : delegates ? { kind: 'delegate' as const } : {}),
    // A task row showed the call's description (else its prompt's first line), whatever the event's summary.
    summary: delegates ? taskDescription(input) : summary !== undefined ? oneLine(summary) : guessedSummary(name, input),
    paths: paths ?? guessedPaths(input),
    input,
  };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function taskDescription(input: unknown): string {
  const record = asRecord(input);
  const prompt = record && typeof record.prompt === 'string' ? record.prompt : '';
  const description = record && typeof record.description === 'string' && record.description.trim() !== '' ? record.description.trim() : '';
  return description || oneLine(prompt, 80) || 'Subtask';
}

/** Input keys that name a file, in the order the panel looked for them. */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'target', 'cwd'];
/** Input keys whose value the panel showed as the summary, in its order. */
const SUMMARY_KEYS = ['command', 'cmd', ...PATH_KEYS, 'pattern', 'query', 'glob', 'url', 'description', 'prompt'];

/** The panel's guess for a call whose event had no summary: the command, else the path, else the first string. */
function guessedSummary(name: string, input: unknown): string {
  const record = asRecord(input);
  if (!record) return typeof input === 'string' ? oneLine(input) : '';
  for (const key of SUMMARY_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') {
      if (key === 'pattern' && typeof record.path === 'string') return oneLine(`${value}  in ${record.path}`);
      return oneLine(value);
    }
  }
  for (const value of Object.values(record)) {
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
  }
  return name === '' ? '' : oneLine(JSON.stringify(record));
}

/** The panel's guess of the files such a call named: `path`, `file_path`, … or a `paths` array. */
function guessedPaths(input: unknown): string[] {
  const record = asRecord(input);
  if (!record) return [];
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    if (key === 'cwd') continue;
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') out.push(value);
  }
  const many = record.paths;
  if (Array.isArray(many)) for (const p of many) if (typeof p === 'string') out.push(p);
  return out;
}
