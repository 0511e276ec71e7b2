/**
 * The main agent's `land` tool: its isolated subagents' kept changes landed into the user's folder (or discarded) in
 * the session, as `delegate land` does from the shell — and a conflict handed to a resolver subagent when asked:
 *
 *   land{agents?, discard?, resolve?} ─▶ the steward (session/land-isolated.ts: check on the combination, 3-way merge)
 *     conflict, resolve ─▶ a resolver child per conflicting subagent (spawner.run, call.resolves): its own worktree
 *                          of the live tree with that subagent's changes merged in, conflicts as diff3 markers
 *                        ─▶ it ends ─▶ the steward lands its kept changes like any child's (the check runs on them;
 *                          a marker left is refused) ─▶ the subagent it stood in for is `resolved`
 *     conflict, no resolve ─▶ the result says so, and how to resolve
 *
 * Its kind is `write`: landing writes the user's tree, so the permission check asks as for an edit. Only the main
 * agent has it (a subagent landing its siblings into the user's tree is not its call).
 */
import type { LandCheck, LandOutcome } from '../events';
import type { AgentResult, ChildCall, Spawner } from '../loop/types';
import type { Tool, ToolResult } from '../tools/types';
import type { AgentIdentity } from '../vocabulary';
import type { ResolveTarget, Steward } from './steward-port';

export interface LandInput {
  agents?: string[];
  discard?: boolean;
  resolve?: boolean;
}

export interface LandToolOptions {
  parent: AgentIdentity;
  steward: Steward;
  spawner: Spawner;
  parentModel: string;
  onChildFinished(child: AgentResult, description: string): void;
  toToolResult: ChildCall['toToolResult'];
}

/** One line per subagent, as `delegate land` prints them. */
function outcomeLines(outcomes: readonly LandOutcome[]): string[] {
  return outcomes.map((o) => {
    if (o.outcome === 'resolved') return `resolved ${o.agentId}: its conflicts settled by resolver ${o.resolvedBy ?? '?'}, whose changes landed instead`;
    const what = o.conflicts?.length
      ? o.conflicts.map((c) => `${c.path}: ${c.hunks.map((h) => `lines ${h.line}-${h.line + Math.max(0, h.lines - 1)}`).join(', ')} (with ${c.with.join(', ')})`).join('; ')
      : o.files.join(', ');
    return `${o.outcome} ${o.agentId}: ${what}${o.outcome === 'conflict' ? ' — nothing of it written' : ''}${o.reason ? ` — ${o.reason}` : ''}`;
  });
}

function checkLine(check: LandCheck | undefined): string[] {
  if (!check) return [];
  if (check.ok) return [`The land check \`${check.command}\` passed on the combined changes.`];
  return [`The land check \`${check.command}\` failed on the combined changes${check.brokenBy ? `; the first to break it: ${check.brokenBy}` : ''}. Nothing landed. Its output's end:\n${check.output.slice(-1500)}`];
}

/** What the resolver reads: what conflicts where, how the files are marked, where both sides and the base are. */
function resolverPrompt(conflict: LandOutcome, target: ResolveTarget): string {
  // No line numbers: the markers in the resolver's copy (diff3, on the tree as it is now) are where the conflicts are.
  const files = (conflict.conflicts ?? []).map((c) => `- ${c.path}${c.hunks.some((h) => h.lines === 0) ? ' (the whole file)' : ''}: its changes meet ${c.with.join(', ')}'s`).join('\n');
  return [
    `Subagent ${conflict.agentId}'s changes could not land in the user's folder: they conflict with changes already there.`,
    "Your folder is a scratch copy of the user's folder as it is now, with that subagent's changes merged in. Where they conflict the file holds diff3 markers:",
    '`<<<<<<< parent` (the folder\'s lines) `||||||| base` (the lines both started from) `=======` `>>>>>>> subagent` (the subagent\'s lines).',
    `Conflicting files:\n${files}`,
    `Both sides and the base in full: \`git show ${target.commit}:PATH\` (the subagent's), \`git show ${target.snapshot}:PATH\` (the base); the folder's side is the file as it was before the markers. A whole-file conflict (a deletion, binary bytes) holds the folder's side: make it what the two intents together need.`,
    'Edit each conflicting file so it keeps what both sides meant and no marker line is left; change nothing else. Your changes land in the user\'s folder when you finish (after the land check, if one is set); any marker left and nothing lands.',
    'End with a short report: for each conflict, what you kept from each side.',
  ].join('\n');
}

