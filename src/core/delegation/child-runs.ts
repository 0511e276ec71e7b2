/**
 * The session's Spawner (declared in agent/types.ts): one `task` call's subagent, from start to the result its parent gets:
 *
 *   SubagentStart hooks ─▶ runAgent(child) ─▶ change manifest (footer + event) ─▶ SubagentStop hooks ─▶ result
 *      │                                                                                                │
 *      └──────────── re-run with an edited prompt (a new child on the same task node) ◀── review ◀──────┘
 *
 * Review is opt-in and the editor's (`delegate.reviewSubagentResults`, review.ts): a finished child's result
 * waits on its node for Accept, Edit result or Re-run; the parent gets only what the user accepted.
 * It takes the ports it reads (ChildRunPorts); the child itself runs over the session's RunPorts through `run`,
 * a function the session gives (the ports hold this spawner, so it is called only once they exist): nothing is
 * assigned in afterwards.
 */
import { BUILT_IN_AGENTS, DEFAULT_AGENT } from '../agent-files/agent-catalog';
import type { AgentDefinition } from '../agent-files/agent-definition';
import { childSpec } from './child-spec';
import type { ChangeTracker } from '../changes/change-tracker';
import type { HookRegistry } from '../policy/hooks';
import { withManifestFooter } from '../changes/change-manifest';
import type { ToolRegistry, ToolResult } from '../tools/types';
import type { EventBus } from '../events';
import { FORK_AGENT_TYPE, forkSpec } from './fork';
import { watchChildRecord } from '../report/record-watch';
import { checkChildReport, withReportNotes } from '../report/child-report';
import type { AgentResult, AgentSpec, ChildCall, RunConfig, Spawner } from '../loop/types';
import type { ReviewDecision, ReviewGate } from './child-review';
import type { FanoutCaps } from './fanout-review';
import { narrowMode, type AgentIdentity } from '../vocabulary';

const BUILT_INS: ReadonlyMap<string, AgentDefinition> = new Map(BUILT_IN_AGENTS.map((a) => [a.name, a]));

/** A resolved call: the definition it runs and the ports of the run. */
interface ChildRun extends ChildCall {
  def: AgentDefinition;
  ports: ChildRunPorts;
}

/** What the session's child runs read. */
export interface ChildRunPorts {
  /** Runs a child's spec over the session's RunPorts (runAgent); its controller is linked to `signal`. */
  run(spec: AgentSpec, signal: AbortSignal): Promise<AgentResult>;
  bus: EventBus;
  /** An agent id unique in the session. */
  newAgentId(): string;
  /** Agent definitions a `task` call can select (`subagent_type`); the built-ins when omitted. */
  agentDefinitions?: ReadonlyMap<string, AgentDefinition>;
  /** The folder, caps and project instructions a child's spec is built with. */
  config: Pick<RunConfig, 'workdir' | 'limits' | 'projectInstructions'>;
  /** The session's tools when the child starts (MCP tools join as their servers connect). */
  baseTools(): ToolRegistry;
  /** `sonnet` / `opus` / `haiku` → model ids, for agent definitions' `model`. */
  modelAliases?: Readonly<Record<string, string>>;
  /** SubagentStart / SubagentStop: the session's hooks (the tool calls' hooks go through the ToolGate). */
  hooks: HookRegistry;
  /** The host's review of finished children (the editor's opt-in). */
  review?: ReviewGate;
  /** What agents changed and ran: a finished child's manifest comes from it. */
  changes?: ChangeTracker;
  /** Budgets the user set on the fan-out card for calls about to start. */
  caps?: FanoutCaps;
}

