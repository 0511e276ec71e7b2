/**
 * What a finished hook command said, by Claude Code's rules:
 *
 *   exit 0   go on; stdout may be JSON ({decision, reason, continue, stopReason, systemMessage, hookSpecificOutput})
 *            or plain text (context for UserPromptSubmit / SessionStart, ignored elsewhere)
 *   exit 2   blocked: stderr is the reason (to the model for a tool call, to the user for a prompt)
 *   other    a non-blocking error: shown to the user, the run goes on as if the hook had not matched
 *   timeout, no shell, killed: the same non-blocking error
 */
import { errorText } from '../errors';
import type { HookProcessResult } from './hook-process';

export interface HookJson {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: 'block' | 'approve';
  reason?: string;
  permissionDecision?: 'allow' | 'deny' | 'ask';
  permissionDecisionReason?: string;
  /** In Claude Code's field names. */
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
}

export type HookReply =
  | { kind: 'ok'; stdout: string; json?: HookJson }
  | { kind: 'block'; reason: string }
  | { kind: 'error'; message: string };

export function readReply(run: HookProcessResult, timeoutMs: number): HookReply {
  if (run.spawnError !== undefined) return { kind: 'error', message: `could not start: ${run.spawnError}` };
  if (run.timedOut) return { kind: 'error', message: `timed out after ${formatSeconds(timeoutMs)}; its process group was killed` };
  if (run.cancelled) return { kind: 'error', message: 'stopped with the agent; its process group was killed' };
  if (run.code === 2) return { kind: 'block', reason: run.stderr.trim() || 'blocked by a hook (exit code 2, no message on stderr)' };
  if (run.code !== 0) {
    const why = run.stderr.trim() || run.stdout.trim();
    return { kind: 'error', message: `${run.code === null ? 'killed by a signal' : `exit code ${run.code}`}${why ? `: ${clip(why, 500)}` : ''}` };
  }
  const stdout = run.stdout.trim();
  if (!stdout.startsWith('{')) return { kind: 'ok', stdout };
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (err) {
    return { kind: 'error', message: `its output looks like JSON but does not parse (${errorText(err)}); ignored` };
  }
  const json = pickJson(raw);
  return typeof json === 'string' ? { kind: 'error', message: `${json}; its output was ignored` } : { kind: 'ok', stdout, json };
}

/** The known fields, type-checked; a wrong type is a reason (string), not a silent default. */
function pickJson(raw: unknown): HookJson | string {
  if (!isRecord(raw)) return 'its JSON output is not an object';
  const out: HookJson = {};
  const str = (value: unknown): string | undefined | false => (value === undefined ? undefined : typeof value === 'string' ? value : false);
  for (const key of ['stopReason', 'systemMessage', 'reason'] as const) {
    const v = str(raw[key]);
    if (v === false) return `"${key}" must be a string`;
    if (v !== undefined) out[key] = v;
  }
  if (raw.continue !== undefined) {
    if (typeof raw.continue !== 'boolean') return '"continue" must be true or false';
    out.continue = raw.continue;
  }
  if (raw.decision !== undefined && raw.decision !== null) {
    if (raw.decision !== 'block' && raw.decision !== 'approve') return '"decision" must be "block" (or "approve")';
    out.decision = raw.decision;
  }
  const specific = raw.hookSpecificOutput;
  if (specific === undefined) return out;
  if (!isRecord(specific)) return '"hookSpecificOutput" must be an object';
  const pd = specific.permissionDecision;
  if (pd !== undefined) {
    if (pd !== 'allow' && pd !== 'deny' && pd !== 'ask') return '"permissionDecision" must be allow, deny or ask';
    out.permissionDecision = pd;
  }
  for (const key of ['permissionDecisionReason', 'additionalContext'] as const) {
    const v = str(specific[key]);
    if (v === false) return `"${key}" must be a string`;
    if (v !== undefined) out[key] = v;
  }
  if (specific.updatedInput !== undefined) {
    if (!isRecord(specific.updatedInput)) return '"updatedInput" must be an object';
    out.updatedInput = specific.updatedInput;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
