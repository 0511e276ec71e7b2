/**
 * The editor's side of a task's Changes row (webview/changes-row.ts):
 *
 *   file clicked ──▶ diff of the kept contents (before → after), served from the session folder under the
 *                    `delegate-change:` scheme, so it works in a reopened session too; after a refused
 *                    revert: the subagent's version → the file as it is now
 *   a write/edit row's diff ──▶ the same, for the one change that call made
 *   changes bar  ──▶ Review: every file the last run changed in one multi-file diff (vscode.changes);
 *                    Revert: the run's subagents, one modal for all of them (run-review.ts has the words)
 *   Revert…      ──▶ plan from the transcript ─▶ modal listing the files (and the commands it cannot undo);
 *                   a shared file is left alone unless the user checked it in the Changes row
 *                ─▶ revert (through the live session when it is open here) ─▶ one message; refused files
 *                   offer their diffs
 */
import * as vscode from 'vscode';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { allTasks, type TaskChangeFile, type TaskNode } from '../view-model/session-view';
import { describePlanFile, describeRunRevert, reviewTitle, runRevertSummary, sharedInRun } from './run-review';
import { getTool, toolNodeId } from '../view-model/store';
import { runChanges } from '../view-model/run-changes';
import type { SessionController } from './session-controller';
import { history, type RevertPlan, type RevertReport } from '../core/session/history';
import { CHANGE_SCHEME, keptContentOf, keptContentParts, reviewEntry } from './kept-content';
import { transcriptRootOf } from './session-history';
import { KEPT_SCHEME, LandActions } from './land-actions';

const folderPath = (): string | undefined => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;

/** A kept content of the session (none: the side where the file did not exist), under the workspace file's path. */
const keptContentUri = (sessionId: string, hash: string | undefined, path: string): vscode.Uri => vscode.Uri.from(keptContentParts(folderPath(), sessionId, hash, path));

/** The modal; tests replace it (a modal cannot be answered from the extension host). */
export type ConfirmRevert = (message: string, detail: string) => Promise<boolean>;

const modalConfirm: ConfirmRevert = async (message, detail) =>
  (await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Revert')) === 'Revert';

/** The Changes row's actions, and the read-only documents of kept contents their diffs open. */
export function registerChangeActions(context: vscode.ExtensionContext, controller: SessionController): ChangeActions {
  const changes = new ChangeActions(controller, () => transcriptRootOf(context));
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, changes), vscode.workspace.registerTextDocumentContentProvider(KEPT_SCHEME, changes.land), changes.land);
  return changes;
}

export class ChangeActions implements vscode.TextDocumentContentProvider {
  confirm: ConfirmRevert = modalConfirm;
  /** The last revert's report (for tests and diagnostics). */
  lastReport: RevertReport | undefined;
  /** Isolated subagents' kept work: Apply, Discard, Open diff (the kept-in-worktrees bar). */
  readonly land: LandActions;

  constructor(
    private readonly controller: SessionController,
    private readonly transcriptRoot: () => string,
  ) {
    this.land = new LandActions(controller, transcriptRoot);
  }