export function createChildRuns(ports: ChildRunPorts): Spawner {
  const agentTypes = (): ReadonlyMap<string, AgentDefinition> => ports.agentDefinitions ?? BUILT_INS;
  return {
    agentTypes,
    defaultType: DEFAULT_AGENT,
    newAgentId: () => ports.newAgentId(),
    run: (call, firstId, signal) => {
      const def = agentTypes().get(call.subagentType ?? DEFAULT_AGENT) ?? (BUILT_IN_AGENTS[0] as AgentDefinition);
      return runReviewedChild({ ...call, def, ports }, call.prompt, firstId, signal);
    },
  };
}

/** Runs the child (again, while the review asks for a re-run); `firstId` is the first child's agent id. */
async function runReviewedChild(o: ChildRun, prompt: string, firstId: string, signal: AbortSignal): Promise<ToolResult> {
  let agentId = firstId;
  for (;;) {
    const result = await runChildOnce(o, prompt, agentId, signal);
    const review = o.ports.review;
    if (!review || signal.aborted) return result;
    const bus = o.ports.bus;
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
    agentId = o.ports.newAgentId();
  }
}

async function runChildOnce(o: ChildRun, prompt: string, agentId: string, signal: AbortSignal): Promise<ToolResult> {
  const { def, parent, ports } = o;
  // A fork runs as its parent does (same mode); a defined agent may narrow the mode.
  const mode = o.fork ? parent.mode : narrowMode(parent.mode, def.permissionMode);
  const agentType = o.fork ? FORK_AGENT_TYPE : def.name;
  const identity: AgentIdentity = { agentId, parentId: parent.agentId, depth: parent.depth + 1, description: o.description, ...(mode ? { mode } : {}), agentType };
  const hookFailures = await ports.hooks.runSubagentStart({ agent: identity, prompt });
  const built = o.fork
    ? forkSpec(o.fork, { identity, prompt, toolUseId: o.toolUseId, limits: ports.config.limits })
    : childSpec({ def, identity, prompt, toolUseId: o.toolUseId, parentModel: o.parentModel, config: ports.config, baseTools: ports.baseTools(), ...(ports.modelAliases ? { modelAliases: ports.modelAliases } : {}) });
  // "Run, stopping each at its usual maximum" on the fan-out card (fanout-review.ts): the tighter of its caps and the spec's own budget.
  const budget = ports.caps ? ports.caps.apply(o.toolUseId, built.budget) : built.budget;
  const spec: AgentSpec = budget && Object.keys(budget).length ? { ...built, budget } : built;
  // The child's controller is made by the agent registry, linked to `signal`: the call's step, or the
  // parent's own signal for a background child (which outlives the call).
  const watch = watchChildRecord(ports.bus, agentId);
  const child = await ports.run(named(spec, o.name), signal).finally(() => watch.stop());
  // The harness, not the child's prose, says what changed: a footer on the result, an event for the hosts.
  const changes = await ports.changes?.manifestOf(identity.agentId);
  if (changes) {
    child.changes = changes;
    await ports.bus.emit(identity.agentId, parent.agentId, { type: 'change_manifest', ...changes });
  }
  // Its report, held to what it did (and defanged) before the parent or the summary sees it.
  const watched = (path: string): boolean => ports.changes?.watches(path) ?? false;
  const checked = await checkChildReport(child, { calls: watch.stop(), ...(changes ? { manifest: changes } : {}), workdir: ports.config.workdir, watched }, (body) => ports.bus.emit(agentId, parent.agentId, body).then(() => undefined));
  o.onChildFinished(child, o.description);
  hookFailures.push(...(await ports.hooks.runSubagentStop({ agent: identity, status: child.status, result: child.result, turns: child.turns })));
  for (const failure of hookFailures) {
    await ports.bus.emit(identity.agentId, parent.agentId, { type: 'error', message: `hook failed: ${failure}`, retrying: false });
  }
  return withReportNotes(withManifestFooter(o.toToolResult(child, signal.aborted), changes), checked);
}

/** The spec with the call's name (recorded on agent_started: send_message and read_subagent find it by it). */
function named(spec: AgentSpec, name: string | undefined): AgentSpec {
  return name ? { ...spec, name } : spec;
}
