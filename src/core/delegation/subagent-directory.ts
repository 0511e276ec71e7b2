/**
 * A finished or stopped subagent, run again with a message — the same agent id, the same tree node, a new
 * segment — and the session's SubagentDirectory (agent/child-port.ts) that the tools reach it through:
 *
 *   send_message / the user ─▶ resume(id, message)
 *     its transcript file ─▶ replaySession(…, id) ─▶ its whole conversation (compactions, interruptions applied)
 *     its first agent_started + its agent definition ─▶ childSpec (the same prompt, tools, model) + history
 *     SubagentStart ─▶ runAgent (agent_started{segment: n}) ─▶ change manifest ─▶ SubagentStop ─▶ result
 *
 * The message goes in as a user message marked as the sender's: a message from an agent is not the user's and
 * approves nothing (the child's calls go through the same ToolGate as before).
 */
import { BUILT_IN_AGENTS } from '../agent-files/agent-catalog';
import type { AgentDefinition } from '../agent-files/agent-definition';
import { childSpec } from './child-spec';
import { ChildRecords, type ChildRecord } from './child-records';
import { childPage, deliverablesLine } from './child-pages';
import type { BlobStore } from '../changes/blob-store';
import type { ChangeTracker } from '../changes/change-tracker';
import { withManifestFooter } from '../changes/change-manifest';
import type { HookRegistry } from '../policy/hooks';
import { watchChildRecord } from '../report/record-watch';
import { checkChildReport, withReportNotes } from '../report/child-report';
import type { ResumeRequest, SubagentDirectory } from './child-port';
import type { AgentResult, AgentSpec, RunPorts } from '../loop/types';
import type { DelegateEvent } from '../events';
import type { MessageParam } from '../llm/types';
import type { ToolRegistry } from '../tools/types';
import { narrowMode, type AgentIdentity } from '../vocabulary';

export interface DirectoryOptions {
  records: ChildRecords;
  hooks: HookRegistry;
  changes?: ChangeTracker;
  blobs?: BlobStore;
  /** The session's tools as they are now (MCP tools included once connected), and its model aliases. */
  baseTools: () => ToolRegistry;
  modelAliases?: Readonly<Record<string, string>>;
  /** Runs the resumed child over the session's RunPorts (runAgent), as a new child runs (child-runs.ts). */
  run(spec: AgentSpec, signal: AbortSignal): Promise<AgentResult>;
  /** A child's conversation rebuilt from its events (replay.ts: compactions and interruptions applied). */
  conversation(events: readonly DelegateEvent[], agentId: string): { history: MessageParam[]; rootTurns: number };
}

/** What the resumed child reads first: who wrote, and, for a stopped one, that it had been stopped. */
function resumeMessage(r: Pick<ChildRecord, 'status' | 'stoppedByUser'>, by: 'parent' | 'user', message: string): string {
  const stopped = r.stoppedByUser ? 'You were stopped by the user before you finished. ' : r.status === 'cancelled' ? 'Your run was interrupted before you finished. ' : '';
  if (by === 'user') return stopped ? `[${stopped}The user now asks you to go on with this message.]\n${message}` : message;
  return `[${stopped}A message from your parent agent (not from the user: it approves nothing on the user's behalf). Your next final message is your new report to it.]\n${message}`;
}

export function createSubagentDirectory(ports: () => RunPorts, o: DirectoryOptions): SubagentDirectory<AgentResult> {
  const { records } = o;
  return {
    find: (ref) => records.find(ref),
    childrenOf: (agentId) => records.childrenOf(agentId),
    claimName: (name, agentId) => records.claimName(name, agentId),
    resume: async (req, signal) => {
      const out = await resumeChild(ports(), o, req, signal);
      const line = out.child.status === 'completed' ? await deliverablesLine(out.child.result, ports().config.workdir, writtenBy(out.child)) : undefined;
      return line ? { ...out, result: { ...out.result, content: `${out.result.content}\n${line}` } } : out;
    },
    deliverables: (child) => deliverablesLine(child.result, ports().config.workdir, writtenBy(child)),
    page: async (req) => {
      const r = records.find(req.id);
      if (!r) return { content: `No subagent "${req.id}" in this session`, isError: true };
      return childPage(r, await records.events(r.id), req, { workdir: ports().config.workdir, ...(o.blobs ? { blobs: o.blobs } : {}), live: o.changes && r.status === 'running' ? () => o.changes?.manifestOf(r.id) : undefined });
    },
  };
}

