/**
 * A finished subagent's report on its way to the parent (session/child-runs.ts calls this once per child):
 *
 *   child.result ─▶ guardReport (defang instruction-shaped text) ─▶ checkReport (claims vs the record)
 *                ─▶ `report_checked` event (the tree marks the node; the summary's `unverified`)
 *   tool_result  ─▶ "[harness] …defanged…" first, the report, `[changes] …`, one `[unverified] …` line per claim
 */
import type { AgentEmit } from '../events';
import type { ToolResult } from '../tools/types';
import { checkReport, withUnverifiedFooter, type ChildRecord, type UnverifiedClaim } from './report-check';
import { guardNotice, guardReport } from './report-guard';
import type { AgentResult } from './types';

export interface CheckedReport {
  unverified: UnverifiedClaim[];
  /** What instruction-shaped content was defanged (empty: none). */
  defanged: string[];
}

/** Defangs `child.result` in place, checks it against the record, and tells the hosts when anything was found. */
export async function checkChildReport(child: AgentResult, record: ChildRecord, emit: AgentEmit): Promise<CheckedReport> {
  if (!child.result) return { unverified: [], defanged: [] };
  const guarded = guardReport(child.result);
  child.result = guarded.text;
  const unverified = checkReport(guarded.text, record);
  if (unverified.length) child.unverified = unverified;
  if (unverified.length || guarded.found.length) await emit({ type: 'report_checked', unverified, defanged: guarded.found });
  return { unverified, defanged: guarded.found };
}

/** The parent's tool_result with the harness's notes: the defang line first, the unverified claims last. */
export function withReportNotes(result: ToolResult, checked: CheckedReport): ToolResult {
  const flagged = checked.defanged.length ? { ...result, content: `${guardNotice(checked.defanged)}\n${result.content}` } : result;
  return withUnverifiedFooter(flagged, checked.unverified);
}
