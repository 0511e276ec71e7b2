/**
 * The session's Spawner (declared in agent/types.ts): one `task` call's subagent, from start to the result its parent gets:
 *
 *   SubagentStart hooks ─▶ runAgent(child) ─▶ change manifest (footer + event) ─▶ SubagentStop hooks ─▶ result
 *      │                                                                                                │
 *      └──────────── re-run with an edited prompt (a new child on the same task node) ◀── review ◀──────┘
 *
 * Review is opt-in and the editor's (`delegate.reviewSubagentResults`, review.ts): a finished child's result
 * waits on its node for Accept, Edit result or Re-run; the parent gets only what the user accepted.
 * The run's services are read when a child starts (`services()`), so the session builds them in one literal
 * that holds this spawner: nothing is assigned in afterwards.
 */
import { BUILT_IN_AGENTS, DEFAULT_AGENT } from '../agents/agent-catalog';
import type { AgentDefinition } from '../agents/agent-definition';
import { childSpec } from './agent-spec';
import type { ChangeTracker } from '../changes/change-tracker';
import type { HookRegistry } from '../policy/hooks';
import { withManifestFooter } from '../changes/change-manifest';
import type { ToolResult } from '../tools/types';
import { FORK_AGENT_TYPE, forkSpec } from '../agent/fork';
import { runAgent } from '../agent/loop';
import { watchChildRecord } from '../agent/child-record';
import { checkChildReport, withReportNotes } from '../agent/child-report';
import type { AgentSpec, ChildCall, RunServices, Spawner } from '../agent/types';
import type { ReviewDecision, ReviewGate } from './review';
import { narrowMode, type AgentIdentity } from '../vocabulary';

const BUILT_INS: ReadonlyMap<string, AgentDefinition> = new Map(BUILT_IN_AGENTS.map((a) => [a.name, a]));

/** A resolved call: the definition it runs and the services of the run. */
interface ChildRun extends ChildCall {
  def: AgentDefinition;
  services: RunServices;
  hooks: HookRegistry;
  review: ReviewGate | undefined;
  changes: ChangeTracker | undefined;
}

/** What the session's child runs use besides the run's services. */
export interface ChildRunOptions {
  /** SubagentStart / SubagentStop: the session's hooks (the tool calls' hooks go through the ToolGate). */
  hooks: HookRegistry;
  /** The host's review of finished children (the editor's opt-in). */
  review?: ReviewGate;
  /** What agents changed and ran: a finished child's manifest comes from it. */
  changes?: ChangeTracker;
}

export function createChildRuns(services: () => RunServices, { hooks, review, changes }: ChildRunOptions): Spawner {
  const agentTypes = (): ReadonlyMap<string, AgentDefinition> => services().agentDefinitions ?? BUILT_INS;
  return {
    agentTypes,
    defaultType: DEFAULT_AGENT,
    newAgentId: () => services().newAgentId(),
    run: (call, firstId, signal) => {
      const def = agentTypes().get(call.subagentType ?? DEFAULT_AGENT) ?? (BUILT_IN_AGENTS[0] as AgentDefinition);
      return runReviewedChild({ ...call, def, services: services(), hooks, review, changes }, call.prompt, firstId, signal);
    },
  };
}

/** Runs the child (again, while the review asks for a re-run); `firstId` is the first child's agent id. */
async function runReviewedChild(o: ChildRun, prompt: string, firstId: string, signal: AbortSignal): Promise<ToolResult> {
  let agentId = firstId;
  for (;;) {
    const result = await runChildOnce(o, prompt, agentId, signal);
    const review = o.review;
    if (!review || signal.aborted) return result;
    const bus = o.services.bus;
    await bus.emit(agentId, o.parent.agentId, { type: 'review_requested', result: result.content });
    let decision: ReviewDecision;
    try {
      decision = await review({ agentId, parentId: o.parent.agentId, description: o.description, prompt, result: result.content, isError: result.isError === true }, signal);
    } catch {
      decision = { action: 'accept' }; // the host went away: the result stands as it was
    }
    await bus.emit(agentId, o.parent.agentId, { type: 'review_resolved', action: decision.action });
    if (decision.action === 'accept') return result;
    if (decision.action === 'edit') return { content: `${decision.result}\n[This result was edited by the user before it reached you.]` };
    prompt = decision.prompt;
    agentId = o.services.newAgentId();
  }
}

async function runChildOnce(o: ChildRun, prompt: string, agentId: string, signal: AbortSignal): Promise<ToolResult> {
  const { def, parent, services } = o;
  // A fork runs as its parent does (same mode); a defined agent may narrow the mode.
  const mode = o.fork ? parent.mode : narrowMode(parent.mode, def.permissionMode);
  const agentType = o.fork ? FORK_AGENT_TYPE : def.name;
  const identity: AgentIdentity = { agentId, parentId: parent.agentId, depth: parent.depth + 1, description: o.description, ...(mode ? { mode } : {}), agentType };
  const hookFailures = await o.hooks.runSubagentStart({ agent: identity, prompt });
  const spec = o.fork
    ? forkSpec(o.fork, { identity, prompt, toolUseId: o.toolUseId, services })
    : childSpec({ def, identity, prompt, toolUseId: o.toolUseId, parentModel: o.parentModel, services });
  // The child's controller is made by the agent registry, linked to `signal`: the call's step, or the
  // parent's own signal for a background child (which outlives the call).
  const watch = watchChildRecord(services.bus, agentId);
  const child = await runAgent(named(spec, o.name), services, signal).finally(() => watch.stop());
  // The harness, not the child's prose, says what changed: a footer on the result, an event for the hosts.
  const changes = await o.changes?.manifestOf(identity.agentId);
  if (changes) {
    child.changes = changes;
    await services.bus.emit(identity.agentId, parent.agentId, { type: 'change_manifest', ...changes });
  }
  // Its report, held to what it did (and defanged) before the parent or the summary sees it.
  const checked = await checkChildReport(child, { calls: watch.stop(), ...(changes ? { manifest: changes } : {}), workdir: services.workdir }, (body) => services.bus.emit(agentId, parent.agentId, body).then(() => undefined));
  o.onChildFinished(child, o.description);
  hookFailures.push(...(await o.hooks.runSubagentStop({ agent: identity, status: child.status, result: child.result, turns: child.turns })));
  for (const failure of hookFailures) {
    await services.bus.emit(identity.agentId, parent.agentId, { type: 'error', message: `hook failed: ${failure}`, retrying: false });
  }
  return withReportNotes(withManifestFooter(o.toToolResult(child, signal.aborted), changes), checked);
}

/** The spec with the call's name (recorded on agent_started: send_message and read_subagent find it by it). */
function named(spec: AgentSpec, name: string | undefined): AgentSpec {
  return name ? { ...spec, name } : spec;
}
