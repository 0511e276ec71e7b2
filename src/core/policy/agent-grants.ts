/**
 * "Allow for this subagent" and "Allow for this task's subagents": answers that cover one kind of call for one
 * agent, or for a task's whole subtree, instead of the whole session.
 *
 *   answer allow_agent{agent}  ─▶ grant(kind of call) on that agent
 *   answer allow_task{agent}   ─▶ grant on the task it belongs to: its depth-1 ancestor, so every agent under that task
 *   a later ask by X           ─▶ X's own grant, or its task's? allowed : asked as before
 *
 * The kind of call: every write in the workspace (a write to a protected path: that path only, permissions.ts);
 * every command of that exec tool; that external tool; web_fetch to that host. Only a question is skipped: what the mode or a rule refuses stays refused, and a private destination is
 * still asked by host (the policy checks those before). Grants never reach the main agent or a sibling task.
 */
import type { AgentIdentity } from '../vocabulary';
import type { ToolCallRequest } from './types';
import { fetchHostOf, WEB_FETCH } from './web-fetch-policy';

/** Who an agent's parent is (the session's agents, running or finished); null for the root. */
export type ParentOf = (agentId: string) => string | null | undefined;

function keyOf(req: ToolCallRequest): string | undefined {
  if (req.toolName === WEB_FETCH) {
    const host = fetchHostOf(req);
    return host === undefined ? undefined : `host\0${host}`;
  }
  if (req.kind === 'write') return 'write';
  if (req.kind === 'exec') return `exec\0${req.toolName}`;
  if (req.kind === 'external') return `tool\0${req.toolName}`;
  return undefined;
}

export class AgentGrants {
  /** Answers for one agent alone, and answers for a task (held by its depth-1 agent, reaching its descendants). */
  readonly #own = new Map<string, Set<string>>();
  readonly #task = new Map<string, Set<string>>();

  constructor(private readonly parentOf: ParentOf) {}

  /** Remembers the answer for the asking agent alone, or for its whole task; `key`: a narrower kind of call. */
  remember(req: ToolCallRequest, scope: 'agent' | 'task', key = keyOf(req)): void {
    const holder = scope === 'agent' ? req.agent.agentId : this.taskOf(req.agent);
    if (key === undefined || holder === undefined) return;
    const grants = scope === 'agent' ? this.#own : this.#task;
    let keys = grants.get(holder);
    if (!keys) grants.set(holder, (keys = new Set()));
    keys.add(key);
  }

  /** Whether an answer covers this call: one given for its agent alone, or for the task it works under. */
  covers(req: ToolCallRequest, key = keyOf(req)): boolean {
    if (key === undefined || (this.#own.size === 0 && this.#task.size === 0)) return false;
    if (this.#own.get(req.agent.agentId)?.has(key)) return true;
    const task = this.taskOf(req.agent);
    return task !== undefined && this.#task.get(task)?.has(key) === true;
  }

  /** The task an agent works under: its ancestor at depth 1 (itself at depth 1); none for the main agent. */
  private taskOf(agent: AgentIdentity): string | undefined {
    if (agent.depth < 1) return undefined;
    let id: string = agent.agentId;
    for (let depth = agent.depth; depth > 1; depth--) {
      const parent = this.parentOf(id);
      if (!parent) return undefined;
      id = parent;
    }
    return id;
  }
}
