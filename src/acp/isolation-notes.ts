/**
 * An isolated subagent's work in words an ACP client shows (Zed: under its `task` call, and as a notice where the
 * client shows notices): where its changes wait (`worktree_kept`) and how to land them; what a landing did
 * (`changes_landed`: landed, conflicts, the check).
 */
import type { EventOf, LandOutcome } from '../core/events';

/** Under the task call: where the child's changes are kept, and the two ways to land them. */
export function keptNote(e: EventOf<'worktree_kept'>, sessionId: string): string {
  if (!e.branch) return `Isolated subagent ${e.agentId} changed no file in its worktree: nothing is kept.`;
  const files = e.files.map((f) => `${f.status} ${f.path}`).join(', ');
  const stands = e.resolves ? ` It resolves ${e.resolves}'s conflicts.` : '';
  return `Isolated subagent ${e.agentId}'s changes (${files}) are kept on branch ${e.branch}, not in your folder.${stands} Land them: ask the agent to use its land tool, or run \`delegate land --session ${sessionId} --agent ${e.agentId}\`.`;
}

function outcomeWords(o: LandOutcome): string {
  if (o.outcome === 'resolved') return `${o.agentId} resolved by ${o.resolvedBy ?? '?'}`;
  if (o.outcome === 'conflict') return `${o.agentId} conflicts in ${(o.conflicts ?? []).map((c) => c.path).join(', ')} (nothing of it written)`;
  return `${o.agentId} ${o.outcome}${o.files.length ? ` (${o.files.join(', ')})` : ''}`;
}

/** A landing in one line (a notice's title): each subagent's outcome, the check's. */
export function landedNote(e: EventOf<'changes_landed'>, sessionId: string): { severity: 'info' | 'warning'; text: string } {
  const bad = e.outcomes.some((o) => o.outcome === 'conflict' || o.outcome === 'check_failed' || o.outcome === 'failed');
  const check = e.check ? ` The land check \`${e.check.command}\` ${e.check.ok ? 'passed' : `failed${e.check.brokenBy ? `, first broken by ${e.check.brokenBy}` : ''}: nothing landed`}.` : '';
  const conflicts = e.outcomes.some((o) => o.outcome === 'conflict') ? ` To hand the conflicts to a resolver: ask the agent to land with resolve, or run \`delegate land --session ${sessionId} --resolve\`.` : '';
  return { severity: bad ? 'warning' : 'info', text: `Subagents' changes ${e.action === 'land' ? 'landed' : e.action === 'discard' ? 'discarded' : 'reverted'}: ${e.outcomes.map(outcomeWords).join('; ')}.${check}${conflicts}` };
}
