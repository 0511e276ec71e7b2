/**
 * The session's SubagentDirectory (child-port.ts), the port the tools reach a session's subagents through:
 *
 *   send_message / the user ─▶ resume(id, message)
 *     its record: finished, not a fork ─▶ its agent definition (its first agent_started names it)
 *     its transcript file ─▶ conversation(…) ─▶ its whole history (compactions, interruptions applied)
 *     ─▶ runChild({kind: 'resume', …}) (child-runs.ts: the same pipeline as a new child's) ─▶ + its deliverables
 *   read_subagent ─▶ page(id, what, …) (child-pages.ts)      task's `name` ─▶ claimName (child-records.ts)
 *
 * The message goes in as a user message marked as the sender's: a message from an agent is not the user's and
 * approves nothing (the child's calls go through the same ToolGate as before).
 */
import { BUILT_IN_AGENTS } from '../agent-files/agent-catalog';
import type { ChildRecord, ChildRecords } from './child-records';
import { childPage, deliverablesLine } from './child-pages';
import { agentTypesOf, reviewResult, runChild, type ChildOutcome, type ChildRunPorts } from './child-runs';
import type { BlobStore } from '../changes/blob-store';
import type { ResumeRequest, SubagentDirectory } from './child-port';
import type { AgentResult } from '../loop/types';
import type { DelegateEvent } from '../events';
import type { MessageParam } from '../llm/types';
import type { AgentDefinition } from '../agent-files/agent-definition';
import { narrowMode, type PermissionMode } from '../vocabulary';

export interface DirectoryOptions {
  records: ChildRecords;
  /** Where read_subagent's diffs read the files' contents before and after. */
  blobs?: BlobStore;
  /** A child's conversation rebuilt from its events (session/replay.ts: compactions and interruptions applied). */
  conversation(events: readonly DelegateEvent[], agentId: string): { history: MessageParam[]; rootTurns: number };
}

/** `runs`: what a child's run reads (the session's child runs: the same ports a new child runs over). */
export function createSubagentDirectory(runs: ChildRunPorts, o: DirectoryOptions): SubagentDirectory<AgentResult> {
  const { records } = o;
  const { workdir } = runs.config;
  return {
    find: (ref) => records.find(ref),
    childrenOf: (agentId) => records.childrenOf(agentId),
    claimName: (name, agentId) => records.claimName(name, agentId),
    resume: async (req, signal) => {
      for (;;) {
        const out = await resumeChild(runs, o, req, signal);
        const line = out.child.status === 'completed' ? await deliverablesLine(out.child.result, workdir, writtenBy(out.child)) : undefined;
        const result = line ? { ...out.result, content: `${out.result.content}\n${line}` } : out.result;
        // A reply to its parent goes through the host's review as a task's result does (the user's own message does not:
        // the reply is the user's to read); a Re-run resumes it again with the edited message.
        const r = records.find(req.id);
        if (req.by !== 'parent' || !r) return { ...out, result };
        const reviewed = await reviewResult(runs, { agentId: r.id, parentId: r.parentId, description: r.description, prompt: req.message, result: result.content, isError: result.isError === true }, result, signal);
        if (!('rerun' in reviewed)) return { ...out, result: reviewed };
        req = { ...req, message: reviewed.rerun };
      }
    },
    deliverables: (child) => deliverablesLine(child.result, workdir, writtenBy(child)),
    page: async (req) => {
      const r = records.find(req.id);
      if (!r) return { content: `No subagent "${req.id}" in this session`, isError: true };
      return childPage(r, await records.events(r.id), req, { workdir, ...(o.blobs ? { blobs: o.blobs } : {}), live: runs.changes && r.status === 'running' ? () => runs.changes?.manifestOf(r.id) : undefined });
    },
  };
}

/** A finished or stopped child run again with a message (what may not be resumed is refused with the reason). */
async function resumeChild(runs: ChildRunPorts, o: DirectoryOptions, req: ResumeRequest<AgentResult>, signal: AbortSignal): Promise<ChildOutcome> {
  const r = o.records.find(req.id);
  if (!r) throw new Error(`no subagent "${req.id}" in this session`);
  if (r.status === 'running') throw new Error(`the subagent ${r.id} is running: it gets a message at its next turn instead`);
  if (r.fork) throw new Error(`${r.id} is a fork (its conversation starts from its parent's): a fork cannot be resumed; start a new task or fork instead`);
  const agentType = r.started.agentType ?? BUILT_IN_AGENTS[0]?.name ?? 'general-purpose';
  const def = agentTypesOf(runs).get(agentType);
  if (!def) throw new Error(`the subagent ${r.id} ran the agent definition "${agentType}", which this session no longer has`);
  const events = await o.records.events(r.id);
  const conversation = o.conversation(events, r.id);
  const inherited = inheritedMode(o.records, agentTypesOf(runs), r);
  // An isolated child goes on in what it kept (its last worktree_kept), in this process or a later one.
  const last = events.filter((e) => e.type === 'worktree_kept').at(-1);
  const kept = last?.type === 'worktree_kept' && last.commit ? { base: last.base, snapshot: last.snapshot, commit: last.commit, ...(last.resolves ? { resolves: last.resolves } : {}) } : undefined;
  return runChild(
    { kind: 'resume', record: r, def, ...(inherited ? { inherited } : {}), ...(kept ? { kept } : {}), history: conversation.history, turnBase: conversation.rootTurns, message: req.message, by: req.by, ...(req.sender ? { sender: req.sender } : {}), toToolResult: req.toToolResult },
    runs,
    signal,
  );
}

/**
 * The mode a child ran under, for its resume: the one its agent_started recorded, narrowed by every ancestor's
 * recorded mode and agent file's permissionMode — a transcript from before the mode was recorded gets the
 * stricter of what is known, never a looser one (a grandchild under a `permissionMode: plan` child stays in plan).
 */
function inheritedMode(records: ChildRecords, defs: ReadonlyMap<string, AgentDefinition>, r: ChildRecord): PermissionMode | undefined {
  let mode: PermissionMode | undefined;
  const seen = new Set<string>();
  for (let at: ChildRecord | undefined = r; at && !seen.has(at.id); at = records.find(at.parentId)) {
    seen.add(at.id);
    mode = narrowMode(narrowMode(mode, at.started.mode), defs.get(at.started.agentType ?? '')?.permissionMode);
  }
  return mode;
}

/** The files a child (or its own subagents) created or modified, as its change manifest has them. */
function writtenBy(child: AgentResult): string[] {
  return (child.changes?.files ?? []).filter((f) => f.action !== 'deleted').map((f) => f.path);
}
