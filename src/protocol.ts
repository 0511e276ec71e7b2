/**
 * The one message union between the extension host and the webview; both builds import it.
 * The host keeps the state: on (re)load the webview gets one snapshot, then batches of events.
 */
import type { DelegateEvent } from './core/events';
import type { SessionStatus } from './core/store/session-index';
import type { SessionViewState } from './view-model/session-view';

/** One row of the history list (a session of this workspace). */
export interface SessionListItem {
  id: string;
  title: string;
  startedAt: number;
  updatedAt: number;
  prompts: number;
  turns: number;
  tokens: number;
  status: SessionStatus | 'running';
}

export type HostToWebview =
  | { type: 'snapshot'; state: SessionViewState; running: boolean }
  | { type: 'events'; events: DelegateEvent[] }
  | { type: 'status'; running: boolean }
  | { type: 'user_prompt'; text: string; time: number }
  /** Shows the history list (newest first); `currentId` is the session open in the panel. */
  | { type: 'history'; sessions: SessionListItem[]; currentId?: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  | { type: 'stop' }
  /** Stops one subagent (the task node's Stop action); the parent goes on. */
  | { type: 'stop_agent'; agentId: string }
  | { type: 'show_history' }
  | { type: 'open_session'; id: string }
  | { type: 'new_session' }
  | { type: 'open_file'; path: string }
  | { type: 'open_diff'; agentId: string; toolUseId: string };
