/**
 * The editor's side of a session: owns the core Session, keeps the view state (the snapshot a
 * reloaded panel gets), runs prompts, stops them, and tells listeners about events and status.
 *
 *   Ask… / panel prompt ─▶ controller.ask() ─▶ core session.run() ─▶ bus events
 *                                                   │
 *            view state (applyEvent) ◀──────────────┤──▶ onEvents ─▶ panel (batched), status bar
 *
 * A session is its transcript: the open session's id is kept in the workspace state, so a window
 * reload or an editor restart reopens it (view rebuilt from the transcript; the core session is
 * resumed from it on the next prompt). The history list opens any earlier one the same way. What a new session is
 * made of (settings, trust, the ports) is editor-session-config.ts.
 */
import * as vscode from 'vscode';
import type { DelegateEvent } from '../core/events';
import type { HandoffOf, RetryOf } from '../core/vocabulary';
import type { SessionListItem } from '../protocol';
import { applyEvent, createSessionView, type SessionViewState } from '../view-model/session-view';
import type { EditorApprover } from './approver';
import type { EditorFanout } from './fanout-card';
import { editorSessionConfig } from './editor-session-config';
import type { EditorMcpServers } from './mcp-servers';
import { ModelChoice, type ModelSelection } from './model-choice';
import { ModelSetup, type CannotRun } from './model-setup';
import { ResultReview } from './result-review';
import { historyList, loadSessionView, OPEN_SESSION_KEY, transcriptRootOf } from './session-history';
import { SessionNotices } from './session-notices';
import { readSettings } from './settings';
import { rejectedKey } from '../view-model/setup-problem';
import { createSession, PromptRefused, type Session, type AgentResult, type SandboxStatus } from '../core/session';
import { type UserQuestions } from '../core/session/ports';
import { history, type SessionHistory } from '../core/session/history';

export interface ControllerStatus {
  running: boolean;
  tokens: number;
  /** Dollars the session has cost (when its models have prices). */
  costUsd: number;
  /** What confines bash in the current session (Session.status's words), once known. */
  sandbox?: string;
}

export class SessionController implements vscode.Disposable {
  private session: Session | undefined;
  private view: SessionViewState = createSessionView();
  private running: AbortController | undefined;
  private readonly notices = new SessionNotices();
  private sandbox: string | undefined;
  /** A session opened from its transcript whose core session is made (resumed) on the next prompt. */
  private resumeId: string | undefined;
  /** Finished subagents held for review (delegate.reviewSubagentResults). */
  readonly review = new ResultReview();
  /** Which model each prompt runs on (settings, or the Chat view's pick); its problems become session notices. */
  readonly models: ModelChoice;
  /** The port and model id the open session runs on now. */
  private sessionModel: ModelSelection | undefined;
  /** Whether a prompt can run now, and what changes that (the panel's setup card). */
  readonly setup: ModelSetup;

