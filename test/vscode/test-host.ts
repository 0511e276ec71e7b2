/**
 * What an extension-host suite starts from: the extension activated, a fresh local Messages-API server, and the
 * editor's Delegate settings pointed at it (a test key, `test-model`), over the test workspace's folder.
 *
 *   before(async () => ({ api, server, workdir } = await startTestHost()));
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';

export const EXTENSION_ID = 'delegate-dev.delegate';

export interface TestHost {
  api: DelegateApi;
  server: MessagesApiServer;
  /** The test workspace's folder. */
  workdir: string;
}

export async function startTestHost(): Promise<TestHost> {
  const ext = vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  const api = await ext.activate();
  const server = await startMessagesApiServer();
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace is open');
  process.env.ANTHROPIC_API_KEY = 'test-key';
  const config = vscode.workspace.getConfiguration('delegate');
  await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
  await config.update('model', 'test-model', vscode.ConfigurationTarget.Global);
  return { api, server, workdir: folder.uri.fsPath };
}
