/**
 * A finished subagent's report on its way to the parent (delegation/child-runs.ts calls this once per run):
 *
 *   child.result ─▶ guardReport (defang instruction-shaped text) ─▶ checkReport (claims vs the record)
 *   child.output ─▶ guardReport on each of its strings (a typed return: typed-output.ts); the report's JSON block anew
 *   child.error  ─▶ guardReport (a failed child's line: an API error's message is its endpoint's words)
 *                ─▶ `report_checked` event (the tree marks the node; the summary's `unverified`)
 *   tool_result  ─▶ "[harness] …defanged…" first, the report, `[changes] …`, one `[unverified] …` line per claim
 */
import type { AgentEmit } from '../events';
import type { ToolResult } from '../tools/types';
import { checkReport, withUnverifiedFooter, type WorkRecord, type UnverifiedClaim } from './report-check';
import { guardNotice, guardReport } from './report-guard';
import { guardOutput, joinTypedReport, typedReportProse } from './typed-output';

/** What this reads and defangs of a finished child's result (the loop's AgentResult): report/ needs nothing else of the loop. */
export interface ChildReport {
  result: string;
  error?: string;
  unverified?: UnverifiedClaim[];
  /** A typed return's value: its strings are defanged too, and the report's JSON block is made again from them. */
  output?: unknown;
}

export interface CheckedReport {
  unverified: UnverifiedClaim[];
  /** What instruction-shaped content was defanged (empty: none). */
  defanged: string[];
}

/** Defangs `child.result` in place, checks it against the record, and tells the hosts when anything was found. */
export async function checkChildReport(child: ChildReport, record: WorkRecord, emit: AgentEmit): Promise<CheckedReport> {
  // A failed child's error reaches the parent too ("The subagent failed: …"), and its words may be its endpoint's.
  const error = child.error ? guardReport(child.error) : undefined;
  if (error) child.error = error.text;
  const typed = child.output !== undefined ? guardOutput(child.output) : undefined;
  // A typed report is its prose and its value: the prose guarded as text, the value string by string (still JSON).
  const prose = typed ? typedReportProse(child.result) : child.result;
  const guarded = prose ? guardReport(prose) : undefined;
  if (guarded) child.result = guarded.text;
  if (typed) {
    child.output = typed.value;
    child.result = joinTypedReport(guarded?.text ?? '', typed.value);
  }
  const defanged = [...new Set([...(guarded?.found ?? []), ...(error?.found ?? []), ...(typed?.found ?? [])])];
  const unverified = guarded ? checkReport(guarded.text, record) : [];
  if (unverified.length) child.unverified = unverified;
  if (unverified.length || defanged.length) await emit({ type: 'report_checked', unverified, defanged });
  return { unverified, defanged };
}

/** The parent's tool_result with the harness's notes: the defang line first, the unverified claims last. */
export function withReportNotes(result: ToolResult, checked: CheckedReport): ToolResult {
  const flagged = checked.defanged.length ? { ...result, content: `${guardNotice(checked.defanged)}\n${result.content}` } : result;
  return withUnverifiedFooter(flagged, checked.unverified);
}
