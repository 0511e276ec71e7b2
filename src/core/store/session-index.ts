/**
 * The sessions under a transcript folder, newest first, each summarized from its own transcript's
 * root file: first prompt (title), folder, when, turns, tokens, how it ended. A small cache beside each
 * transcript (`<id>.summary.json`, keyed by the transcript's size) keeps listing fast; the transcript
 * stays the only source of truth.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DelegateEvent } from '../events';
import { sessionName } from './session-admin';
import type { AgentStatus, Usage } from '../vocabulary';
import { isValidSessionId, sessionFileOf } from './transcript-reader';
import type { SessionStatus } from '../vocabulary';


export interface SessionSummary {
  id: string;
  /** The first prompt (one line, cut). */
  title: string;
  cwd?: string;
  startedAt: number;
  updatedAt: number;
  prompts: number;
  turns: number;
  tokens: number;
  /** How the last prompt ended; `interrupted` when its end was never recorded. */
  status: SessionStatus;
  /** The last prompt's subagents that did not complete, by how they ended (absent: none). */
  subagents?: { failed?: number; stopped?: number; limited?: number };
  /** The name the user gave it (History's rename); `title` is then that name. */
  renamed?: boolean;
  transcript: string;
  /** Every subagent that finished in it: what a fan-out's forecast is drawn from (agent-forecast.ts). */
  subagentRuns?: SubagentRun[];
}

/** One finished subagent, as a forecast needs it. */
export interface SubagentRun {
  agentType: string;
  /** Input (cache reads and writes included) and output tokens, its descendants' too. */
  tokens: number;
  costUsd?: number;
  durationMs: number;
  status: AgentStatus;
}

const CACHE_VERSION = 3;

function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** Summarizes one session from its root transcript file (undefined when it has no root prompt). */
async function summarizeSession(root: string, id: string): Promise<SessionSummary | undefined> {
  if (!isValidSessionId(id)) return undefined;
  const file = sessionFileOf(root, id);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const cacheFile = join(root, `${id}.summary.json`);
  try {
    const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as { v: number; size: number; summary: SessionSummary };
    if (cached.v === CACHE_VERSION && cached.size === info.size) return await named(root, cached.summary);
  } catch {
    // No cache yet, or a stale or broken one: read the transcript.
  }
  const summary = await scan(file, id);
  if (summary) await writeCache(cacheFile, info.size, summary);
  return named(root, summary);
}

/** The user's name for it over its first prompt (kept apart: the cache holds what the transcript says). */
async function named(root: string, summary: SessionSummary | undefined): Promise<SessionSummary | undefined> {
  if (!summary) return summary;
  const name = await sessionName(root, summary.id);
  return name ? { ...summary, title: name, renamed: true } : summary;
}

async function writeCache(cacheFile: string, size: number, summary: SessionSummary): Promise<void> {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ v: CACHE_VERSION, size, summary }))
    .then(() => rename(tmp, cacheFile))
    .catch(() => undefined);
}

async function scan(file: string, id: string): Promise<SessionSummary | undefined> {
  let summary: SessionSummary | undefined;
  let open = false;
  // A child's agent type is on its start; its figures on its finish.
  const childTypes = new Map<string, string>();
  const runs: SubagentRun[] = [];
  // Loaded on first use: the start of a run reads no transcript (node:readline ~0.5 ms before the first request).
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    let e: DelegateEvent;
    try {
      e = JSON.parse(line) as DelegateEvent;
    } catch {
      continue;
    }
    // A subagent's end is in the root file too: the last prompt's ones that did not complete are counted.
    if (e.parentId !== null) {
      if (e.type === 'agent_started') childTypes.set(e.agentId, e.agentType ?? 'general-purpose');
      if (e.type === 'agent_finished') {
        if (summary) countSubagent(summary, e.status);
        const type = childTypes.get(e.agentId);
        if (type !== undefined) runs.push({ agentType: type, tokens: tokensOf(e.usage), ...(e.costUsd !== undefined ? { costUsd: e.costUsd } : {}), durationMs: e.durationMs, status: e.status });
      }
      continue;
    }
    if (e.type === 'agent_started') {
      summary ??= { id, title: titleOf(e.prompt), ...(e.cwd ? { cwd: e.cwd } : {}), startedAt: e.time, updatedAt: e.time, prompts: 0, turns: 0, tokens: 0, status: 'completed', transcript: file };
      summary.prompts++;
      delete summary.subagents;
      open = true;
    }
    if (!summary) continue;
    summary.updatedAt = Math.max(summary.updatedAt, e.time);
    if (e.type === 'turn_started') summary.turns = Math.max(summary.turns, e.turn);
    if (e.type === 'agent_finished') {
      summary.tokens += tokensOf(e.usage);
      summary.status = e.status;
      open = false;
    }
  }
  if (summary && open) summary.status = 'interrupted';
  if (summary && runs.length > 0) summary.subagentRuns = runs;
  return summary;
}

const tokensOf = (u: Usage): number => u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;

function countSubagent(summary: SessionSummary, status: AgentStatus): void {
  const key = status === 'error' ? 'failed' : status === 'cancelled' ? 'stopped' : status === 'max_turns' || status === 'budget_exceeded' ? 'limited' : undefined;
  if (!key) return;
  summary.subagents ??= {};
  summary.subagents[key] = (summary.subagents[key] ?? 0) + 1;
}

/** Every session under `root` (only those started in `cwd` when given), newest first. */
export async function listSessions(root: string, opts: { cwd?: string } = {}): Promise<SessionSummary[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const ids = names.filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length));
  const summaries = await Promise.all(ids.map((id) => summarizeSession(root, id)));
  return summaries
    .filter((s): s is SessionSummary => s !== undefined && (opts.cwd === undefined || s.cwd === opts.cwd))
    .sort((a, b) => b.updatedAt - a.updatedAt);
}
