/**
 * The one message union between the extension host and the webview; both builds import it.
 * The host keeps the state: on (re)load the webview gets one snapshot, then batches of events.
 */
import type { DelegateEvent } from './core/events';
import type { SessionViewState } from './view-model/session-view';

export type HostToWebview =
  | { type: 'snapshot'; state: SessionViewState; running: boolean }
  | { type: 'events'; events: DelegateEvent[] }
  | { type: 'status'; running: boolean }
  /** Absolute paths of the workspace folders: markdown links may open files inside them only. */
  | { type: 'workspace'; folders: string[] }
  | { type: 'user_prompt'; text: string; time: number };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  | { type: 'stop' }
  /** `line` is 1-based; the host reveals it. */
  | { type: 'open_file'; path: string; line?: number }
  /** An http(s) link in model text; the host checks the scheme again before opening it. */
  | { type: 'open_external'; url: string }
  | { type: 'open_diff'; agentId: string; toolUseId: string };
