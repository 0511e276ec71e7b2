/**
 * The editor's language models, as Delegate names and finds them.
 *
 *   name    `vendor/id` (copilot/gpt-4o): the model id of a session's events, transcripts and settings
 *   find    an agent definition's `model` (or a `delegate.modelAliases` value): `vendor/id`, id,
 *           `vendor/family`, family or display name, case-insensitive, first match
 *   pick    `delegate.vscodeModel` ({vendor, family, id}, any subset) ─▶ the first match that can call
 *           tools; nothing set ─▶ the first model of the editor that can (else the first: its run says why not)
 *
 * The list is asked for once and kept until the editor says the models changed.
 */
import * as vscode from 'vscode';
import { supportsToolCalling } from './lm-errors';

export interface VscodeModelSetting {
  vendor?: string;
  family?: string;
  id?: string;
}

export function modelKey(model: Pick<vscode.LanguageModelChat, 'vendor' | 'id'>): string {
  return `${model.vendor}/${model.id}`;
}

function describeSetting(s: VscodeModelSetting): string {
  return (['vendor', 'family', 'id'] as const)
    .filter((k) => s[k])
    .map((k) => `${k} ${s[k]}`)
    .join(', ');
}

export type PickResult = { model: vscode.LanguageModelChat } | { problem: string };

export class LmCatalog implements vscode.Disposable {
  private all: Thenable<vscode.LanguageModelChat[]> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.lm.onDidChangeChatModels(() => (this.all = undefined));
  }

  /** Every chat model the editor offers now (the editor's own order). */
  models(): Thenable<vscode.LanguageModelChat[]> {
    this.all ??= vscode.lm.selectChatModels();
    return this.all;
  }

  async find(name: string): Promise<vscode.LanguageModelChat | undefined> {
    const wanted = name.trim().toLowerCase();
    if (!wanted) return undefined;
    const models = await this.models();
    const tests: ((m: vscode.LanguageModelChat) => string)[] = [modelKey, (m) => m.id, (m) => `${m.vendor}/${m.family}`, (m) => m.family, (m) => m.name];
    for (const test of tests) {
      const hit = models.find((m) => test(m).toLowerCase() === wanted);
      if (hit) return hit;
    }
    return undefined;
  }

  async pick(setting: VscodeModelSetting): Promise<PickResult> {
    const selector = Object.fromEntries(Object.entries(setting).filter(([, v]) => typeof v === 'string' && v.trim())) as vscode.LanguageModelChatSelector;
    const named = Object.keys(selector).length > 0;
    const models = named ? await vscode.lm.selectChatModels(selector) : await this.models();
    // One that cannot call tools is still returned when nothing else matches: its first request says why it cannot work.
    const model = models.find((m) => supportsToolCalling(m) !== false) ?? models[0];
    if (model) return { model };
    if (named) return { problem: `no language model in this editor matches delegate.vscodeModel (${describeSetting(setting)}): choose one with “Delegate: Choose Model”` };
    return { problem: 'no language model in this editor: install an extension that provides one (GitHub Copilot Chat, for one) and sign in, or set an Anthropic API key' };
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