async function resumeChild(ports: RunPorts, o: DirectoryOptions, req: ResumeRequest<AgentResult>, signal: AbortSignal): Promise<{ child: AgentResult; result: ToolResultOf }> {
  const r = o.records.find(req.id);
  if (!r) throw new Error(`no subagent "${req.id}" in this session`);
  if (r.status === 'running') throw new Error(`the subagent ${r.id} is running: it gets a message at its next turn instead`);
  if (r.fork) throw new Error(`${r.id} is a fork (its conversation starts from its parent's): a fork cannot be resumed; start a new task or fork instead`);
  const started = r.started;
  const agentType = started.agentType ?? BUILT_IN_AGENTS[0]?.name ?? 'general-purpose';
  const def: AgentDefinition | undefined = ports.spawner.agentTypes().get(agentType);
  if (!def) throw new Error(`the subagent ${r.id} ran the agent definition "${agentType}", which this session no longer has`);
  const conversation = o.conversation(await o.records.events(r.id), r.id);
  const mode = narrowMode(req.sender?.mode, def.permissionMode);
  const identity: AgentIdentity = { agentId: r.id, parentId: r.parentId, depth: started.depth, description: r.description, ...(mode ? { mode } : {}), agentType };
  const prompt = resumeMessage(r, req.by, req.message);
  const spec = {
    ...childSpec({ def, identity, prompt, toolUseId: started.toolUseId ?? `agent:${r.id}`, parentModel: started.model, config: ports.config, baseTools: o.baseTools(), ...(o.modelAliases ? { modelAliases: o.modelAliases } : {}) }),
    history: conversation.history,
    turnBase: conversation.rootTurns,
    modelId: started.model,
    ...(r.name ? { name: r.name } : {}),
    segment: { n: r.segments + 1, by: req.by },
  };
  const hookFailures = await o.hooks.runSubagentStart({ agent: identity, prompt });
  const watch = watchChildRecord(ports.bus, r.id);
  const child = await o.run(spec, signal).finally(() => watch.stop());
  const changes = await o.changes?.manifestOf(r.id);
  if (changes) {
    child.changes = changes;
    await ports.bus.emit(r.id, r.parentId, { type: 'change_manifest', ...changes });
  }
  // The new report is held to this segment's calls and the whole manifest, as a first run's is (child-runs.ts).
  const watched = (path: string): boolean => o.changes?.watches(path) ?? false;
  const checked = await checkChildReport(child, { calls: watch.stop(), ...(changes ? { manifest: changes } : {}), workdir: ports.config.workdir, watched }, (body) => ports.bus.emit(r.id, r.parentId, body).then(() => undefined));
  hookFailures.push(...(await o.hooks.runSubagentStop({ agent: identity, status: child.status, result: child.result, turns: child.turns })));
  for (const failure of hookFailures) await ports.bus.emit(r.id, r.parentId, { type: 'error', message: `hook failed: ${failure}`, retrying: false });
  return { child, result: withReportNotes(withManifestFooter(req.toToolResult(child, signal.aborted), changes), checked) };
}

type ToolResultOf = ReturnType<ResumeRequest<AgentResult>['toToolResult']>;

/** The files a child (or its own subagents) created or modified, as its change manifest has them. */
function writtenBy(child: AgentResult): string[] {
  return (child.changes?.files ?? []).filter((f) => f.action !== 'deleted').map((f) => f.path);
}
