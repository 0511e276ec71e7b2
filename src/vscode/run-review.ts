/**
 * The words of the changes bar's host side (change-actions.ts), kept free of `vscode` so units can test them:
 * the multi-file diff's title, and the one confirmation a "revert the run" asks, listing each subagent's files.
 */
import { sharedReason, type RevertPlan } from '../core/session/history';
import type { RunChanges } from '../view-model/run-changes';

export function reviewTitle(run: Pick<RunChanges, 'files' | 'runs'>): string {
  const n = run.files.length;
  return `Delegate: ${n} file${n === 1 ? '' : 's'} changed by the last ${run.runs > 1 ? `${run.runs} runs` : 'run'}`;
}

type PlanFile = RevertPlan['files'][number];

/** One file of a revert's modal: what the revert will do to it (`included`: a shared file the user checked). */
export function describePlanFile(f: PlanFile, included: boolean): string {
  if (f.between) return `✗ ${f.path}: not reverted — ${f.between.who} also changed it in between`;
  if (f.lost) return `✗ ${f.path}: not reverted — ${f.lost}`;
  if (f.shared && !included) return `– ${f.path}: left alone — ${sharedReason(f.shared)} (check it in the Changes row to include it)`;
  const also = f.shared ? `; shared, included: ${f.shared.map((s) => s.who).join(', ')} may also have changed it` : '';
  if (f.restore === undefined) return `• ${f.path}: delete (it created it${also})`;
  return `• ${f.path}: put back its previous content (${f.action === 'deleted' ? 'it deleted it' : 'it modified it'}${also})`;
}

/** The shared files of a plan whose other agents are all among `agentIds` (reverted together, so theirs too). */
export function sharedInRun(plan: RevertPlan, agentIds: readonly string[]): string[] {
  return plan.files.filter((f) => f.shared?.every((s) => agentIds.includes(s.agentId))).map((f) => f.path);
}

/** The modal's detail for several subagents: per subagent its files and what the revert does to each. */
export function describeRunRevert(plans: RevertPlan[], byMainAgent: number, agentIds: readonly string[]): string {
  const lines: string[] = [];
  for (const plan of plans) {
    lines.push(`${plan.description}:`);
    const included = sharedInRun(plan, agentIds);
    for (const f of plan.files) lines.push(`  ${describePlanFile(f, included.includes(f.path))}`);
  }
  lines.push('', 'A file changed since by someone else is left alone (you get its diff).');
  if (byMainAgent > 0) lines.push(`${byMainAgent} file${byMainAgent === 1 ? '' : 's'} the main agent changed itself ${byMainAgent === 1 ? 'is' : 'are'} not reverted.`);
  const commands = plans.flatMap((p) => p.commands);
  if (commands.length) lines.push(`The files their commands changed are listed above; nothing else they did is undone: ${commands.map((c) => `\`${c}\``).join(', ')}.`);
  return lines.join('\n');
}

/** The message after a run's revert: how many files were put back, and which were refused (with why). */
export function runRevertSummary(done: number, refused: { path: string; reason?: string }[]): string {
  const text = `Delegate: reverted ${done} file${done === 1 ? '' : 's'} of the last run`;
  if (refused.length === 0) return `${text}.`;
  return `${text}; ${refused.length} not reverted: ${refused.map((f) => `${f.path} (${f.reason ?? 'refused'})`).join('; ')}.`;
}
