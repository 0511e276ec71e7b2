/**
 * Isolated subagents' kept work (issue 27) as the panel shows it: each one's kept branch and files on its task node,
 * what the last landing did to it, and the list the "kept in worktrees" bar draws:
 *
 *   worktree_kept (a branch)  ─▶ task.kept = { branch, files }            (a resumed child's later keep replaces it)
 *   changes_landed            ─▶ task.kept.outcome / conflicts / reason,
 *                                and the landing's check on every task it took part in
 *   keptWork(state)           ─▶ the children with kept work in finishing order, which are still open to land
 *                                (a child a kept resolver stands in for is not: the resolver is), the last check
 *
 * The words are the core's (events.ts LandOutcome, LandCheck): the bar says them, it guesses nothing.
 */
import type { EventOf, LandCheck, LandConflict } from '../core/events';
import { nextLocalId, placeNode, taskOfAgent, type Touched } from './store';
import type { KeptWork, SessionViewState } from './types';

export function onWorktreeKept(state: SessionViewState, e: EventOf<'worktree_kept'>, touched: Touched): void {
  const task = taskOfAgent(state, e.agentId);
  if (!task || !e.branch) return;
  task.kept = { branch: e.branch, files: e.files.map((f) => ({ ...f })), seq: e.seq, ...(e.landCheck ? { landCheck: e.landCheck } : {}), ...(e.resolves ? { resolves: e.resolves } : {}) };
  touched.add(task.id);
}

export function onChangesLanded(state: SessionViewState, e: EventOf<'changes_landed'>, touched: Touched): void {
  for (const o of e.outcomes) {
    const task = taskOfAgent(state, o.agentId);
    if (!task?.kept) continue;
    const { branch, files, seq, landCheck, resolves } = task.kept;
    task.kept = { branch, files, seq, ...(landCheck ? { landCheck } : {}), ...(resolves ? { resolves } : {}), outcome: o.outcome, ...(o.conflicts ? { conflicts: o.conflicts } : {}), ...(o.reason ? { reason: o.reason } : {}), ...(e.check ? { check: { ...e.check, seq: e.seq } } : {}) };
    touched.add(task.id);
  }
  // A line in the conversation too: the bar goes once all is decided, and a reopened session shows what was done.
  const { text, bad } = landingLine(e, (id) => {
    const task = taskOfAgent(state, id);
    return task ? `"${task.description}"` : id;
  });
  placeNode(state, { kind: 'notice', id: nextLocalId(state, 'notice'), level: bad ? 'warning' : 'info', text, time: e.time }, null, touched);
}

/**
 * What a landing did, in one sentence (the conversation's notice, the editor's message): a failed check and who broke
 * it, who was applied / discarded / reverted, each conflict (file, lines, whose changes meet there), the check passed.
 */
export function landingLine(e: Pick<EventOf<'changes_landed'>, 'outcomes' | 'check'>, named: (agentId: string) => string): { text: string; bad: boolean } {
  const of = (outcome: string): string[] => e.outcomes.filter((o) => o.outcome === outcome).map((o) => named(o.agentId));
  const parts: string[] = [];
  if (e.check && !e.check.ok) parts.push(`the check \`${e.check.command}\` failed on the combined changes${e.check.brokenBy ? ` (first broken by ${named(e.check.brokenBy)})` : ''}: nothing applied`);
  for (const [words, outcome] of [['applied the kept changes of', 'landed'], ['settled through a resolver the conflicts of', 'resolved'], ['discarded the kept changes of', 'discarded'], ['reverted the kept changes of', 'reverted']] as const) {
    const who = of(outcome);
    if (who.length) parts.push(`${words} ${who.join(', ')}`);
  }
  for (const o of e.outcomes.filter((x) => x.outcome === 'conflict')) parts.push(`${named(o.agentId)} not applied: ${(o.conflicts ?? []).map((c) => `${c.path} ${conflictLines(c)} meets ${c.with.map(named).join(', ')}`).join('; ')}`);
  for (const o of e.outcomes.filter((x) => x.outcome === 'failed')) parts.push(`${named(o.agentId)} failed: ${o.reason ?? 'unknown'}`);
  if (e.check?.ok) parts.push(`the check \`${e.check.command}\` passed`);
  const text = parts.join('; ');
  return { text: `${text.charAt(0).toUpperCase()}${text.slice(1)}.`, bad: e.outcomes.some((o) => o.outcome === 'conflict' || o.outcome === 'check_failed' || o.outcome === 'failed') };
}

/** Still to be decided: never landed or discarded (a conflict or a failed check may be tried again). */
const isOpenKept = (k: KeptWork): boolean => k.outcome === undefined || k.outcome === 'conflict' || k.outcome === 'check_failed' || k.outcome === 'failed';

export interface KeptChild {
  agentId: string;
  description: string;
  kept: KeptWork;
  /** A resolver whose kept changes (not discarded) stand in for this child's: it is landed or discarded instead. */
  resolvedBy?: string;
}

export interface KeptWorkView {
  /** Every subagent that kept work, in the order it was kept (landing's order). */
  children: KeptChild[];
  /** Those still open to land (Apply all takes these). */
  open: string[];
  /** The newest landing check's outcome, if any landing ran one. */
  check?: LandCheck;
  /** The check Apply runs first (the session's, recorded with the kept work), when one is set. */
  landCheck?: string;
}

export function keptWork(state: SessionViewState): KeptWorkView {
  const children: KeptChild[] = [];
  // The agents' task nodes only: a packed snapshot's calls are not read.
  for (const agentId of Object.keys(state.agents)) {
    const task = taskOfAgent(state, agentId);
    if (task?.kept && task.agentId === agentId) children.push({ agentId, description: task.description, kept: task.kept });
  }
  children.sort((a, b) => a.kept.seq - b.kept.seq);
  // As the steward has it (land-isolated.ts): a kept, not discarded resolver stands in for the child it resolves.
  for (const r of children) {
    const target = r.kept.resolves && r.kept.outcome !== 'discarded' ? children.find((c) => c.agentId === r.kept.resolves) : undefined;
    if (target) target.resolvedBy = r.agentId;
  }
  const check = children.map((c) => c.kept.check).filter((c) => c !== undefined).sort((a, b) => b.seq - a.seq)[0];
  const view: KeptWorkView = { children, open: children.filter((c) => isOpenKept(c.kept) && !c.resolvedBy).map((c) => c.agentId) };
  const landCheck = children.map((c) => c.kept.landCheck).filter((c) => c !== undefined).at(-1);
  if (landCheck) view.landCheck = landCheck;
  if (check) {
    const { seq: _seq, ...rest } = check;
    view.check = rest;
  }
  return view;
}

/** "lines 3-5" of a conflict's hunks. */
export function conflictLines(c: LandConflict): string {
  return c.hunks.map((h) => (h.lines > 1 ? `lines ${h.line}-${h.line + h.lines - 1}` : `line ${h.line}`)).join(', ');
}
