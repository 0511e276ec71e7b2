/**
 * Low-level helpers of the view reducer over the normalised store: typed node lookup, placing
 * a new node in its agent's container (the conversation for a root agent, the task node's
 * children for a subagent), and walking up the agent chain.
 */
import type { AgentEntry, SessionViewState, TaskNode, ToolCallNode, ViewNode } from './types';

/** Ids of nodes whose rendering changed; the webview re-renders exactly these. */
export type Touched = Set<string>;

export function getTask(state: SessionViewState, id: string | null | undefined): TaskNode | undefined {
  if (!id) return undefined;
  const node = state.nodes[id];
  return node?.kind === 'task' ? node : undefined;
}

export function getTool(state: SessionViewState, id: string): ToolCallNode | undefined {
  const node = state.nodes[id];
  return node?.kind === 'tool' ? node : undefined;
}

export const taskNodeId = (toolUseId: string): string => `task:${toolUseId}`;
export const toolNodeId = (toolUseId: string): string => `tool:${toolUseId}`;

/** The task node of an agent, or undefined for a root (or unknown) agent. */
export function taskOfAgent(state: SessionViewState, agentId: string | null): TaskNode | undefined {
  if (agentId === null) return undefined;
  return getTask(state, state.agents[agentId]?.taskId);
}

/**
 * Adds a node and links it at the end of the container of `ownerAgentId`: the conversation
 * when the owner is a root agent (or unknown), else the owner's task node children.
 */
export function placeNode(state: SessionViewState, node: ViewNode, ownerAgentId: string | null, touched: Touched): void {
  state.nodes[node.id] = node;
  touched.add(node.id);
  const container = taskOfAgent(state, ownerAgentId);
  if (container) {
    container.children.push(node.id);
    touched.add(container.id);
  } else {
    state.items.push(node.id);
  }
}

/** Calls `visit` for the task node of `agentId` and of each ancestor (bounded by depth). */
export function forEachTaskUpward(state: SessionViewState, agentId: string, visit: (task: TaskNode) => void): void {
  let entry: AgentEntry | undefined = state.agents[agentId];
  for (let guard = 0; entry && guard < 64; guard++) {
    const task = getTask(state, entry.taskId);
    if (task) visit(task);
    entry = entry.parentId === null ? undefined : state.agents[entry.parentId];
  }
}

export function nextLocalId(state: SessionViewState, prefix: string): string {
  state.nextLocalId += 1;
  return `${prefix}:${state.nextLocalId}`;
}
