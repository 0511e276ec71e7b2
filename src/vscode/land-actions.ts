/**
 * The editor's side of the kept-in-worktrees bar (webview/kept-bar.ts): isolated subagents' kept work, landed or
 * discarded through the history face (core/session/land-isolated.ts), and the diff of one kept file.
 *
 *   Apply / Apply all ──▶ history.land(session, agents) ─▶ (check on the combination) ─▶ 3-way merge per file
 *                     ──▶ `changes_landed` (through the live session's bus when it is open here, else appended and
 *                         shown) ─▶ the bar redraws from it; one message says what happened
 *   Discard           ──▶ a modal naming the subagents ─▶ history.land(…, discard): their branches go
 *   Open diff         ──▶ vscode.diff(the workspace's file, delegate-kept: the branch's version)
 *   Resolve           ──▶ controller.resolveConflicts ─▶ session.land({resolve, keep}): a resolver subagent (in the
 *                         task tree) settles the child's conflicts in a worktree of its own ─▶ its `worktree_kept`
 *                         (resolves: the child) stands in for the child's in the bar, for Apply; onResolve tells the
 *                         bar it started, ended, or failed and why (one line)
 *
 * Refused while a run goes on: landing writes the workspace the running agents read and write.
 */
import * as vscode from 'vscode';
import { stat } from 'node:fs/promises';
import { history, SessionBusyError, ToolEnv } from '../core/session/history';
import type { SessionController } from './session-controller';
import { allTasks } from '../view-model/session-view';
import { keptWork, landingLine } from '../view-model/kept-work';

/** The bar's Resolve, as the host tells the panel (kept-bar.ts ResolveState). */
export type ResolveState = { agentId: string; state: 'running' | 'done' } | { agentId: string; state: 'failed'; reason: string };

export const KEPT_SCHEME = 'delegate-kept';

/** The modal before a discard; tests replace it. */
export type ConfirmDiscard = (message: string, detail: string) => Promise<boolean>;

