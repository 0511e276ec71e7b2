/**
 * First run, in the editor: whether a prompt can run now (the panel's setup card), a key the API refused, the
 * buttons that fix either (Set API Key, Use an editor model…), and the toast that says it while the panel is hidden.
 *
 *   the key (SecretStorage) ────────┐
 *   the editor's models ────────────┼─▶ onDidChange ─▶ the panel asks problem() again ─▶ its card shows or goes
 *   delegate.provider, vscodeModel ─┘
 *   a key stored (palette or card) ────▶ onKeySaved ─▶ the panel: "Key saved", and a button to send the draft
 *
 * Words and buttons: src/view-model/setup-problem.ts (the webview shows the same ones).
 */
import * as vscode from 'vscode';
import { API_KEY_SECRET, readCredentials } from './api-key';
import type { ModelChoice } from './model-choice';
import { NO_EDITOR_MODELS, problemSentence, setupButtons, type SetupAction, type SetupProblem } from '../view-model/setup-problem';

/** A prompt that could not run, or ran on a key the API refused: the panel's line under its composer, or a toast. */
export interface CannotRun {
  problem: SetupProblem;
  /** The prompt that did not start (the panel puts it back as the draft). */
  prompt?: string;
}

export class ModelSetup implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly saved = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly onKeySaved = this.saved.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly models: ModelChoice,
  ) {
    this.subscriptions = [
      this.changed,
      this.saved,
      secrets.onDidChange((e) => void this.secretChanged(e.key)),
      // The catalog drops its list on the same event, and subscribed first: problem() reads the new list.
      vscode.lm.onDidChangeChatModels(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('delegate.provider') || e.affectsConfiguration('delegate.vscodeModel')) this.changed.fire();
      }),
    ];
  }

  /** Why no prompt could run now; undefined when one can. */
  async problem(): Promise<SetupProblem | undefined> {
    const route = await this.models.route();
    return 'problem' in route ? route.problem : undefined;
  }

  /** What a button of the card, the line or the toast does. */
  async act(action: SetupAction): Promise<void> {
    switch (action) {
      case 'set_api_key':
        await vscode.commands.executeCommand('delegate.setApiKey');
        return;
      case 'choose_model':
        await vscode.commands.executeCommand('delegate.chooseModel');
        return;
      case 'use_anthropic':
        // What Choose Model's "Anthropic API" writes; then the key, if there is none yet.
        await vscode.workspace.getConfiguration('delegate').update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
        if (!(await readCredentials(this.secrets))) await vscode.commands.executeCommand('delegate.setApiKey');
        return;
    }
  }

  /** The panel is hidden: the same words and buttons, as a toast. */
  async toast(problem: SetupProblem): Promise<void> {
    const buttons = setupButtons(problem);
    const none = problem.editorModels === 0 && (problem.kind === 'credentials' || problem.kind === 'key' || problem.kind === 'model') ? ` ${NO_EDITOR_MODELS}` : '';
    const choice = await vscode.window.showErrorMessage(`Delegate: ${problemSentence(problem)}${none}`, ...buttons.map((b) => b.label));
    const picked = buttons.find((b) => b.label === choice);
    if (picked) await this.act(picked.action);
  }

  private async secretChanged(key: string): Promise<void> {
    if (key !== API_KEY_SECRET) return;
    if ((await this.secrets.get(API_KEY_SECRET))?.trim()) this.saved.fire();
    this.changed.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