export function createLandTool(o: LandToolOptions): Tool<LandInput> {
  return {
    name: 'land',
    kind: 'write',
    // In every request of an isolating session (issue 30): what changes the model's calls, no more.
    description:
      "Land your isolated subagents' kept changes (isolation: worktree) in the user's folder: each by a 3-way merge, in the order they finished (or of `agents`), after the session's land check on them all. " +
      "A subagent whose changes conflict lands none of its files and is listed; resolve: true hands each conflict to a resolver subagent whose result lands like any subagent's. discard: true drops the changes instead. Writes the user's files: use it when the user wants the changes.",
    inputSchema: {
      type: 'object',
      properties: {
        agents: { type: 'array', items: { type: 'string' }, description: 'ids; default: all not landed yet' },
        discard: { type: 'boolean' },
        resolve: { type: 'boolean' },
      },
    },
    parse(raw) {
      if (raw === undefined || raw === null) return { ok: true, input: {} };
      if (typeof raw !== 'object') return { ok: false, error: 'input must be an object' };
      const { agents, discard, resolve } = raw as Record<string, unknown>;
      if (agents !== undefined && (!Array.isArray(agents) || agents.some((a) => typeof a !== 'string' || !/^[\w.-]{1,64}$/.test(a)))) return { ok: false, error: '"agents" must be a list of subagent ids' };
      if (discard !== undefined && typeof discard !== 'boolean') return { ok: false, error: '"discard" must be true or false' };
      if (resolve !== undefined && typeof resolve !== 'boolean') return { ok: false, error: '"resolve" must be true or false' };
      if (discard === true && resolve === true) return { ok: false, error: 'discard and resolve do not go together' };
      return { ok: true, input: { ...(agents ? { agents: agents as string[] } : {}), ...(discard === true ? { discard: true } : {}), ...(resolve === true ? { resolve: true } : {}) } };
    },
    // Shown after the tool's name ("land all kept subagent changes", "land discard 3f9a1c2e").
    describe: (input) => ({ summary: `${input.discard ? 'discard ' : ''}${input.agents?.length ? input.agents.join(', ') : 'all kept subagent changes'}${input.resolve ? ' (resolve conflicts)' : ''}`, paths: [] }),
    async execute(input, ctx): Promise<ToolResult> {
      const done = await landAndResolve(o, input, ctx);
      return { content: done.lines.join('\n'), ...(done.error ? { isError: true } : {}) };
    },
  };
}

export interface Landed {
  /** What happened, one line per subagent (a resolver's report and its landing among them). */
  lines: string[];
  /** Every outcome, the resolvers' included. */
  outcomes: LandOutcome[];
  /** Nothing could be done (no kept changes, or a child failed to land). */
  error: boolean;
  /** Conflicts or failed checks left unsettled. */
  unsettled: boolean;
}

/**
 * The steward's landing, then (with `resolve`) a resolver child per conflicting subagent, each landed as it ends: the
 * land tool's work, and the user's (`delegate land --resolve`, the session's `land`). `keep` (the editor's *Resolve*):
 * a resolver's changes stay kept, standing in for the child's, for the user to open and apply.
 */
export async function landAndResolve(o: LandToolOptions, input: LandInput & { check?: string; keep?: boolean }, ctx: { signal: AbortSignal; toolUseId: string }): Promise<Landed> {
  const action = input.discard ? 'discard' : 'land';
  const report = await o.steward.land({ action, agents: input.agents ?? [], ...(input.check !== undefined ? { check: input.check } : {}) });
  if ('error' in report) return { lines: [`Nothing ${input.discard ? 'discarded' : 'landed'}: ${report.error}`], outcomes: [], error: true, unsettled: true };
  const lines = [...outcomeLines(report.outcomes), ...checkLine(report.check)];
  const outcomes = [...report.outcomes];
  const conflicts = report.outcomes.filter((c) => c.outcome === 'conflict');
  if (conflicts.length && !input.resolve) lines.push('To settle the conflicts, call land again with resolve: true (a resolver subagent merges them and its result lands), or leave them to the user.');
  for (const conflict of input.resolve ? conflicts : []) {
    const target = report.kept[conflict.agentId];
    if (!target || ctx.signal.aborted) continue;
    const description = `resolve ${conflict.agentId}'s conflicts`;
    const resolverId = o.spawner.newAgentId();
    let ran: string | undefined; // a review's re-run is another agent: the last one counts
    const call: ChildCall = {
      parent: o.parent,
      description,
      prompt: resolverPrompt(conflict, target),
      toolUseId: ctx.toolUseId,
      parentModel: o.parentModel,
      isolation: 'worktree',
      resolves: target,
      onChildFinished: (child, d) => ((ran = child.agentId), o.onChildFinished(child, d)),
      toToolResult: o.toToolResult,
    };
    const result = await o.spawner.run(call, resolverId, ctx.signal);
    lines.push(`Resolver ${ran ?? resolverId} for ${conflict.agentId}: ${result.content}`);
    if (!ran) continue;
    // The editor's user reviews the resolution first: its kept changes stand in for the child's until Apply — when
    // they are one: a failed resolver's, or any with a marker left, are dropped (the conflict is the user's again).
    if (input.keep) {
      const left = result.isError ? [] : await o.steward.markersLeft(ran);
      if (!result.isError && left.length === 0) continue;
      await o.steward.land({ action: 'discard', agents: [ran] }); // an error: it kept nothing, nothing to drop
      lines.push(`Not kept: ${result.isError ? 'the resolver failed' : `the resolver left a conflict marker in ${left.join(', ')}`}; ${conflict.agentId}'s conflict stands.`);
      continue;
    }
    if (result.isError) continue;
    const landed = await o.steward.land({ action: 'land', agents: [ran], ...(input.check !== undefined ? { check: input.check } : {}) });
    if ('error' in landed) lines.push(`Its result did not land: ${landed.error}`);
    else {
      lines.push(...outcomeLines(landed.outcomes), ...checkLine(landed.check));
      outcomes.push(...landed.outcomes);
    }
  }
  const resolved = new Set(outcomes.filter((x) => x.outcome === 'resolved').map((x) => x.agentId));
  const unsettled = outcomes.some((x) => x.outcome === 'check_failed' || x.outcome === 'failed' || (x.outcome === 'conflict' && !resolved.has(x.agentId)));
  return { lines, outcomes, error: outcomes.some((x) => x.outcome === 'failed'), unsettled };
}
