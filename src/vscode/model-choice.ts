/**
 * Which model a run uses, decided per prompt (a settings change applies from the next one):
 *
 *   the Chat view's request.model ──────────────────────────────▶ that VS Code model
 *   delegate.provider  anthropic, or auto with an API key set ──▶ the Messages API (delegate.model)
 *                      vscode, or auto without a key ───────────▶ delegate.vscodeModel (lm-catalog.ts)
 *
 * Ports are kept per model (their caches of converted messages and token counts live on), the Anthropic
 * client per credentials and endpoint. A choice that cannot be made is a SetupProblem: the caller tells the user
 * (the panel's line under its composer, or a toast; model-setup.ts) and the run does not start. `route()` is the
 * same decision without building anything, for the panel's setup card.
 */
import * as vscode from 'vscode';
import { readCredentials, type Credentials } from './api-key';
import { LmCatalog, modelKey } from './lm-catalog';
import { supportsToolCalling } from './lm-errors';
import { createLmModel, type LmModelPort } from './lm-model';
import { readSettings } from './settings';
import { type ModelPort } from '../core/session/model-port';
import { sealProcessEnvironment } from '../core/session/process-environment';
import type { SetupProblem } from '../view-model/setup-problem';

/** Where the next run goes, or why it can go nowhere. */
/**
 * At activation: no credential stays in the extension host's environment block (/proc/<pid>/environ, readable by the
 * user's other processes, an unsandboxed command among them); process.env keeps them for the other extensions. A key
 * from the secret storage is sealed the same way when a run first uses it (ModelChoice below).
 */
export function sealCredentials(): void {
  const sealed = sealProcessEnvironment();
  if (sealed.note) console.debug(`Delegate: ${sealed.note}`);
}

export type Route = { credentials: Credentials } | { model: vscode.LanguageModelChat } | { problem: SetupProblem };

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

  /** Where the next run goes (settings, the key, the editor's models), or why it cannot go anywhere. */
  async route(): Promise<Route> {
    const settings = readSettings();
    const credentials = settings.provider === 'vscode' ? undefined : await readCredentials(this.secrets);
    if (credentials && settings.provider !== 'vscode') return { credentials };
    if (settings.provider === 'anthropic') return { problem: await this.problem('key', 'delegate.provider is "anthropic" and no Anthropic API key is set') };
    const picked = await this.catalog.pick(settings.vscodeModel);
    if (settings.provider === 'vscode') return 'problem' in picked ? { problem: await this.problem('model', picked.problem) } : { model: picked.model };
    // auto without a key: a model that cannot call tools would only fail its first request, so it counts as none.
    if ('model' in picked && supportsToolCalling(picked.model) !== false) return { model: picked.model };
    return { problem: await this.problem('credentials', 'Delegate needs an Anthropic API key or a language model from the editor') };
  }

  /** The model of the next run, or the problem that keeps it from starting (for the caller to tell). */
  async forRun(chatModel?: vscode.LanguageModelChat): Promise<ModelSelection | { problem: SetupProblem }> {
    if (chatModel) return this.vscodeSelection(chatModel);
    const route = await this.route();
    if ('problem' in route) return route;
    if ('model' in route) return this.vscodeSelection(route.model);
    const credentials = route.credentials;
    const settings = readSettings();
    const key = JSON.stringify([credentials, settings.baseUrl, settings.session.maxRetryWait * 1000]);
    if (this.anthropic?.key !== key) {
      // A key from the secret storage may also sit in some variable of ours (MY_KEY=…): out of the environment block too.
      for (const value of [credentials.apiKey, credentials.authToken]) if (value) this.credentials.add(value);
      sealProcessEnvironment([], [...this.credentials]);
      // Loaded on the first prompt, not at activation: the SDK is most of the bundle's start-up cost.
      const { createAnthropicModel } = await import('../core/session/model');
      const { createHttpFetch } = await import('../core/session/model');
      // No agent of ours: the extension host's patched http/https apply http.proxy / http.proxySupport.
      const fetch = createHttpFetch('host');
      const retryWait = { maxMs: settings.session.maxRetryWait * 1000, setting: 'delegate.maxRetryWaitSeconds' };
      this.anthropic = { key, port: createAnthropicModel({ ...credentials, ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}), fetch, retryWait }) };
    }
    return { port: this.anthropic.port, modelId: settings.anthropicModel, provider: 'anthropic' };
  }

  /** A problem, with how many models the editor has (the buttons that fix it depend on it). */
  async problem(kind: SetupProblem['kind'], message: string): Promise<SetupProblem> {
    return { kind, message, editorModels: (await this.catalog.models()).length };
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
