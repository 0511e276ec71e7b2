#!/usr/bin/env node
// What `npm start` runs after the build/package step: a real VS Code 1.139 (code-server's server, offline) on
// 127.0.0.1 with the packaged extension (.vsix) installed and a folder open. Prints the URL; Ctrl-C stops everything.
//   node scripts/editor/start.mjs [--vsix PATH] [--folder DIR] [--port N] [--workspace-trust enabled|disabled]
//                                 [--check [SCREENSHOT.png]] [--verbose]
//   --vsix     default: the newest *.vsix in the repository root
//   --folder   default: the repository root
//   --port     default: 8080, or a free port when 8080 is taken
//   --check    open the workbench once in headless Chromium, save a screenshot (default test-artifacts/start-check.png),
//              then stop and exit 0 (a non-interactive proof that `npm start` works; for CI)
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startEditor, freePort } from './editor-server.mjs';
import { ensureEditor, editorPaths } from './install-editor.mjs';

const log = (m) => console.log(`[start] ${m}`);

function parseArgs(argv) {
  const o = { folder: editorPaths.root, port: undefined, workspaceTrust: 'enabled', vsix: undefined, check: undefined, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--vsix') o.vsix = path.resolve(next());
    else if (a === '--folder') o.folder = path.resolve(next());
    else if (a === '--port') o.port = Number(next());
    else if (a === '--workspace-trust') o.workspaceTrust = next();
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--check') o.check = argv[i + 1]?.endsWith('.png') ? path.resolve(argv[++i]) : path.join(editorPaths.root, 'test-artifacts', 'start-check.png');
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

function newestVsix(dir) {
  const found = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.vsix'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return found[0];
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function check(url, screenshot) {
  const { openBrowserPage, waitForWorkbench } = await import('./run-extension-tests.mjs');
  const browser = await openBrowserPage(url);
  try {
    await waitForWorkbench(browser.page);
    // The installed extension's activity-bar entry proves the .vsix loaded (it appears a few seconds after the workbench).
    await browser.page.locator('.activitybar [aria-label^="Delegate"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    await browser.page.waitForTimeout(1000); // let the explorer settle for the picture
    fs.mkdirSync(path.dirname(screenshot), { recursive: true });
    await browser.page.screenshot({ path: screenshot });
    log(`check: workbench rendered with Delegate in the activity bar; screenshot ${path.relative(process.cwd(), screenshot)}`);
  } finally {
    await browser.close();
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  ensureEditor({ log: (m) => log(m) });
  const vsix = o.vsix ?? newestVsix(editorPaths.root);
  if (!vsix || !fs.existsSync(vsix)) throw new Error(`no .vsix found (looked for ${o.vsix ?? `*.vsix in ${editorPaths.root}`}); build one first, or pass --vsix PATH`);
  if (!fs.statSync(o.folder).isDirectory()) throw new Error(`--folder ${o.folder} is not a folder`);
  let port = o.port;
  if (port === undefined) port = (await portIsFree(8080)) ? 8080 : await freePort();
  log(`installing ${path.relative(process.cwd(), vsix) || vsix} and starting VS Code on 127.0.0.1:${port} ...`);
  const editor = await startEditor({ workspace: o.folder, vsixPaths: [vsix], port, workspaceTrust: o.workspaceTrust, onOutput: o.verbose ? (l) => console.log(`[server] ${l}`) : undefined });
  const url = `${editor.url}/?folder=${encodeURIComponent(o.folder)}`;
  if (o.check) {
    try {
      await check(url, o.check);
    } finally {
      await editor.stop();
    }
    return;
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(editorPaths.codeServerDir, 'lib', 'vscode', 'package.json'), 'utf8'));
  log(`VS Code ${version} is running with ${path.basename(vsix)} installed (fresh settings and extensions each start).`);
  console.log(`\n  Open: ${url}\n`);
  log('Ctrl-C stops it.');
  const { code, signal } = await editor.exited; // Ctrl-C: the handler in editor-server.mjs stops the process group and exits
  throw new Error(`the editor server stopped by itself (code ${code}, signal ${signal}):\n${editor.output().split('\n').slice(-20).join('\n')}`);
}

main().catch((err) => {
  console.error(`[start] FAILED: ${err.message}`);
  process.exit(1);
});
