/**
 * One real editor per end-to-end suite, set up the way every panel suite needs it (the call registers the
 * mocha hooks):
 *
 *   before     local Messages-API server (requires the key) ─▶ scratch workspace ─▶ editor with the packaged
 *              extension and the suite's settings ─▶ Delegate view open ─▶ key set through the palette
 *   beforeEach requests() starts over (the server lives across tests)
 *   after      editor, server and workspace gone
 *
 *   const editor = delegateEditorSuite('changes', API_KEY, { 'delegate.permissionMode': 'acceptEdits' });
 *   before(() => ({ server, workspace, page, panel } = editor.parts()));
 */
import type { Page } from 'playwright-core';
import { startMessagesApiServer, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { openDelegateEditor, type EditorSession } from './editor';
import { createWorkspace } from './fixtures';
import { Panel } from './panel';
import { openDelegateView, setApiKeyFromPalette } from './workbench';

export interface EditorSuiteParts {
  server: MessagesApiServer;
  workspace: ReturnType<typeof createWorkspace>;
  page: Page;
  panel: Panel;
}

export interface EditorSuite {
  /** What `before` set up (call it from a later `before` or a test). */
  parts(): EditorSuiteParts;
  /** This test's Messages-API requests only. */
  requests(): RecordedRequest[];
}

/** `settings` go on top of the local server's base URL and the model `test-model`. */
export function delegateEditorSuite(name: string, apiKey: string, settings: Record<string, unknown> = {}): EditorSuite {
  let parts: EditorSuiteParts | undefined;
  let session: EditorSession | undefined;
  let server: MessagesApiServer | undefined;
  let workspace: ReturnType<typeof createWorkspace> | undefined;
  let since = 0;

  before(async function () {
    this.timeout(240_000);
    server = await startMessagesApiServer({ requireKey: apiKey });
    workspace = createWorkspace(name);
    session = await openDelegateEditor({
      workspace: workspace.dir,
      settings: { 'delegate.baseUrl': server.baseURL, 'delegate.model': 'test-model', ...settings },
    });
    const page = session.page;
    await openDelegateView(page);
    const panel = await Panel.of(page);
    await setApiKeyFromPalette(page, apiKey);
    parts = { server, workspace, page, panel };
  });

  after(async function () {
    this.timeout(60_000);
    await session?.close();
    await server?.close();
    workspace?.remove();
  });

  beforeEach(() => {
    since = server?.messageRequests().length ?? 0;
  });

  return {
    parts: () => {
      if (!parts) throw new Error(`the ${name} editor is not set up (its before hook failed)`);
      return parts;
    },
    requests: () => server?.messageRequests().slice(since) ?? [],
  };
}
