/**
 * The editor's side of "a session is its transcript": where this workspace's transcripts live, the
 * history list for the panel, and a session's view rebuilt from its transcript (the same reducer the
 * live panel uses, so a reopened session looks exactly as it did — interrupted runs marked as such).
 */
import type * as vscode from 'vscode';
import { join } from 'node:path';
import type { SessionListItem } from '../protocol';
import { applyEvents, createSessionView, settleInterrupted, type SessionViewState } from '../view-model/session-view';
import { history } from '../core/session/history';

/** The key under which the open session's id survives a window reload or an editor restart. */
export const OPEN_SESSION_KEY = 'delegate.openSession';

export function transcriptRootOf(context: vscode.ExtensionContext): string {
  const storage = context.storageUri ?? context.globalStorageUri;
  return join(storage.fsPath, 'sessions');
}

export async function historyList(root: string, running: string | undefined): Promise<SessionListItem[]> {
  const sessions = await history(root).list();
  return sessions.map((s) => ({
    id: s.id,
    title: s.title,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    prompts: s.prompts,
    turns: s.turns,
    tokens: s.tokens,
    status: s.id === running ? 'running' : s.status,
    ...(s.subagents && s.id !== running ? { subagents: s.subagents } : {}),
  }));
}

/** The view of a session that is not running in this window, or undefined when it has no transcript. */
export async function loadSessionView(root: string, id: string): Promise<SessionViewState | undefined> {
  const events = await history(root).read(id);
  if (!events || events.length === 0) return undefined;
  const view = createSessionView();
  applyEvents(view, events);
  settleInterrupted(view, 'the editor closed or reloaded while it ran');
  return view;
}
