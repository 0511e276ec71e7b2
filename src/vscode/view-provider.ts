/**
 * The "Delegate" webview view. The host keeps the state; the panel gets one snapshot when it
 * (re)loads and then batches of events (one message per ~frame, never the whole state per change).
 * Nonce CSP for scripts, resources only from the extension's dist/ and media/.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import type { DelegateEvent } from '../core/events';
import { waitingOf, type HostToWebview, type WebviewToHost } from '../protocol';
import { encodeSnapshot } from '../view-model/snapshot-codec';
import { getTool } from '../view-model/store';
import type { ChangeActions } from './change-actions';
import type { HistoryActions } from './history-actions';
import type { PanelInbox } from './panel-inbox';
import type { CannotRun } from './model-setup';
import type { SessionController } from './session-controller';
import { TaskRetry } from './task-retry';
import { TaskHandoffs } from './task-handoff';
import { AgentRecordView } from './agent-record-view';

export const VIEW_ID = 'delegate.panel';
/**
 * True while the panel's document has focus (the webview says so). VS Code 1.139 sets no context for a focused
 * webview view: its iframe is an overlay appended to the workbench's root, outside the view's pane, so neither
 * `focusedView` nor `sideBarFocus` follows it. The `delegate.find` keybinding (Ctrl/Cmd+F) is on this one.
 */
const PANEL_FOCUS = 'delegate.panelFocus';
const BATCH_MS = 16;
const SHOW_PANEL = 'Show';

