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
  | { type: 'user_prompt'; text: string; time: number };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  | { type: 'stop' }
  | { type: 'open_file'; path: string }
  | { type: 'open_diff'; agentId: string; toolUseId: string };
