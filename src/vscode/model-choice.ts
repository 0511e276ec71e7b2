/**
 * Which model a run uses, decided per prompt (a settings change applies from the next one):
 *
 *   the Chat view's request.model ──────────────────────────────▶ that VS Code model
 *   delegate.provider  anthropic, or auto with an API key set ──▶ the Messages API (delegate.model)
 *                      vscode, or auto without a key ───────────▶ delegate.vscodeModel (lm-catalog.ts)
 *
 * Ports are kept per model (their caches of converted messages and token counts live on), the Anthropic
 * client per credentials and endpoint. A choice that cannot be made is told to the user, with the button
 * that fixes it, and the run does not start.
 */
import * as vscode from 'vscode';
import { explainMissingKey, readCredentials } from './api-key';
import { LmCatalog, modelKey } from './lm-catalog';
import { createLmModel, type LmModelPort } from './lm-model';
import { readSettings } from './settings';
import type { ModelPort } from '../core/session';
import { sealProcessEnvironment } from '../core/session/process-environment';

export interface ModelSelection {
  port: ModelPort;
  modelId: string;
  /** The model's own input limit (VS Code models); the user's delegate.contextWindow wins over it. */
  contextWindow?: number;
  provider: 'anthropic' | 'vscode';
}

export class ModelChoice implements vscode.Disposable {
  readonly catalog = new LmCatalog();
  private readonly lmPorts = new WeakMap<vscode.LanguageModelChat, LmModelPort>();
  private anthropic: { key: string; port: ModelPort } | undefined;
  /** Every credential value this editor has run with (a removed key may still be valid): commands never get a variable holding one. */
  private readonly credentials = new Set<string>();

  /** `notice`: said to the user through the session (an agent asked for a model the editor does not have). */
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly notice: (text: string) => void,
  ) {}

  /** The model of the next run, or undefined after telling the user why there is none. */
  async forRun(chatModel?: vscode.LanguageModelChat): Promise<ModelSelection | undefined> {
    if (chatModel) return this.vscodeSelection(chatModel);
    const settings = readSettings();
    const credentials = settings.provider === 'vscode' ? undefined : await readCredentials(this.secrets);
    if (settings.provider === 'anthropic' || (settings.provider === 'auto' && credentials)) {
      if (!credentials) {
        void explainMissingKey();
        return undefined;
      }
      const key = JSON.stringify([credentials, settings.baseUrl, settings.maxRetryWaitMs]);
      if (this.anthropic?.key !== key) {
        // A key from the secret storage may also sit in some variable of ours (MY_KEY=…): out of the environment block too.
        for (const value of Object.values(credentials)) if (typeof value === 'string') this.credentials.add(value);
        sealProcessEnvironment([], [...this.credentials]);
        // Loaded on the first prompt, not at activation: the SDK is most of the bundle's start-up cost.
        const { createAnthropicModel } = await import('../core/session/model');
        const { createHttpFetch } = await import('../core/session/model');
        // No agent of ours: the extension host's patched http/https apply http.proxy / http.proxySupport.
        const fetch = createHttpFetch('host');
        const retryWait = { maxMs: settings.maxRetryWaitMs, setting: 'delegate.maxRetryWaitSeconds' };
        this.anthropic = { key, port: createAnthropicModel({ ...credentials, ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}), fetch, retryWait }) };
      }
      return { port: this.anthropic.port, modelId: settings.model, provider: 'anthropic' };
    }
    const picked = await this.catalog.pick(settings.vscodeModel);
    if ('problem' in picked) {
      void explainNoModel(picked.problem);
      return undefined;
    }
    return this.vscodeSelection(picked.model);
  }

  /** What the session's tool environment withholds by value (the key in use, wherever it came from). */
  credentialValues(): readonly string[] {
    return [...this.credentials];
  }

  private vscodeSelection(model: vscode.LanguageModelChat): ModelSelection {
    let port = this.lmPorts.get(model);
    if (!port) {
      port = createLmModel({ model, key: modelKey(model), others: (name) => this.catalog.find(name), onNotice: this.notice });
      this.lmPorts.set(model, port);
    }
    return { port, modelId: port.key, ...(model.maxInputTokens > 0 ? { contextWindow: model.maxInputTokens } : {}), provider: 'vscode' };
  }

  dispose(): void {
    this.catalog.dispose();
  }
}

async function explainNoModel(problem: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(`Delegate: ${problem}.`, 'Choose Model', 'Set API Key');
  if (choice === 'Choose Model') await vscode.commands.executeCommand('delegate.chooseModel');
  if (choice === 'Set API Key') await vscode.commands.executeCommand('delegate.setApiKey');
}
