/**
 * One `task` call's subagent, from start to the result its parent gets:
 *
 *   SubagentStart hooks ─▶ runAgent(child) ─▶ change manifest (footer + event) ─▶ SubagentStop hooks ─▶ result
 *      │                                                                                                │
 *      └──────────── re-run with an edited prompt (a new child on the same task node) ◀── review ◀──────┘
 *
 * Review is opt-in and the editor's (`delegate.reviewSubagentResults`): a finished child's result waits on
 * its node for Accept, Edit result or Re-run; the parent gets only what the user accepted.
 */
import type { AgentDefinition } from '../agents/agent-definition';
import { childSpec } from '../agents/agent-spec';
import { withManifestFooter } from '../changes/change-manifest';
import type { ToolResult } from '../tools/types';
import { FORK_AGENT_TYPE, forkSpec, type ForkBase } from './fork';
import { runAgent } from './loop';
import type { AgentResult, RunServices } from './types';
import { narrowMode, type AgentIdentity } from '../vocabulary';

export type ReviewDecision = { action: 'accept' } | { action: 'edit'; result: string } | { action: 'rerun'; prompt: string };

export interface ReviewRequest {
  agentId: string;
  parentId: string;
  description: string;
  prompt: string;
  result: string;
  isError: boolean;
}

/** The host's review of a finished child (the editor shows it on the task node); resolves with the user's choice. */
export type ReviewGate = (request: ReviewRequest, signal: AbortSignal) => Promise<ReviewDecision>;

export interface ChildRun {
  def: AgentDefinition;
  parent: AgentIdentity;
  description: string;
  toolUseId: string;
  parentModel: string;
  services: RunServices;
  onChildFinished(child: AgentResult, description: string): void;
  toToolResult(child: AgentResult, parentStopped: boolean): ToolResult;
  /** A fork: it starts from this (the parent at the call) rather than from `def`. */
  fork?: ForkBase;
}

/** Runs the child (again, while the review asks for a re-run); `firstId` is the first child's agent id. */
export async function runReviewedChild(o: ChildRun, prompt: string, firstId: string, signal: AbortSignal): Promise<ToolResult> {
  let agentId = firstId;
  for (;;) {
    const result = await runChildOnce(o, prompt, agentId, signal);
    const review = o.services.review;
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
  const hookFailures = await services.hooks.runSubagentStart({ agent: identity, prompt });
  const spec = o.fork
    ? forkSpec(o.fork, { identity, prompt, toolUseId: o.toolUseId, services })
    : childSpec({ def, identity, prompt, toolUseId: o.toolUseId, parentModel: o.parentModel, services });
  // The child's controller is made by the agent registry, linked to `signal`: the call's step, or the
  // parent's own signal for a background child (which outlives the call).
  const child = await runAgent(spec, services, signal);
  // The harness, not the child's prose, says what changed: a footer on the result, an event for the hosts.
  const changes = await services.changes?.manifestOf(identity.agentId);
  if (changes) {
    child.changes = changes;
    await services.bus.emit(identity.agentId, parent.agentId, { type: 'change_manifest', ...changes });
  }
  o.onChildFinished(child, o.description);
  hookFailures.push(...(await services.hooks.runSubagentStop({ agent: identity, status: child.status, result: child.result, turns: child.turns })));
  for (const failure of hookFailures) {
    await services.bus.emit(identity.agentId, parent.agentId, { type: 'error', message: `hook failed: ${failure}`, retrying: false });
  }
  return withManifestFooter(o.toToolResult(child, signal.aborted), changes);
}
