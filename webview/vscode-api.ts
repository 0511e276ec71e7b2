/**
 * The webview's link to the host: the typed `acquireVsCodeApi` handle (posting
 * `WebviewToHost` messages) and the small state VS Code keeps across panel reloads —
 * the user's expand/collapse choices and the unsent prompt draft.
 */
import type { PromptHandoff, WebviewToHost } from '../src/protocol';

export interface PersistedState {
  v: 1;
  /** Node id → open, only for nodes the user toggled. */
  expanded: Record<string, boolean>;
  draft: string;
  /** The agent a handoff button named for the draft (the line above the prompt box). */
  draftHandoff?: PromptHandoff;
  /** Files the user kept in the changes bar (run-changes.ts keptKey), newest last. */
  kept?: string[];
}

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = acquireVsCodeApi();

/** What the panel says or asks that never opens the editor's UI; any other request may (a quick pick, an input box, a diff). */
const QUIET = new Set<WebviewToHost['type']>(['focus', 'ready', 'node_detail', 'prompt', 'stop', 'stop_agent', 'inbox_answer', 'inbox_fanout', 'inbox_reply']);
let askedAt = -Infinity;

export function post(message: WebviewToHost): void {
  if (!QUIET.has(message.type)) askedAt = performance.now();
  api.postMessage(message);
}

/** When the panel last asked the host for something that may take the focus (performance.now() time). */
export const lastAskedAt = (): number => askedAt;

export function loadState(): PersistedState {
  const raw = api.getState();
  const empty: PersistedState = { v: 1, expanded: {}, draft: '' };
  if (typeof raw !== 'object' || raw === null) return empty;
  const r = raw as Partial<PersistedState>;
  const expanded: Record<string, boolean> = {};
  if (typeof r.expanded === 'object' && r.expanded !== null) {
    for (const [id, open] of Object.entries(r.expanded)) if (typeof open === 'boolean') expanded[id] = open;
  }
  const kept = Array.isArray(r.kept) ? r.kept.filter((k): k is string => typeof k === 'string') : [];
  const h = r.draftHandoff;
  const handoff = typeof h === 'object' && h !== null && typeof h.agent === 'string' && typeof h.label === 'string' ? { agent: h.agent, label: h.label, ...(typeof h.model === 'string' ? { model: h.model } : {}) } : undefined;
  return { v: 1, expanded, draft: typeof r.draft === 'string' ? r.draft : '', ...(handoff ? { draftHandoff: handoff } : {}), ...(kept.length ? { kept } : {}) };
}

export function saveState(state: PersistedState): void {
  api.setState(state);
}