  private readonly eventsEmitter = new vscode.EventEmitter<DelegateEvent[]>();
  private readonly statusEmitter = new vscode.EventEmitter<ControllerStatus>();
  private readonly resetEmitter = new vscode.EventEmitter<void>();
  private readonly cannotRunEmitter = new vscode.EventEmitter<CannotRun>();
  readonly onEvents = this.eventsEmitter.event;
  readonly onStatus = this.statusEmitter.event;
  readonly onReset = this.resetEmitter.event;
  /** A prompt found no model to run on (no key, no editor model), or the API refused the key. */
  readonly onCannotRun = this.cannotRunEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly approver: EditorApprover,
    private readonly mcpServers?: EditorMcpServers,
    private readonly questions?: UserQuestions,
    private readonly fanout?: EditorFanout,
  ) {
    this.models = new ModelChoice(context.secrets, (text) => void this.session?.notify('warning', text));
    this.setup = new ModelSetup(context.secrets, this.models);
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  get current(): Session | undefined {
    return this.session;
  }

  snapshot(): { state: SessionViewState; running: boolean } {
    return { state: this.view, running: this.isRunning };
  }

  /** Tokens and dollars are the view's totals (the panel's line): one count, read where it is kept. */
  status(): ControllerStatus {
    const totals = this.view.totals;
    return {
      running: this.isRunning,
      tokens: totals.tokens.input + totals.tokens.output,
      costUsd: totals.costUsd ?? 0,
      ...(this.sandbox ? { sandbox: this.sandbox } : {}),
    };
  }

  /**
   * Runs one prompt; resolves when the run ends, with its result (undefined when it did not start).
   * Problems are shown to the user, never thrown. `model`: the Chat view's pick, over the settings.
   */
  async ask(prompt: string, options: { model?: vscode.LanguageModelChat; retryOf?: RetryOf; handoff?: HandoffOf } = {}): Promise<AgentResult | undefined> {
    const text = prompt.trim();
    if (!text) return undefined;
    if (this.running) {
      void vscode.window.showInformationMessage('Delegate is still working on the last prompt: stop it first, or wait.');
      return undefined;
    }
    const session = await this.sessionFor(options.model, text);
    if (!session) return undefined;
    // The prompt reaches the view and the panel as the run's first event (`prompt`), before any hook runs.
    this.running = new AbortController();
    this.notices.newPrompt();
    this.setContext();
    try {
      const result = await session.run(text, this.running.signal, { ...(options.retryOf ? { retryOf: options.retryOf } : {}), ...(options.handoff ? { handoff: options.handoff } : {}) });
      if (result.status === 'error') this.runFailed(result.error ?? 'the run failed');
      return result;
    } catch (err) {
      // A prompt the session would not send (empty, too big for the window): said under the box, the text kept there.
      if (err instanceof PromptRefused) this.cannotRunEmitter.fire({ problem: { kind: 'prompt', message: err.message, editorModels: 0 }, prompt });
      else void vscode.window.showErrorMessage(`Delegate: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    } finally {
      this.running = undefined;
      this.setContext();
    }
  }

  stop(): void {
    this.running?.abort();
  }

  /**
   * The user's message to one subagent (the panel's *Send a message…* on a task node): a finished or stopped one
   * resumes with its history (the same node, a new segment), a running one reads it at its next turn. Resolves with
   * its new result, 'queued', or undefined when it could not be sent (said to the user, never thrown).
   */
  async messageSubagent(agentId: string, message: string): Promise<AgentResult | 'queued' | undefined> {
    const text = message.trim();
    if (!text) return undefined;
    const session = await this.sessionFor();
    if (!session) return undefined;
    // While a prompt runs, its Stop stops the resumed child too; otherwise this is a run of its own.
    const own = this.running ? undefined : new AbortController();
    if (own) {
      this.running = own;
      this.setContext();
    }
    try {
      const result = await session.messageSubagent(agentId, text, (own ?? this.running)?.signal ?? new AbortController().signal);
      if (result !== 'queued' && result.status === 'error') this.runFailed(result.error ?? 'the subagent failed');
      return result;
    } catch (err) {
      void vscode.window.showErrorMessage(`Delegate: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    } finally {
      if (own) {
        this.running = undefined;
        this.setContext();
      }
    }
  }

  /**
   * The kept bar's Resolve: session.land with resolve and keep (`delegate land --resolve`'s, the results kept for
   * Apply), a run of its own (Stop stops it; the resolvers show in the task tree). `refused`: why it did not run.
   */
  async resolveConflicts(agentIds: string[]): Promise<Awaited<ReturnType<Session['land']>> | { refused: string }> {
    if (this.running) return { refused: 'a run is going on: resolve once it has ended' };
    const session = await this.sessionFor(); // without one it said why (no model: the setup card; a busy session)
    if (!session) return { refused: 'no session could be opened to run the resolver in' };
    const own = (this.running = new AbortController());
    this.setContext();
    try {
      return await session.land({ agents: agentIds, resolve: true, keep: true }, own.signal);
    } catch (err) {
      return { refused: err instanceof Error ? err.message : String(err) };
    } finally {
      this.running = undefined;
      this.setContext();
    }
  }

  /** Starts over with an empty conversation (the transcripts stay on disk, in the history list). */
  newSession(): void {
    this.stop();
    this.closeCurrent();
    this.view = createSessionView();
    void this.context.workspaceState.update(OPEN_SESSION_KEY, undefined);
    this.resetEmitter.fire();
    this.statusEmitter.fire(this.status());
  }

  /** An event recorded outside a run (a revert of a session reopened from its transcript): into the view and the panel. */
  showRecorded(event: DelegateEvent): void {
    applyEvent(this.view, event);
    this.eventsEmitter.fire([event]);
  }

  /** Stops one subagent and its descendants; the parent goes on with what it had reported. */
  stopAgent(agentId: string): boolean {
    return this.session?.cancel(agentId) ?? false;
  }

  /** The id of the session shown in the panel (live or reopened), if any. */
  /** Where this workspace's transcripts are (the record of a subagent is read from there). */
  get transcriptRoot(): string {
    return transcriptRootOf(this.context);
  }

  /** This workspace's sessions on disk (the core's history face over transcriptRoot): read, rename, delete. */
  get sessions(): SessionHistory {
    return history(this.transcriptRoot);
  }

  get openSessionId(): string | undefined {
    return this.session?.id ?? this.resumeId;
  }

  /** This workspace's sessions for the history list, newest first. */
  async history(): Promise<SessionListItem[]> {
    return historyList(transcriptRootOf(this.context), this.isRunning ? this.session?.id : undefined);
  }

  /**
   * Shows a session from its transcript (the history list, or the one open before a reload); a new
   * prompt then continues it. False (and a message) when it cannot be opened.
   */
  async openSession(id: string, quiet = false): Promise<boolean> {
    if (id === this.openSessionId && this.view.items.length > 0) return true;
    if (this.running) {
      if (!quiet) void vscode.window.showInformationMessage('Delegate is working: stop it before opening another session.');
      return false;
    }
    const loaded = await loadSessionView(transcriptRootOf(this.context), id);
    if (!loaded) {
      if (!quiet) void vscode.window.showWarningMessage(`Delegate: session ${id} has no transcript any more.`);
      if (quiet) void this.context.workspaceState.update(OPEN_SESSION_KEY, undefined);
      return false;
    }
    this.closeCurrent();
    this.resumeId = id;
    this.view = loaded;
    void this.context.workspaceState.update(OPEN_SESSION_KEY, id);
    this.resetEmitter.fire();
    this.statusEmitter.fire(this.status());
    return true;
  }

  /** Reopens the session that was open before a window reload or an editor restart. */
  async restore(): Promise<void> {
    const id = this.context.workspaceState.get<string>(OPEN_SESSION_KEY);
    if (id && !this.session) await this.openSession(id, true);
  }

  /** Compacts the main agent's conversation now (between prompts): true when it did, false when there was nothing to. */
  async compact(options: { model?: vscode.LanguageModelChat } = {}): Promise<boolean | undefined> {
    if (this.running) {
      void vscode.window.showInformationMessage('Delegate is working: compact between prompts.');
      return undefined;
    }
    const session = await this.sessionFor(options.model);
    if (!session) return undefined;
    const done = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Delegate: compacting the conversation…', cancellable: true },
      async (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        try {
          return await session.compact(controller.signal);
        } catch (err) {
          void vscode.window.showErrorMessage(`Delegate: compaction failed: ${err instanceof Error ? err.message : String(err)}`);
          return undefined;
        }
      },
    );
    if (done === false) void vscode.window.showInformationMessage('Delegate: nothing to compact yet.');
    return done;
  }

  private closeCurrent(): void {
    this.session?.close();
    this.session = undefined;
    this.resumeId = undefined;
    this.sandbox = undefined;
    this.sessionModel = undefined;
  }

  /** Trust can be granted while a session is open: the policy follows. */
  setTrusted(trusted: boolean): void {
    this.session?.setTrusted(trusted);
  }

  /** A failed run: a key the Anthropic API refused goes where Set API Key is offered; anything else is one line. */
  private runFailed(error: string): void {
    const rejected = this.sessionModel?.provider === 'anthropic' ? rejectedKey(error) : undefined;
    if (rejected) this.cannotRunEmitter.fire({ problem: rejected });
    else this.notices.runError(error);
  }

  /**
   * The session on the model this prompt uses (model-choice.ts); a running session changes model between prompts.
   * No model to run on: said where the user is (onCannotRun), with `prompt` to put back.
   */
  private async sessionFor(chatModel?: vscode.LanguageModelChat, prompt?: string): Promise<Session | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') {
      void vscode.window.showErrorMessage('Delegate works in a folder: open a folder first.');
      return undefined;
    }
    const selection = await this.models.forRun(chatModel);
    if ('problem' in selection) {
      this.cannotRunEmitter.fire({ problem: selection.problem, ...(prompt !== undefined ? { prompt } : {}) });
      return undefined;
    }
    let session: Session;
    try {
      session = await this.ensureSession(folder, selection);
    } catch (err) {
      // A session another Delegate is writing (SessionBusyError), a transcript folder it cannot write: one line.
      void vscode.window.showErrorMessage(`Delegate: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    if (session && (this.sessionModel?.port !== selection.port || this.sessionModel.modelId !== selection.modelId)) {
      session.setModel(selection.port, selection.modelId, readSettings().session.contextWindow ?? selection.contextWindow);
    }
    this.sessionModel = selection;
    return session;
  }

  private async ensureSession(folder: vscode.WorkspaceFolder, selection: ModelSelection): Promise<Session> {
    if (this.session) return this.session;
    const transcriptRoot = transcriptRootOf(this.context);
    const resume = this.resumeId ? await history(transcriptRoot).resume(this.resumeId) : undefined;
    const config = await editorSessionConfig(folder, selection, {
      transcriptRoot,
      ...(resume ? { resume } : {}),
      approver: this.approver,
      review: this.review,
      credentials: () => this.models.credentialValues(),
      ...(this.mcpServers ? { mcpServers: this.mcpServers } : {}),
      ...(this.questions ? { questions: this.questions } : {}),
      ...(this.fanout ? { fanout: this.fanout } : {}),
    });
    const session = await createSession(config);
    this.resumeId = undefined;
    void this.context.workspaceState.update(OPEN_SESSION_KEY, session.id);
    session.subscribe((event) => this.onEvent(session, event));
    this.session = session;
    this.sessionModel = selection;
    void session.status().then((status) => this.onSandboxStatus(session, status));
    return session;
  }

  /** The status bar names the sandbox (session-notices.ts says what is missing). */
  private onSandboxStatus(session: Session, status: { sandbox: SandboxStatus; sandboxText: string }): void {
    if (session !== this.session) return;
    this.sandbox = status.sandboxText;
    this.statusEmitter.fire(this.status());
    this.notices.sandbox(status.sandbox);
  }

  private onEvent(session: Session, event: DelegateEvent): void {
    if (session !== this.session) return;
    applyEvent(this.view, event);
    if (event.type === 'usage') this.statusEmitter.fire(this.status());
    if (event.type === 'tool_call' && event.state === 'error' && event.output.includes('workspace is not trusted')) this.notices.untrusted();
    this.eventsEmitter.fire([event]);
  }

  private setContext(): void {
    void vscode.commands.executeCommand('setContext', 'delegate.running', this.isRunning);
    this.statusEmitter.fire(this.status());
  }

  /** Stops the run, kills every process group the session started, records the interruption. */
  async shutdown(reason: string): Promise<void> {
    const session = this.session;
    this.stop();
    await session?.shutdown(reason);
  }

  dispose(): void {
    this.stop();
    this.session?.shutdownNow('the extension was disposed');
    this.session?.close();
    this.eventsEmitter.dispose();
    this.statusEmitter.dispose();
    this.resetEmitter.dispose();
    this.cannotRunEmitter.dispose();
    this.setup.dispose();
    this.models.dispose();
  }
}

