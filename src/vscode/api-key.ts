/** The API key: kept in SecretStorage, with ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN as fallback. */
import * as vscode from 'vscode';

/** The SecretStorage entry (model-setup.ts watches it: the panel confirms a saved key). */
export const API_KEY_SECRET = 'delegate.anthropicApiKey';

export interface Credentials {
  apiKey?: string;
  authToken?: string;
  /** Where it came from, for a 401's "check …" (the variables name themselves). */
  keyHint?: string;
}

/** A stored key that the API refuses is fixed where it was set, not in a variable. */
const STORED_KEY_HINT = 'the key set with “Delegate: Set API Key”';

export async function readCredentials(secrets: vscode.SecretStorage): Promise<Credentials | undefined> {
  const stored = (await secrets.get(API_KEY_SECRET))?.trim();
  if (stored) return { apiKey: stored, keyHint: STORED_KEY_HINT };
  const envKey = process.env.ANTHROPIC_API_KEY?.trim();
  if (envKey) return { apiKey: envKey };
  const envToken = process.env.ANTHROPIC_AUTH_TOKEN?.trim();
  if (envToken) return { authToken: envToken };
  return undefined;
}

/** Stores the key (empty: removes it). `delegate.setApiKey` with a string argument comes here without asking. */
async function storeApiKey(secrets: vscode.SecretStorage, key: string): Promise<void> {
  if (key.trim()) await secrets.store(API_KEY_SECRET, key.trim());
  else await secrets.delete(API_KEY_SECRET);
}

/** Delegate: Set API Key. A string argument is the key itself (scripts, tests); without one the user is asked. */
export function registerApiKeyCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('delegate.setApiKey', (key?: unknown) => (typeof key === 'string' ? storeApiKey(context.secrets, key) : promptForApiKey(context.secrets))),
  );
}

async function promptForApiKey(secrets: vscode.SecretStorage): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'Delegate: Set API Key',
    prompt: 'Your Anthropic API key (stored in VS Code\'s secret storage). Leave empty to remove it.',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return false;
  await storeApiKey(secrets, key);
  return true;
}
