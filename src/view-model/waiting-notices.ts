/**
 * "No answer from the API yet": a warning on a subagent's task node, or one notice for the main agent updated in
 * place while it waits; when the answer comes, the warning goes and the notice says how long it took.
 */
import type { EventOf } from '../core/events';
import { getTask, placeNode, type Touched } from './store';
import type { SessionViewState } from './types';

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/** No answer yet: a warning on a subagent's node, one notice (updated in place) for the main agent. */
export function onWaiting(state: SessionViewState, e: EventOf<'waiting'>, touched: Touched): void {
  const text = `No answer from the API yet: waited ${seconds(e.waitedMs)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}.`;
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  if (task) {
    task.warning = text;
    touched.add(task.id);
    return;
  }
  const id = `waiting:${e.agentId}:${e.turn}`;
  const existing = state.nodes[id];
  if (existing?.kind === 'notice') {
    existing.text = text;
    existing.waitedMs = e.waitedMs;
    touched.add(id);
    return;
  }
  placeNode(state, { kind: 'notice', id, level: 'warning', text, time: e.time, waitedMs: e.waitedMs }, null, touched);
}

/** The answer came: a waiting warning becomes a note of how long it took. */
export function settleWaiting(state: SessionViewState, e: EventOf<'usage'>, touched: Touched): void {
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  if (task?.warning?.startsWith('No answer from the API yet')) {
    delete task.warning;
    touched.add(task.id);
  }
  const notice = state.nodes[`waiting:${e.agentId}:${e.turn}`];
  if (notice?.kind === 'notice' && notice.level === 'warning') {
    notice.level = 'info';
    notice.text = `The API answered after a wait of over ${seconds(notice.waitedMs ?? 0)}.`;
    touched.add(notice.id);
  }
}
