/**
 * The one place that turns a transcript back into events; resume and the history view both read it.
 *
 *   <root>/<session>.jsonl ─┐                        ┌─▶ view reducer (the editor's tree, as it was)
 *   <root>/<session>/subagents/agent-*.jsonl ─┼─ merge by seq ─▶ events ─┼─▶ replayConversation (the root's messages)
 *                                           └─ dedupe (child starts/ends are in both)   └─▶ resume state (next seq, ids, turns)
 *
 * A line cut by a crash (only ever the last of a file) is skipped, not fatal. A call's events of a transcript written
 * before call records are read as its record's patches (legacy-events.ts).
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DelegateEvent } from '../events';
import { upgradeEvent } from './legacy-events';

export function sessionFileOf(root: string, sessionId: string): string {
  return join(root, `${sessionId}.jsonl`);
}

/** Session ids are file names: anything else would let `--resume ../x` read elsewhere. */
export function isValidSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes('..');
}

async function readLines(file: string, onEvent: (event: DelegateEvent) => void): Promise<void> {
  // Loaded on first use: the start of a run reads no transcript (node:readline ~0.5 ms before the first request).
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.length === 0) continue;
    try {
      onEvent(upgradeEvent(JSON.parse(line) as DelegateEvent));
    } catch {
      // A half-written last line of a killed process.
    }
  }
}

/** Every event of a session in sequence order, or undefined when no such transcript exists. */
export async function readTranscript(root: string, sessionId: string): Promise<DelegateEvent[] | undefined> {
  if (!isValidSessionId(sessionId)) return undefined;
  const sessionFile = sessionFileOf(root, sessionId);
  const exists = await stat(sessionFile).then((s) => s.isFile(), () => false);
  if (!exists) return undefined;
  const bySeq = new Map<number, DelegateEvent>();
  const keep = (event: DelegateEvent): void => {
    if (typeof event.seq === 'number') bySeq.set(event.seq, event);
  };
  await readLines(sessionFile, keep);
  const subagentDir = join(root, sessionId, 'subagents');
  const files = await readdir(subagentDir).catch(() => [] as string[]);
  await Promise.all(files.filter((f) => f.endsWith('.jsonl')).map((f) => readLines(join(subagentDir, f), keep)));
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** One subagent's own events (its file beside the session's), in order; empty when it has none yet. */
export async function readAgentEvents(file: string): Promise<DelegateEvent[]> {
  const events: DelegateEvent[] = [];
  const exists = await stat(file).then((s) => s.isFile(), () => false);
  if (exists) await readLines(file, (e) => events.push(e));
  return events.sort((a, b) => a.seq - b.seq);
}
