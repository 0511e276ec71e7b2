/**
 * The words of the changes bar's host side (change-actions.ts), kept free of `vscode` so units can test them:
 * the multi-file diff's title, and the one confirmation a "revert the run" asks, listing each subagent's files.
 */
import type { RevertPlan } from '../core/session';
import type { RunChanges } from '../view-model/run-changes';

export function reviewTitle(run: RunChanges): string {
  const n = run.files.length;
  return `Delegate: ${n} file${n === 1 ? '' : 's'} changed by the last run`;
}

/** The modal's detail for several subagents: per subagent its files and what the revert does to each. */
export function describeRunRevert(plans: RevertPlan[], byMainAgent: number): string {
  const lines: string[] = [];
  for (const plan of plans) {
    lines.push(`${plan.description}:`);
    for (const f of plan.files) {
      if (f.between) lines.push(`  ✗ ${f.path}: not reverted — ${f.between.who} also changed it in between`);
      else if (f.lost) lines.push(`  ✗ ${f.path}: not reverted — ${f.lost}`);
      else if (f.restore === undefined) lines.push(`  • ${f.path}: delete (it created it)`);
      else lines.push(`  • ${f.path}: put back its previous content (${f.action === 'deleted' ? 'it deleted it' : 'it modified it'})`);
    }
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
