/**
 * The real editor for the end-to-end tests: typed access to scripts/editor/run-extension-tests.mjs
 * (a plain .mjs module, loaded with a dynamic import) and `openDelegateEditor()`, which starts a
 * VS Code 1.139 server with the extension installed — from the .vsix that scripts/test-e2e.mjs
 * packaged (DELEGATE_E2E_VSIX), or else the repository as extensionDevelopmentPath — and opens its
 * workbench in headless Chromium. Also: screenshots into test-artifacts/e2e/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';

export const ROOT_DIR = join(__dirname, '..', '..');
const ARTIFACTS = join(ROOT_DIR, 'test-artifacts', 'e2e');

export interface EditorSession {
  editor: { url: string; port: number; workspace: string; dirs: { userData: string }; output(): string };
  context: BrowserContext;
  page: Page;
  url: string;
  close(): Promise<void>;
}

interface OpenEditorOptions {
  workspace: string;
  settings?: Record<string, unknown>;
  workspaceTrust?: 'enabled' | 'disabled';
  extensionDevelopmentPath?: string;
  vsixPaths?: string[];
  viewport?: { width: number; height: number };
  verbose?: boolean;
  onPhase?: (text: string) => void;
}

/** The parts of scripts/editor/run-extension-tests.mjs these tests use (see that file's header). */
export interface EditorModule {
  openEditorPage(options: OpenEditorOptions): Promise<EditorSession>;
  waitForWorkbench(page: Page, timeoutMs?: number): Promise<void>;
  answerTrustDialog(page: Page, options?: { trust?: boolean; timeoutMs?: number }): Promise<void>;
  webviewFrame(page: Page, title?: string): FrameLocator;
  findNotification(page: Page, text: string, timeoutMs?: number): Promise<Locator>;
}

let loaded: Promise<EditorModule> | undefined;

export function editorModule(): Promise<EditorModule> {
  const url = pathToFileURL(join(ROOT_DIR, 'scripts', 'editor', 'run-extension-tests.mjs')).href;
  loaded ??= import(url) as Promise<EditorModule>;
  return loaded;
}

export interface DelegateEditorOptions {
  workspace: string;
  /** User settings (merged over the runner's defaults). */
  settings: Record<string, unknown>;
  workspaceTrust?: 'enabled' | 'disabled';
  /** Put into the editor server's environment, which its extension host inherits (e.g. ANTHROPIC_API_KEY). */
  env?: Record<string, string>;
  /** Other extensions to install beside Delegate (e.g. the test language model's .vsix). */
  otherVsix?: string[];
}

/** How the extension gets into the editor: the packaged .vsix when the runner made one. */
function extensionSource(): { vsixPaths: string[] } | { extensionDevelopmentPath: string } {
  const vsix = process.env.DELEGATE_E2E_VSIX;
  return vsix ? { vsixPaths: [vsix] } : { extensionDevelopmentPath: ROOT_DIR };
}

function withOthers(source: ReturnType<typeof extensionSource>, others: string[]): { vsixPaths: string[]; extensionDevelopmentPath?: string } {
  return 'vsixPaths' in source ? { vsixPaths: [...source.vsixPaths, ...others] } : { ...source, vsixPaths: others };
}

/**
 * Starts the editor + Chromium and waits for the workbench. startEditor() builds the server's environment from
 * process.env, so `env` is set there for the duration of the start and restored afterwards.
 */
export async function openDelegateEditor(o: DelegateEditorOptions): Promise<EditorSession> {
  const mod = await editorModule();
  const saved = new Map<string, string | undefined>();
  for (const [k, v] of Object.entries(o.env ?? {})) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
  const verbose = process.env.DELEGATE_E2E_VERBOSE === '1';
  const t0 = performance.now();
  let session: EditorSession;
  try {
    session = await mod.openEditorPage({
      workspace: o.workspace,
      settings: o.settings,
      workspaceTrust: o.workspaceTrust ?? 'disabled',
      viewport: { width: 1400, height: 900 },
      verbose,
      onPhase: verbose ? (p) => console.log(`      [editor] +${((performance.now() - t0) / 1000).toFixed(1)} s ${p}`) : undefined,
      ...withOthers(extensionSource(), o.otherVsix ?? []),
    });
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) Reflect.deleteProperty(process.env, k);
      else process.env[k] = v;
    }
  }
  try {
    await mod.waitForWorkbench(session.page);
  } catch (err) {
    await session.close();
    throw err;
  }
  console.log(`      (editor up in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return session;
}

/** Saves a full-window screenshot as test-artifacts/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  // The pointer rests where the last click was: move it to an empty spot so no row shows a hover highlight.
  await page.mouse.move(1100, 200);
  await page.screenshot({ path: file });
  return file;
}
