/**
 * "Delegate: Choose Model": the editor's language models (what selectChatModels returns) and the
 * Anthropic API in one list. Picking a VS Code model writes delegate.provider = vscode and
 * delegate.vscodeModel = {vendor, family, id}; picking the Anthropic API writes delegate.provider =
 * anthropic. User settings: the choice follows the user across workspaces. Applies from the next prompt.
 */
import * as vscode from 'vscode';
import { supportsToolCalling } from './lm-errors';
import type { LmCatalog } from './lm-catalog';
import type { SessionController } from './session-controller';
import { readSettings } from './settings';

interface ModelItem extends vscode.QuickPickItem {
  model?: vscode.LanguageModelChat;
  anthropic?: true;
}

export function registerChooseModel(context: vscode.ExtensionContext, controller: SessionController): void {
  context.subscriptions.push(vscode.commands.registerCommand('delegate.chooseModel', () => chooseModel(controller.models.catalog)));
}

async function chooseModel(catalog: LmCatalog): Promise<vscode.LanguageModelChat | 'anthropic' | undefined> {
  const settings = readSettings();
  const models = await catalog.models();
  const current = (m: vscode.LanguageModelChat): boolean =>
    settings.provider !== 'anthropic' && (settings.vscodeModel.id ? m.id === settings.vscodeModel.id : m.vendor === settings.vscodeModel.vendor && m.family === settings.vscodeModel.family);
  const items: ModelItem[] = models.map((model) => {
    const tools = supportsToolCalling(model);
    return {
      label: model.name || model.id,
      description: `${model.vendor} · ${model.family}${current(model) ? ' · current' : ''}`,
      detail: [`id ${model.id}`, model.maxInputTokens > 0 ? `${model.maxInputTokens.toLocaleString('en-US')} input tokens` : '', tools === false ? 'cannot call tools: Delegate cannot use it' : '']
        .filter(Boolean)
        .join(' · '),
      model,
    };
  });
  if (items.length === 0) items.push({ label: 'No language models in this editor', description: 'install an extension that provides one (GitHub Copilot Chat, for one)' });
  items.push(
    { label: 'Messages API', kind: vscode.QuickPickItemKind.Separator },
    { label: 'Anthropic API', description: `${settings.anthropicModel}${settings.provider === 'anthropic' ? ' · current' : ''}`, detail: 'with your API key (Delegate: Set API Key); the model is delegate.model', anthropic: true },
  );
  const pick = await vscode.window.showQuickPick(items, { title: 'Delegate: Choose Model', placeHolder: 'The model Delegate\'s agents run on (the Chat view uses the model picked there)', matchOnDescription: true, matchOnDetail: true });
  if (!pick || (!pick.model && !pick.anthropic)) return undefined;
  const config = vscode.workspace.getConfiguration('delegate');
  if (pick.anthropic) {
    await config.update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    return 'anthropic';
  }
  const model = pick.model as vscode.LanguageModelChat;
  if (supportsToolCalling(model) === false) {
    void vscode.window.showWarningMessage(`Delegate: ${model.name} cannot call tools, and Delegate's agents work through tools. Pick another model.`);
    return undefined;
  }
  await config.update('vscodeModel', { vendor: model.vendor, family: model.family, id: model.id }, vscode.ConfigurationTarget.Global);
  await config.update('provider', 'vscode', vscode.ConfigurationTarget.Global);
  return model;
}