const modalConfirm: ConfirmDiscard = async (message, detail) =>
  (await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Discard')) === 'Discard';

type LandResult = Awaited<ReturnType<ReturnType<typeof history>['land']>>;

export class LandActions implements vscode.TextDocumentContentProvider, vscode.Disposable {
  confirm: ConfirmDiscard = modalConfirm;
  /** The last landing's report (for tests and diagnostics). */
  lastReport: LandResult | undefined;
  /** A landing going on: a second click waits for nothing, it is refused (both would read the same transcript). */
  private busy = false;
  private readonly resolveEmitter = new vscode.EventEmitter<ResolveState>();
  /** A Resolve started, ended or failed (the panel's bar shows it). */
  readonly onResolve = this.resolveEmitter.event;
  /** The Resolve going on (a reloaded panel is told again). */
  resolving: string | undefined;

  constructor(
    private readonly controller: SessionController,
    private readonly transcriptRoot: () => string,
  ) {}

  /** `delegate-kept:<the tree's file>?session=<id>&agent=<id>&path=<kept path>`: the file as the branch has it. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const [sessionId, agentId, path] = [q.get('session'), q.get('agent'), q.get('path')];
    if (!sessionId || !agentId || !path) return '';
    const kept = await history(this.transcriptRoot()).keptVersion(sessionId, agentId, path);
    return 'error' in kept || !kept.content ? '' : kept.content.toString('utf8');
  }

  /** Open diff: the workspace's file (left) beside the subagent's kept version of `path` (right). */
  async openDiff(agentId: string, path: string): Promise<boolean> {
    const sessionId = this.controller.openSessionId;
    if (!sessionId) return false;
    const kept = await history(this.transcriptRoot()).keptVersion(sessionId, agentId, path);
    if ('error' in kept) {
      void vscode.window.showWarningMessage(`Delegate: cannot show the diff: ${kept.error}.`);
      return false;
    }
    // Workspace → kept, as a change reads: what Apply would bring in shows as added.
    const keptSide = vscode.Uri.from({ scheme: KEPT_SCHEME, path: kept.treePath, query: new URLSearchParams({ session: sessionId, agent: agentId, path }).toString() });
    // A file the subagent added is not in the workspace yet: an empty side (no "file not found" editor).
    const inTree = await stat(kept.treePath).then(() => true, () => false);
    const treeSide = inTree ? vscode.Uri.file(kept.treePath) : vscode.Uri.from({ scheme: KEPT_SCHEME, path: kept.treePath, query: '' });
    await vscode.commands.executeCommand('vscode.diff', treeSide, keptSide, `${path}: workspace ↔ "${this.describe(agentId)}" kept`, { preview: true });
    return true;
  }

  /** Apply (one), Apply all (the open ones, in order) or Discard; every problem is a message, nothing throws. */
  async land(agentIds: string[], action: 'land' | 'discard'): Promise<void> {
    const sessionId = this.controller.openSessionId;
    if (!sessionId || agentIds.length === 0) return;
    if (this.controller.isRunning) {
      void vscode.window.showInformationMessage('Delegate: a run is going on: apply or discard kept changes once it has ended.');
      return;
    }
    if (this.busy) {
      void vscode.window.showInformationMessage('Delegate: still applying the last choice; try again once it is done.');
      return;
    }
    const names = agentIds.map((id) => `"${this.describe(id)}"`);
    if (action === 'discard' && !(await this.confirm(`Discard the kept changes of ${names.join(', ')}?`, 'Their branches and patches are deleted; nothing in the workspace changes. This cannot be undone.'))) return;
    const live = this.controller.current;
    const onLive = live?.id === sessionId ? live : undefined;
    let report: LandResult;
    this.busy = true;
    try {
      report = await history(this.transcriptRoot()).land(sessionId, { action, agents: agentIds, env: new ToolEnv() }, onLive);
    } catch (err) {
      // SessionBusyError: another process (a CLI run) holds the session.
      const why = err instanceof SessionBusyError || err instanceof Error ? err.message : String(err);
      void vscode.window.showErrorMessage(`Delegate: cannot ${action === 'land' ? 'apply' : 'discard'} now: ${why}.`);
      return;
    } finally {
      this.busy = false;
    }
    this.lastReport = report;
    if ('error' in report) {
      void vscode.window.showWarningMessage(`Delegate: cannot ${action === 'land' ? 'apply' : 'discard'}: ${report.error}.`);
      return;
    }
    if (!onLive) this.controller.showRecorded(report.recorded);
    this.tell(report);
  }

  /**
   * Resolve: the child's conflicts handed to a resolver subagent; its result is kept (standing in for the child's)
   * for the user's Apply. Done when a resolver kept changes for it (or it landed cleanly now); else failed, and why.
   */
  async resolve(agentId: string): Promise<ResolveState> {
    const failed = (reason: string): ResolveState => this.told({ agentId, state: 'failed', reason });
    if (!this.controller.openSessionId) return failed('no session is open');
    if (this.controller.isRunning) return failed('a run is going on: resolve once it has ended');
    if (this.busy || this.resolving) return failed('still applying or resolving the last choice: try again once it is done');
    const standIn = (): string | undefined => keptWork(this.controller.snapshot().state).children.find((c) => c.agentId === agentId)?.resolvedBy;
    // A resolver already standing in (the bar offers no Resolve then; a stale message might): not this one's success.
    const before = standIn();
    this.resolving = agentId;
    this.told({ agentId, state: 'running' });
    let done: Awaited<ReturnType<SessionController['resolveConflicts']>>;
    try {
      done = await this.controller.resolveConflicts([agentId]);
    } finally {
      this.resolving = undefined;
    }
    if ('refused' in done) return failed(oneLine(done.refused));
    // The events are in the view (the bus's listeners ran before land resolved): did a resolver keep changes for it?
    const child = keptWork(this.controller.snapshot().state).children.find((c) => c.agentId === agentId);
    const fresh = child?.resolvedBy !== undefined && child.resolvedBy !== before;
    if (child && (fresh || child.kept.outcome === 'landed')) {
      if (fresh) void vscode.window.showInformationMessage(`Delegate: the conflicts of "${child.description}" are resolved on a branch: open and apply them in the Kept in worktrees bar.`);
      return this.told({ agentId, state: 'done' });
    }
    // Why not, in one line: the resolver's report (land-tool.ts: "Resolver R for C: <its result>"), else landing's line.
    const report = done.lines.find((l) => l.startsWith('Resolver ') && l.includes(` for ${agentId}: `))?.split(` for ${agentId}: `).slice(1).join(` for ${agentId}: `);
    // Its result dropped (land-tool.ts keep): failed, or a conflict marker left.
    const dropped = done.lines.find((l) => l.startsWith('Not kept: '));
    if (dropped) return failed(oneLine(`${dropped.slice('Not kept: '.length)}${report ? ` (it said: ${oneLine(report)})` : ''}`));
    if (report?.includes('it changed no file there')) return failed(oneLine(`the resolver changed no file (it said: ${oneLine(report)})`));
    return failed(oneLine(report ?? done.lines.find((l) => l.includes(agentId)) ?? done.lines[0] ?? 'no resolver ran'));
  }

  private told(s: ResolveState): ResolveState {
    this.resolveEmitter.fire(s);
    return s;
  }

  /** One message, the conversation's notice's words (kept-work.ts landingLine): what landed, each conflict, the check. */
  private tell(report: Exclude<LandResult, { error: string }>): void {
    // A conflict's other side and a check's culprit may be words ("the parent's tree"), not ids.
    const named = (id: string): string => (id.includes(' ') ? id : `"${this.describe(id)}"`);
    const { text, bad } = landingLine(report, named);
    void (bad ? vscode.window.showWarningMessage(`Delegate: ${text}`) : vscode.window.showInformationMessage(`Delegate: ${text}`));
  }

  dispose(): void {
    this.resolveEmitter.dispose();
  }

  private describe(agentId: string): string {
    return allTasks(this.controller.snapshot().state).find((t) => t.agentId === agentId)?.description ?? agentId;
  }
}

/** A reason as the bar's one line: its first line, at most 200 characters. */
function oneLine(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}