export class DelegateViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** The webview said `ready` (it has a snapshot): a reveal can go now, else after its snapshot. */
  private ready = false;
  private pendingReveal: string | undefined;
  /** `delegate.find` ran before the panel was ready: its find bar opens once it is. */
  private pendingFind = false;
  /** A prompt that could not run while the panel was still loading (Ask… from the palette opens it): said once it is. */
  private pendingCannotRun: CannotRun | undefined;
  private queue: DelegateEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Retry on a task that ended early (tests replace its askText). */
  readonly retry: TaskRetry;
  /** A completed task's handoff buttons (tests press them as the panel does). */
  readonly handoffs: TaskHandoffs;
  private readonly records: AgentRecordView;
  /** Every message posted, for the extension tests (bounded). */
  readonly posted: HostToWebview['type'][] = [];
  /**
   * Says that subagents still wait in the panel the user just hid (their questions stay there, the badge counts
   * them); true when the user asks to see it. Tests replace it.
   */
  notifyWaiting = async (line: string): Promise<boolean> => (await vscode.window.showInformationMessage(`${line} in the Delegate panel.`, SHOW_PANEL)) === SHOW_PANEL;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: SessionController,
    private readonly changes: ChangeActions,
    readonly historyActions: HistoryActions,
    private readonly inbox?: PanelInbox,
  ) {
    this.retry = new TaskRetry(controller);
    this.handoffs = new TaskHandoffs(controller, (text, handoff) => this.post({ type: 'fill_prompt', text, handoff }));
    this.records = new AgentRecordView(controller);
    if (inbox) this.disposables.push(inbox.onChange(() => this.sendInbox()));
    this.disposables.push(
      this.records.register(),
      controller.onEvents((events) => this.enqueue(events)),
      // After the events queued so far: the bar's word on a Resolve follows what its resolver did.
      changes.land.onResolve((s) => {
        this.flush();
        this.post({ type: 'kept_resolve', ...s });
      }),
      controller.onStatus((status) => this.post({ type: 'status', running: status.running })),
      controller.onReset(() => this.sendSnapshot()),
      controller.onCannotRun((r) => this.showCannotRun(r)),
      controller.setup.onDidChange(() => void this.sendSetup()),
      controller.setup.onKeySaved(() => this.post({ type: 'key_saved' })),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.sendWorkspace()),
    );
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')] };
    view.webview.html = this.html(view.webview);
    view.webview.onDidReceiveMessage((message: WebviewToHost) => this.onMessage(message), undefined, this.disposables);
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      setPanelFocus(false);
    });
    view.onDidChangeVisibility(() => {
      if (view.visible) return;
      // A hidden panel holds no focus (its document may not say so before it goes).
      setPanelFocus(false);
      void this.nudgeIfWaiting();
    }, undefined, this.disposables);
  }

  /** A message from the webview (public so the extension tests can post as the panel does). */
  async onMessage(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.queue = [];
        this.sendWorkspace();
        this.sendSnapshot();
        // A panel reloaded while a resolver runs: its Resolve shows busy again.
        if (this.changes.land.resolving) this.post({ type: 'kept_resolve', agentId: this.changes.land.resolving, state: 'running' });
        this.ready = true;
        this.sendInbox();
        this.sendReveal();
        this.sendFind();
        void this.sendSetup();
        if (this.pendingCannotRun) this.postCannotRun(this.pendingCannotRun);
        this.pendingCannotRun = undefined;
        break;
      case 'focus':
        setPanelFocus(message.focused);
        break;
      case 'inbox_answer':
        this.inbox?.answer(message.id, message.decision);
        break;
      case 'inbox_reply':
        this.inbox?.reply(message.id, message.text);
        break;
      case 'inbox_fanout':
        this.inbox?.runFanout(message.id, message.choice, message.dontAsk);
        break;
      case 'prompt':
        await (message.handoff ? this.handoffs.send(message.text, message.handoff) : this.controller.ask(message.text));
        break;
      case 'handoff':
        await this.handoffs.press(message.agentId, message.index);
        break;
      case 'stop':
        this.controller.stop();
        break;
      case 'open_record':
        await this.records.open(message.agentId, message.description);
        break;
      case 'message_agent':
        // The command asks for the text and shows a failure as one line (extension.ts).
        await vscode.commands.executeCommand('delegate.messageSubagent', message.agentId);
        break;
      case 'node_detail': {
        const node = getTool(this.controller.snapshot().state, message.id);
        if (node) this.post({ type: 'node_detail', node });
        break;
      }
      case 'stop_agent':
        this.controller.stopAgent(message.agentId);
        break;
      case 'review':
        await this.controller.review.act(message.agentId, message.action);
        break;
      case 'show_history':
        await this.showHistory();
        break;
      case 'open_session':
        if (!(await this.controller.openSession(message.id))) this.sendSnapshot(); // back to what is open
        break;
      case 'new_session':
        this.controller.newSession();
        break;
      case 'open_file':
        await this.openFile(message.path, message.line);
        break;
      case 'open_external':
        await this.openExternal(message.url);
        break;
      case 'open_change':
        await this.changes.openChange(message.agentId, message.path);
        break;
      case 'revert_agent':
        await this.changes.revert(message.agentId, message.includeShared ?? []);
        break;
      case 'review_changes':
        if (!(await this.changes.reviewRun(message.kept ?? [], message.path))) void vscode.window.showInformationMessage('Delegate: the last run changed no file Delegate kept.');
        break;
      case 'revert_agents':
        await this.changes.revertRun(message.agentIds, message.paths);
        break;
      case 'land_agents':
        await this.changes.land.land(message.agentIds, message.action);
        break;
      case 'open_kept_diff':
        await this.changes.land.openDiff(message.agentId, message.path);
        break;
      case 'resolve_agent':
        await this.changes.land.resolve(message.agentId);
        break;
      case 'rename_session':
        await this.historyActions.rename(message.id, message.title);
        await this.showHistory();
        break;
      case 'delete_session':
        if (await this.historyActions.delete(message.id, message.title)) await this.showHistory();
        break;
      case 'retry_task':
        await this.retry.retry(message.agentId, message.edit);
        break;
      case 'setup_action':
        await this.controller.setup.act(message.action);
        break;
      case 'open_diff':
        if (!(await this.changes.openToolChange(message.toolUseId))) {
          void vscode.window.showInformationMessage('Delegate: this call changed no file (it failed, was refused, or wrote what was already there).');
        }
        break;
    }
  }

  /** Shows the history list in the panel (revealing the panel first). */
  async showHistory(): Promise<void> {
    const sessions = await this.controller.history();
    this.flush();
    this.post({ type: 'history', sessions, ...(this.controller.openSessionId ? { currentId: this.controller.openSessionId } : {}) });
  }

  /** Shows the panel and a subagent's node in it (opened, scrolled to, marked for a moment). */
  async reveal(agentId: string): Promise<void> {
    this.pendingReveal = agentId;
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (this.ready) this.sendReveal();
  }

  /** Ctrl/Cmd+F in the panel (the `delegate.find` keybinding), or the command from the palette: the panel's find bar. */
  async find(): Promise<void> {
    this.pendingFind = true;
    // Shown and focused (from the palette the editor had focus: what the user types next must reach the panel).
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (this.ready) this.sendFind();
  }

  private sendFind(): void {
    if (!this.pendingFind || !this.view) return;
    this.pendingFind = false;
    this.post({ type: 'find' });
  }

  private sendReveal(): void {
    if (!this.pendingReveal || !this.view) return;
    this.flush();
    this.post({ type: 'reveal', agentId: this.pendingReveal });
    this.pendingReveal = undefined;
  }

  private async openFile(path: string, line?: number): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const abs = isAbsolute(path) || !folder ? path : resolve(folder, path);
    const options: vscode.TextDocumentShowOptions = { preview: true };
    if (line !== undefined && Number.isSafeInteger(line) && line > 0) {
      const at = new vscode.Position(line - 1, 0);
      options.selection = new vscode.Range(at, at);
    }
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(abs), options);
    } catch {
      void vscode.window.showWarningMessage(`Delegate: cannot open ${path}`);
    }
  }

  /** Links in model text: the webview already refused other schemes; the check is repeated here, where it counts. */
  private async openExternal(url: string): Promise<void> {
    let uri: vscode.Uri | undefined;
    try {
      uri = vscode.Uri.parse(url, true);
    } catch {
      uri = undefined;
    }
    if (!uri || (uri.scheme !== 'http' && uri.scheme !== 'https') || uri.authority === '') {
      void vscode.window.showWarningMessage(`Delegate: not opening ${url} (only http and https links open outside the editor)`);
      return;
    }
    await vscode.env.openExternal(uri);
  }

  /** The waiting subagent questions, and their count on the view's badge (seen even while it is hidden). */
  private sendInbox(): void {
    if (!this.inbox || !this.view) return;
    const items = this.inbox.items();
    const waiting = waitingOf(items);
    this.view.badge = waiting.count ? { value: waiting.count, tooltip: waiting.line } : undefined;
    this.post({ type: 'inbox', items });
  }

  private async nudgeIfWaiting(): Promise<void> {
    const waiting = waitingOf(this.inbox?.items() ?? []);
    if (waiting.count > 0 && (await this.notifyWaiting(waiting.line))) await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  /** Whether a prompt can run now (the empty panel shows a setup card when not). */
  private async sendSetup(): Promise<void> {
    if (!this.view) return;
    const problem = await this.controller.setup.problem();
    this.post(problem ? { type: 'setup', problem } : { type: 'setup' });
  }

  /** Said in the panel, under its composer, while the panel shows; else a toast with the same buttons. */
  private showCannotRun(r: CannotRun): void {
    if (!this.view?.visible) void this.controller.setup.toast(r.problem);
    else if (this.ready) this.postCannotRun(r);
    else this.pendingCannotRun = r;
  }

  private postCannotRun(r: CannotRun): void {
    this.post({ type: 'cannot_run', problem: r.problem, ...(r.prompt !== undefined ? { prompt: r.prompt } : {}) });
  }

  private sendWorkspace(): void {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    this.post({ type: 'workspace', folders });
  }

  private sendSnapshot(): void {
    const { state, running } = this.controller.snapshot();
    // A slim copy, packed: one string to post that decodes fast (snapshot-codec.ts); the rows ask for a call's input and output.
    this.post({ type: 'snapshot', packed: encodeSnapshot(state), running });
  }

  private enqueue(events: DelegateEvent[]): void {
    if (!this.view?.visible) return; // a hidden panel reloads from a snapshot when shown again
    // A command's live output is not shown in the panel (its card shows the result): not posted.
    this.queue.push(...events.filter((e) => e.type !== 'tool_output'));
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const events = this.queue;
    this.queue = [];
    this.post({ type: 'events', events });
  }

  private post(message: HostToWebview): void {
    if (!this.view) return;
    if (this.posted.length < 10_000) this.posted.push(message.type);
    void this.view.webview.postMessage(message);
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const asset = (name: string): vscode.Uri => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', name));
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource} 'unsafe-inline'`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${asset('codicon.css').toString()}">
<title>Delegate</title>
</head>
<body>
<script nonce="${nonce}" src="${asset('main.js').toString()}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function setPanelFocus(focused: boolean): void {
  void vscode.commands.executeCommand('setContext', PANEL_FOCUS, focused);
}
