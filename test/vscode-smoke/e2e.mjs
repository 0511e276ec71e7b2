#!/usr/bin/env node
// End-to-end smoke test: drives the real VS Code 1.139 in headless Chromium as a user would — answers the workspace
// trust dialog, runs commands from the command palette, clicks inside a webview, reads a notification, screenshots.
//   node test/vscode-smoke/e2e.mjs [--screenshot test-artifacts/editor-e2e.png]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEditorPage, waitForWorkbench, answerTrustDialog, runCommand, webviewFrame, findNotification } from '../../scripts/editor/run-extension-tests.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const shotArg = process.argv.indexOf('--screenshot');
const screenshot = path.resolve(shotArg > 0 ? process.argv[shotArg + 1] : path.join(here, '../../test-artifacts/editor-e2e.png'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'delegate-e2e-ws-'));
fs.writeFileSync(path.join(workspace, 'README.md'), '# e2e workspace\n');

const steps = [];
const step = (name, fn) => steps.push({ name, fn });
let passed = 0;
let failed = 0;

const session = await openEditorPage({ workspace, workspaceTrust: 'enabled', extensionDevelopmentPath: here });
const { page } = session;
try {
  step('the workbench renders', () => waitForWorkbench(page));
  step('the workspace trust dialog can be answered', () => answerTrustDialog(page));
  step('a command runs from the command palette', async () => {
    await runCommand(page, 'Delegate Smoke: Hello');
    await findNotification(page, 'Delegate smoke says hello to world');
    await page.keyboard.press('Escape');
  });
  step('a webview opens and answers a click', async () => {
    await runCommand(page, 'Delegate Smoke: Open Panel');
    const frame = webviewFrame(page);
    await frame.getByRole('button', { name: 'Ping the extension' }).click({ timeout: 30_000 });
    const reply = frame.locator('#reply');
    await reply.filter({ hasText: 'pong' }).waitFor({ timeout: 15_000 });
    assert.match(await reply.textContent(), /pong from the extension host \(VS Code 1\.139\./);
  });
  for (const { name, fn } of steps) {
    const t0 = performance.now();
    try {
      await fn();
      passed++;
      console.log(`  ✔ ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failed++;
      console.log(`  ✘ ${name}: ${err.message.split('\n')[0]}`);
      break; // later steps depend on earlier ones
    }
  }
  fs.mkdirSync(path.dirname(screenshot), { recursive: true });
  await page.screenshot({ path: screenshot });
  console.log(`  screenshot: ${path.relative(process.cwd(), screenshot)}`);
} finally {
  await session.close();
  fs.rmSync(workspace, { recursive: true, force: true });
}
const skipped = steps.length - passed - failed;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed || skipped ? 1 : 0);