  /** `delegate-change:<the file's path>?session=<id>&blob=<hash or "none">`: kept content, read-only (kept-content.ts). */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { sessionId, hash } = keptContentOf(uri.query) ?? {};
    if (!sessionId) return '';
    const bytes = await history(this.transcriptRoot()).blob(sessionId, hash);
    return bytes ? bytes.toString('utf8') : '';
  }

  /** The diff of one write/edit call (its row's action); false when the call changed nothing that was kept. */
  async openToolChange(toolUseId: string): Promise<boolean> {
    const change = getTool(this.controller.snapshot().state, toolNodeId(toolUseId))?.change;
    const sessionId = this.controller.openSessionId;
    if (!change || !sessionId) return false;
    const side = (hash: string | undefined): vscode.Uri => keptContentUri(sessionId, hash, change.path);
    await vscode.commands.executeCommand('vscode.diff', side(change.before), side(change.after), `${change.path} (Delegate change)`, { preview: true });
    return true;
  }

  async openChange(agentId: string, path: string): Promise<void> {
    const found = this.fileOf(agentId, path);
    const sessionId = this.controller.openSessionId;
    if (!found || !sessionId) return;
    const { task, file } = found;
    const side = (hash: string | undefined): vscode.Uri => keptContentUri(sessionId, hash, path);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (file.revert?.outcome === 'refused' && file.revert.expected && folder) {
      await vscode.commands.executeCommand('vscode.diff', side(file.revert.expected), vscode.Uri.joinPath(folder, path), `${path}: "${task.description}" left ↔ now`, { preview: true });
      return;
    }
    await vscode.commands.executeCommand('vscode.diff', side(file.before), side(file.after), `${path} (changes of "${task.description}")`, { preview: true });
  }

  /** Confirms, reverts, reports; every problem is a message, nothing throws. `includeShared`: the shared files the user checked. */
  async revert(agentId: string, includeShared: readonly string[] = []): Promise<void> {
    const sessionId = this.controller.openSessionId;
    if (!sessionId) return;
    const sessions = history(this.transcriptRoot());
    const plan = await sessions.revertPlan(sessionId, agentId);
    if ('error' in plan) {
      void vscode.window.showWarningMessage(`Delegate: cannot revert: ${plan.error}.`);
      return;
    }
    if (plan.files.length === 0) {
      void vscode.window.showInformationMessage(`Delegate: nothing to revert: ${plan.description} has no file changes left to undo.`);
      return;
    }
    const include = plan.files.filter((f) => f.shared && includeShared.includes(f.path)).map((f) => f.path);
    if (plan.files.every((f) => f.shared && !include.includes(f.path))) {
      void vscode.window.showInformationMessage(
        `Delegate: nothing reverted: every file ${plan.description} changed is shared with another agent's call that ran at the same time. Check the ones to revert in its Changes row.`,
      );
      return;
    }
    if (!(await this.confirm(`Revert the changes of ${plan.description}?`, describePlan(plan, include)))) return;
    const live = this.controller.current;
    let report: Awaited<ReturnType<typeof sessions.revert>>;
    try {
      report = await sessions.revert(sessionId, plan, live?.id === sessionId ? live : undefined, { includeShared: include });
    } catch (err) {
      void vscode.window.showErrorMessage(`Delegate: cannot revert now: ${err instanceof Error ? err.message : String(err)}.`);
      return;
    }
    if (live?.id !== sessionId) this.controller.showRecorded(report.recorded);
    this.lastReport = report;
    const refused = report.files.filter((f) => f.outcome === 'refused');
    const skipped = report.files.filter((f) => f.outcome === 'skipped');
    const done = report.files.length - refused.length - skipped.length;
    const text = `Delegate: reverted ${done} file${done === 1 ? '' : 's'} of ${plan.description}${skipped.length ? `; left ${skipped.length} shared file${skipped.length === 1 ? '' : 's'} alone (${skipped.map((f) => f.path).join(', ')}: check ${skipped.length === 1 ? 'it' : 'them'} in the Changes row to include)` : ''}`;
    if (refused.length === 0) {
      void (skipped.length ? vscode.window.showWarningMessage(`${text}.`) : vscode.window.showInformationMessage(`${text}.`));
      return;
    }
    const choice = await vscode.window.showWarningMessage(`${text}; ${refused.length} not reverted: ${refused.map((f) => `${f.path} (${f.reason ?? 'refused'})`).join('; ')}.`, 'Show Diffs');
    if (choice) for (const f of refused) await this.openChange(agentId, f.path);
  }

  /**
   * The changes bar's Review (`path`: one file's row in the bar); false when nothing Delegate kept changed.
   * `kept`: the files the user kept in the bar (run-changes.ts keptKey), which it no longer shows.
   */
  async reviewRun(kept: readonly string[] = [], path?: string): Promise<boolean> {
    const sessionId = this.controller.openSessionId;
    const run = runChanges(this.controller.snapshot().state, new Set(kept));
    const files = path === undefined ? run.files : run.files.filter((f) => f.path === path);
    if (!sessionId || files.length === 0) return false;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uris = {
      workspaceFile: (p: string): vscode.Uri => (folder ? vscode.Uri.joinPath(folder, p) : keptContentUri(sessionId, undefined, p)),
      kept: (hash: string, p: string): vscode.Uri => keptContentUri(sessionId, hash, p),
    };
    const exists = async (p: string): Promise<boolean> => (folder ? stat(join(folder.fsPath, p)).then(() => true, () => false) : false);
    const resources = await Promise.all(files.map(async (f) => reviewEntry(f, uris, await exists(f.path))));
    const first = resources[0];
    if (path !== undefined && first) {
      // One file: its own diff (an added or deleted file against an empty side), labelled by its path.
      const [, original, modified] = first;
      await vscode.commands.executeCommand('vscode.diff', original ?? keptContentUri(sessionId, undefined, path), modified ?? keptContentUri(sessionId, undefined, path), `${path} (Delegate: ${runFileWord(files[0])})`, { preview: true });
      return true;
    }
    try {
      await vscode.commands.executeCommand('vscode.changes', reviewTitle(run), resources);
    } catch {
      // An editor without the multi-file diff: the first file's diff (the others are one click away in the panel).
      const one = run.files[0];
      if (one) await vscode.commands.executeCommand('vscode.diff', keptContentUri(sessionId, one.before, one.path), keptContentUri(sessionId, one.after, one.path), `${one.path} (Delegate change)`, { preview: true });
    }
    return true;
  }

  /**
   * The changes bar's Revert (every file it shows) and a file's Undo (`paths`: that file): one modal for the run's
   * subagents when there are several (none for one file's Undo: its row named it), then each one's revert, the
   * last to change first (an earlier one's content check would refuse a file a later one changed after it); one
   * message. `paths` limits each revert to those files; a file shared with a call outside the run is left alone.
   */
  async revertRun(agentIds: string[], paths?: readonly string[]): Promise<void> {
    const sessionId = this.controller.openSessionId;
    if (!sessionId || agentIds.length === 0) return;
    if (agentIds.length === 1 && paths === undefined) return this.revert(agentIds[0] as string);
    const sessions = history(this.transcriptRoot());
    const plans: RevertPlan[] = [];
    for (const agentId of agentIds) {
      const plan = await sessions.revertPlan(sessionId, agentId);
      if ('error' in plan) {
        void vscode.window.showWarningMessage(`Delegate: cannot revert: ${plan.error}.`);
        return;
      }
      const files = paths === undefined ? plan.files : plan.files.filter((f) => paths.includes(f.path));
      if (files.length) plans.push({ ...plan, files });
    }
    if (plans.length === 0) {
      void vscode.window.showInformationMessage(`Delegate: nothing to revert: ${paths?.length === 1 ? `${paths[0]} has` : 'the run has'} no change left to undo.`);
      return;
    }
    const oneFile = paths?.length === 1;
    const run = runChanges(this.controller.snapshot().state);
    if (!oneFile && !(await this.confirm(`Revert the changes of the last run's ${plans.length} subagent${plans.length === 1 ? '' : 's'}?`, describeRunRevert(plans, run.byMainAgent, agentIds)))) return;
    const live = this.controller.current;
    const refused: { path: string; reason?: string }[] = [];
    let done = 0;
    for (const plan of [...plans].reverse()) {
      let report: Awaited<ReturnType<typeof sessions.revert>>;
      try {
        // A file shared only among the run's own subagents is theirs together: put back; shared with others: left alone.
        report = await sessions.revert(sessionId, plan, live?.id === sessionId ? live : undefined, { includeShared: sharedInRun(plan, agentIds) });
      } catch (err) {
        void vscode.window.showErrorMessage(`Delegate: cannot revert now: ${err instanceof Error ? err.message : String(err)}.`);
        return;
      }
      if (live?.id !== sessionId) this.controller.showRecorded(report.recorded);
      this.lastReport = report;
      for (const f of report.files) {
        if (f.outcome === 'refused' || f.outcome === 'skipped') refused.push({ path: f.path, ...(f.reason ? { reason: f.reason } : {}) });
        else done++;
      }
    }
    // One file's Undo: a file reverted by two subagents is one file put back.
    const text = oneFile ? fileUndoSummary(paths[0] as string, refused) : runRevertSummary(done, refused);
    if (refused.length === 0) void vscode.window.showInformationMessage(text);
    else void vscode.window.showWarningMessage(text);
  }

  private fileOf(agentId: string, path: string): { task: TaskNode; file: TaskChangeFile } | undefined {
    const task = allTasks(this.controller.snapshot().state).find((t) => t.agentId === agentId);
    const file = task?.changes?.files.find((f) => f.path === path);
    return task && file ? { task, file } : undefined;
  }
}

/** The word of a file's own diff title. */
function runFileWord(file: { before?: string; after?: string } | undefined): string {
  return file?.before === undefined ? 'added' : file.after === undefined ? 'deleted' : 'changed';
}

/** The message after one file's Undo. */
function fileUndoSummary(path: string, refused: { path: string; reason?: string }[]): string {
  const why = refused.find((f) => f.path === path);
  return why ? `Delegate: ${path} not put back: ${why.reason ?? 'refused'}.` : `Delegate: ${path} put back as it was before the run.`;
}

/** The modal's detail: each file and what the revert will do to it, then the commands it cannot undo. */
function describePlan(plan: RevertPlan, includeShared: readonly string[]): string {
  const lines = plan.files.map((f) => describePlanFile(f, includeShared.includes(f.path)));
  lines.push('', 'A file changed since by someone else is left alone (you get its diff).');
  if (plan.commands.length) lines.push(`The files its commands changed are listed above; nothing else they did is undone: ${plan.commands.map((c) => `\`${c}\``).join(', ')}.`);
  return lines.join('\n');
}
