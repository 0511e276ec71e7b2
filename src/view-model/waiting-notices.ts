/**
 * "No answer from the API yet", or "the API asked to wait 30 s (rate limited, 429)" before a retry: a warning on a
 * subagent's task node, or one notice for the main agent updated in place while it waits; when the answer comes,
 * the warning goes and the notice says how long it took.
 */
import type { EventOf } from '../core/events';
import { getTask, placeNode, type Touched } from './store';
import type { SessionViewState } from './types';

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/** What the panel says of a wait: still no answer, or a refusal and the wait the retry comes after. */
function waitingText(e: EventOf<'waiting'>): string {
  const r = e.retry;
  if (!r) return `No answer from the API yet: waited ${seconds(e.waitedMs)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}.`;
  const wait = `${Math.ceil(r.waitMs / 1000)} s`;
  const at = new Date(e.time + r.waitMs).toLocaleTimeString('en-GB');
  return r.asked
    ? `The API asked to wait ${wait} (${r.reason}, ${r.status}): attempt ${e.attempt + 1} at ${at}.`
    : `The API refused the request (${r.reason}, ${r.status}): attempt ${e.attempt + 1} in ${wait}.`;
}

/** No answer yet: a warning on a subagent's node, one notice (updated in place) for the main agent. */
export function onWaiting(state: SessionViewState, e: EventOf<'waiting'>, touched: Touched): void {
  const text = waitingText(e);
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  if (task) {
    task.warning = text;
    touched.add(task.id);
    return;
  }
  const id = `waiting:${e.agentId}:${e.turn}`;
  const existing = state.nodes[id];
  // A retry comes after its wait: the answer, if it comes, has taken at least that long.
  const waitedMs = e.waitedMs + (e.retry?.waitMs ?? 0);
  if (existing?.kind === 'notice') {
    existing.text = text;
    existing.level = 'warning';
    existing.waitedMs = waitedMs;
    touched.add(id);
    return;
  }
  placeNode(state, { kind: 'notice', id, level: 'warning', text, time: e.time, waitedMs }, null, touched);
}

/** The answer came: a waiting warning becomes a note of how long it took. */
export function settleWaiting(state: SessionViewState, e: EventOf<'usage'>, touched: Touched): void {
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  if (task?.warning && /^(No answer from the API yet|The API asked to wait|The API refused the request)/.test(task.warning)) {
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
