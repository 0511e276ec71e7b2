#!/usr/bin/env node
// Runs VS Code extension tests inside a REAL VS Code 1.139 (code-server's server + Debian Chromium), offline.
// The test payload (extensionDevelopmentPath + extensionTestsPath) reaches the editor through the browser client's URL;
// the extension host's console comes back through `codeAutomationLog`, run()'s result through `codeAutomationExit`.
//   CLI:  node scripts/editor/run-extension-tests.mjs --extension DIR --tests FILE [--workspace DIR (default: empty temp)]
//           [--settings JSON_FILE] [--screenshot FILE.png] [--timeout MS] [--workspace-trust enabled|disabled]
//           [--disable-extension ID]... [--verbose]      exit code = run()'s (0 passed), 124 timeout, 1 error
//   API:  runExtensionTests({...}) -> {exitCode, log};  openEditorPage({...}) -> {page, editor, context, url, close()} for UI tests, plus helpers
//         (waitForWorkbench, answerTrustDialog, runCommand, webviewFrame, findNotification); see test/vscode-smoke/e2e.mjs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startEditor, onExitCleanup, killProcessesMatching } from './editor-server.mjs';
import { ensureEditor, editorPaths } from './install-editor.mjs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The workbench URL that opens `workspace` and, if given, loads an extension under development and its tests. */
export function workbenchUrl(editor, { workspace, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${editor.port}${path.resolve(p)}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  let url = `${editor.url}/?folder=${encodeURIComponent(path.resolve(workspace))}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/**
 * Launches Debian's Chromium headless (a fresh profile of its own) and opens `url` in it. `codeAutomationLog` and
 * `codeAutomationExit` are exposed before navigation. Returns {context, page, close}; close() also runs on exit/signals.
 */
export async function openBrowserPage(url, { onLog, onExit, viewport = { width: 1400, height: 900 }, verbose = false } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'delegate-chromium-'));
  let context;
  // On exit/signals: every Chromium process of ours has the unique profile folder on its command line.
  const killNow = () => {
    killProcessesMatching(profile);
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  const unregister = onExitCleanup(killNow);
  const close = async () => {
    unregister();
    await context?.close().catch(() => {});
    killNow();
  };
  try {
    // XDG_* inside the profile: Chromium's crash handler would otherwise write to ~/.config/chromium.
    const env = { ...process.env, XDG_CONFIG_HOME: path.join(profile, 'xdg-config'), XDG_CACHE_HOME: path.join(profile, 'xdg-cache') };
    context = await chromium.launchPersistentContext(profile, { executablePath: editorPaths.chromium, headless: true, args: CHROMIUM_ARGS, viewport, env });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.exposeFunction('codeAutomationLog', (type, args) => onLog?.(type, Array.isArray(args) ? format(...args) : String(args)));
    await page.exposeFunction('codeAutomationExit', (code) => onExit?.(code));
    if (verbose) page.on('console', (m) => m.type() === 'error' && console.log(`[browser] ${m.text()}`));
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    return { context, page, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Starts the editor and a headless Chromium showing its workbench: the page can be driven like a user would
 * (F1 for the command palette, page.frameLocator('iframe.webview') ... for webviews, page.screenshot()).
 * @param {object} o  workspace, settings (User settings), workspaceTrust ('enabled'|'disabled', default 'disabled'),
 *   extensionDevelopmentPath, extensionTestsPath, vsixPaths (installed first), onLog(type, text), onExit(code),
 *   onPhase(text), viewport ({width, height}), verbose (print server output and browser console errors), port
 * @returns {{editor, context, page, url, close: () => Promise<void>}}
 */
export async function openEditorPage({ workspace, settings = {}, workspaceTrust = 'disabled', extensionDevelopmentPath, extensionTestsPath, vsixPaths = [], disableExtensions = [], onLog, onExit, onPhase = () => {}, viewport, verbose = false, port } = {}) {
  if (!workspace) throw new Error('openEditorPage: workspace is required');
  ensureEditor({ log: () => {} });
  onPhase('starting editor server');
  const editor = await startEditor({ workspace, userSettings: settings, workspaceTrust, vsixPaths, disableExtensions, port, onOutput: verbose ? (l) => console.log(`[server] ${l}`) : undefined });
  try {
    onPhase(`editor server up at ${editor.url}; launching Chromium`);
    const url = workbenchUrl(editor, { workspace, extensionDevelopmentPath, extensionTestsPath });
    const browser = await openBrowserPage(url, { onLog, onExit, viewport, verbose });
    onPhase('workbench page loaded');
    const close = async () => {
      await Promise.all([browser.close(), editor.stop()]);
    };
    return { editor, context: browser.context, page: browser.page, url, close };
  } catch (err) {
    await editor.stop();
    throw err;
  }
}

/** Waits for the workbench to render (the activity bar and status bar exist). */
export async function waitForWorkbench(page, timeoutMs = 60_000) {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Runs a command from the command palette (F1), as a user would, by its title, e.g. 'Delegate: New Task'. */
export async function runCommand(page, title, timeoutMs = 15_000) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: timeoutMs });
  await page.keyboard.press('Enter');
}

/**
 * The content of a webview (panel or view) as a Playwright FrameLocator: VS Code puts it two iframes deep
 * (iframe.webview > iframe#active-frame). `title` picks the webview whose outer iframe has that title, if several.
 */
export function webviewFrame(page, title) {
  const outer = title ? page.locator(`iframe.webview[title="${title}"]`) : page.locator('iframe.webview.ready');
  return outer.first().contentFrame().locator('iframe#active-frame').contentFrame();
}

/** Opens the notifications center and returns a locator for a notification containing `text` (toasts may not show). */
export async function findNotification(page, text, timeoutMs = 15_000) {
  await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text });
  await item.first().waitFor({ state: 'visible', timeout: timeoutMs });
  return item.first();
}

// Workbench errors that are expected offline and say nothing about the extension under test (shown with --verbose).
const HARMLESS = [/open-vsx\.org/, /Failed to register a ServiceWorker/, /authentication provider 'github'/, /vsda/, /refused to show dialog in tests\. Contents: Do you trust the authors/];

/**
 * Answers the workspace trust dialog (workspaceTrust 'enabled') as a user would. It comes a few seconds AFTER the
 * workbench shows "Restricted Mode" in the status bar, so wait for the dialog itself, not for the status bar.
 */
export async function answerTrustDialog(page, { trust = true, timeoutMs = 60_000 } = {}) {
  const button = page.getByRole('button', { name: trust ? 'Yes, I trust the authors' : "No, I don't trust the authors" });
  await button.waitFor({ state: 'visible', timeout: timeoutMs });
  await button.click();
  if (trust) await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'hidden', timeout: timeoutMs });
}

/**
 * Runs extension tests in the real editor (`vsixPaths`: other extensions installed first; only one extension can be
 * under development: the workbench's URL payload is a map). Resolves {exitCode, log}; exitCode is run()'s (0 = passed), 124 on timeout,
 * 1 when the editor or browser failed. Everything started is stopped before this resolves.
 */
export async function runExtensionTests({ extensionDevelopmentPath, extensionTestsPath, workspace, settings = {}, workspaceTrust = 'disabled', disableExtensions = [], vsixPaths = [], screenshotPath, timeoutMs = 300_000, quiet = false, verbose = false }) {
  const lines = [];
  const print = (line) => {
    lines.push(line);
    if (!quiet) console.log(line);
  };
  const t0 = performance.now();
  const phase = (what) => print(`[run-extension-tests] +${((performance.now() - t0) / 1000).toFixed(1)} s ${what}`);
  let hidden = 0;
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  let session;
  let exitCode = 1;
  let timer;
  try {
    session = await openEditorPage({
      workspace,
      settings,
      workspaceTrust,
      disableExtensions,
      vsixPaths,
      extensionDevelopmentPath,
      extensionTestsPath,
      verbose,
      onPhase: phase,
      onLog: (type, text) => {
        if (!verbose && HARMLESS.some((re) => re.test(text))) return void hidden++;
        print(type === 'error' ? `[error] ${text}` : text);
      },
      onExit: (code) => {
        phase(`extension tests finished: run() exit code ${code}`);
        resolveExit(code);
      },
    });
    const timedOut = new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    const result = await Promise.race([exited, timedOut]);
    if (result === 'timeout') {
      print(`[run-extension-tests] TIMEOUT: no result from the extension tests after ${timeoutMs} ms`);
      exitCode = 124;
    } else {
      exitCode = Number(result) || 0;
    }
    if (screenshotPath) {
      fs.mkdirSync(path.dirname(path.resolve(screenshotPath)), { recursive: true });
      await session.page.screenshot({ path: screenshotPath }).catch((e) => print(`[run-extension-tests] screenshot failed: ${e.message}`));
    }
  } catch (err) {
    print(`[run-extension-tests] ERROR: ${err.stack ?? err}`);
    exitCode = 1;
  } finally {
    clearTimeout(timer);
    await session?.close();
    phase(`editor and browser stopped${hidden ? ` (${hidden} known-harmless workbench errors hidden; --verbose shows them)` : ''}`);
  }
  return { exitCode, log: lines.join('\n') };
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--extension') opts.extensionDevelopmentPath = path.resolve(next());
    else if (a === '--tests') opts.extensionTestsPath = path.resolve(next());
    else if (a === '--workspace') opts.workspace = path.resolve(next());
    else if (a === '--settings') opts.settings = JSON.parse(fs.readFileSync(next(), 'utf8'));
    else if (a === '--screenshot') opts.screenshotPath = path.resolve(next());
    else if (a === '--timeout') opts.timeoutMs = Number(next());
    else if (a === '--workspace-trust') opts.workspaceTrust = next();
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--disable-extension') (opts.disableExtensions ??= []).push(next());
    else throw new Error(`unknown argument ${a}`);
  }
  for (const k of ['extensionDevelopmentPath', 'extensionTestsPath']) if (!opts[k]) throw new Error('usage: run-extension-tests.mjs --extension DIR --tests FILE [--workspace DIR] [--settings FILE] [--screenshot FILE] [--timeout MS] [--workspace-trust enabled|disabled] [--disable-extension ID]... [--verbose]');
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
  ensureEditor();
  // No --workspace: an empty temporary folder, removed afterwards.
  const tempWorkspace = opts.workspace ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'delegate-test-ws-'));
  opts.workspace ??= tempWorkspace;
  const { exitCode } = await runExtensionTests(opts);
  if (tempWorkspace) fs.rmSync(tempWorkspace, { recursive: true, force: true });
  console.log(`[run-extension-tests] exit code ${exitCode} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(exitCode);
}
