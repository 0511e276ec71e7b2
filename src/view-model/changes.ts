/**
 * Reducer cases for what agents changed: each change lands on the call that made it (its row's diff, kept
 * contents, so it opens in a reopened session too), a finished subagent's manifest on its task node (the
 * "Changes" row), and a revert marks each of its files with what happened, plus one notice in the
 * conversation so a reopened session shows that a revert was made.
 */
import type { EventOf } from '../core/events';
import { getTool, nextLocalId, placeNode, taskOfAgent, toolNodeId, type Touched } from './store';
import { DIFF_PREVIEW_LIMIT, type SessionViewState } from './types';

/** The row's "+a −b", its inline hunks (cut at a line's end), and the hashes the host's diff editor opens. */
export function onFileChanged(state: SessionViewState, e: EventOf<'file_changed'>, touched: Touched): void {
  const tool = getTool(state, toolNodeId(e.toolUseId));
  if (!tool) return;
  const diff = e.diff === undefined ? undefined : cutAtLine(e.diff, DIFF_PREVIEW_LIMIT);
  tool.change = {
    path: e.path,
    ...(e.before ? { before: e.before } : {}),
    ...(e.after ? { after: e.after } : {}),
    added: e.added,
    removed: e.removed,
    ...(diff ? { diff: diff.text } : {}),
    ...(diff?.truncated ? { diffTruncated: true } : {}),
  };
  touched.add(tool.id);
}

function cutAtLine(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const end = text.lastIndexOf('\n', limit);
  return { text: text.slice(0, end > 0 ? end : limit), truncated: true };
}

export function onChangeManifest(state: SessionViewState, e: EventOf<'change_manifest'>, touched: Touched): void {
  const task = taskOfAgent(state, e.agentId);
  if (!task) return;
  task.changes = { files: e.files.map((f) => ({ ...f })), commands: e.commands };
  touched.add(task.id);
}

export function onChangesReverted(state: SessionViewState, e: EventOf<'changes_reverted'>, touched: Touched): void {
  const task = taskOfAgent(state, e.target);
  if (task?.changes) {
    task.changes.reverted = true;
    for (const outcome of e.files) {
      const file = task.changes.files.find((f) => f.path === outcome.path);
      if (file) file.revert = { outcome: outcome.outcome, ...(outcome.reason ? { reason: outcome.reason } : {}), ...(outcome.expected ? { expected: outcome.expected } : {}) };
    }
    touched.add(task.id);
  }
  const refused = e.files.filter((f) => f.outcome === 'refused').length;
  const skipped = e.files.filter((f) => f.outcome === 'skipped').length;
  const done = e.files.length - refused - skipped;
  const name = task ? `"${task.description}"` : e.target;
  const parts = [
    `${done} file${done === 1 ? '' : 's'} put back`,
    ...(refused ? [`${refused} refused (changed since by someone else)`] : []),
    ...(skipped ? [`${skipped} skipped (shared with another agent's call)`] : []),
  ];
  const commands = e.commands.length ? ` Commands are not undone: ${e.commands.map((c) => `\`${c}\``).join(', ')}.` : '';
  placeNode(state, { kind: 'notice', id: nextLocalId(state, 'notice'), level: refused || skipped ? 'warning' : 'info', text: `Reverted the changes of ${name}: ${parts.join(', ')}.${commands}`, time: e.time }, null, touched);
}

/** How the panel names the agent behind a call: its task's description, else the main agent. */
export function agentLabel(state: SessionViewState, agentId: string): string {
  const task = taskOfAgent(state, agentId);
  return task ? `"${task.description}"` : 'the main agent';
}

/**
 * A write the stale-write guard refused, and why (the row says so rather than a bare "error"): the file changed
 * since the agent read it (`stale`), or the agent never read it (`unread`). The words are stale-guard.ts's.
 */
export function refusalOf(output: string | undefined): 'stale' | 'unread' | undefined {
  if (output === undefined || !output.startsWith('Refused: ')) return undefined;
  if (/^Refused: .* changed since you last read it/.test(output)) return 'stale';
  if (/^Refused: .* and you have not read it/.test(output)) return 'unread';
  return undefined;
}
