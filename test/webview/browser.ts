/**
 * Headless Chromium around the built panel (dist/webview/test-harness.html): launch, open a
 * page (optionally with a saved webview state), post host messages, read what the panel posted
 * and what it saved. Page-side code only touches `globalThis` (the root tsconfig has no DOM lib).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostToWebview, WebviewToHost } from '../../src/protocol';

export const ROOT_DIR = join(__dirname, '..', '..');
export const HARNESS = join(ROOT_DIR, 'dist', 'webview', 'test-harness.html');
export const ARTIFACTS = join(ROOT_DIR, 'test-artifacts', 'webview');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface HarnessWindow {
  __harness: { posted: WebviewToHost[]; state: unknown };
  __harnessInitialState?: unknown;
  postMessage(message: unknown, targetOrigin: string): void;
  requestAnimationFrame(cb: () => void): number;
}

/**
 * Fails (never skips) when the browser or the built panel is missing: a suite that quietly skips on a machine
 * without Chromium would pass CI while testing nothing. `npm test` installs Chromium first when run as root.
 */
export function requireBrowser(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run sudo apt-get update && sudo apt-get install -y chromium (npm test does it as root)`);
  if (!existsSync(HARNESS)) throw new Error(`the panel is not built (${HARNESS} is missing): run npm run build`);
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Opens the panel; `savedState` plays the part of what VS Code kept from `setState`. */
export async function openPanel(browser: Browser, savedState?: unknown, size = { width: 420, height: 720 }): Promise<Page> {
  const page = await browser.newPage({ viewport: size, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  if (savedState !== undefined) {
    await page.addInitScript((state) => {
      (globalThis as unknown as HarnessWindow).__harnessInitialState = state;
    }, savedState);
  }
  await page.goto(pathToFileURL(HARNESS).href);
  await page.waitForFunction(() => (globalThis as unknown as HarnessWindow).__harness.posted.some((m) => m.type === 'ready'));
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  return page;
}

/** Posts host messages and waits two frames so the coalesced render has run. */
export async function send(page: Page, ...messages: HostToWebview[]): Promise<void> {
  await page.evaluate((msgs) => {
    for (const m of msgs) (globalThis as unknown as HarnessWindow).postMessage(m, '*');
  }, messages);
  await frames(page, 2);
}

export async function frames(page: Page, n: number): Promise<void> {
  // No named local functions in page code: tsx's keepNames would wrap them in `__name`, absent in the page.
  await page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) {
      await new Promise<void>((resolve) => (globalThis as unknown as HarnessWindow).requestAnimationFrame(() => resolve()));
    }
  }, n);
}

export async function posted(page: Page): Promise<WebviewToHost[]> {
  return page.evaluate(() => (globalThis as unknown as HarnessWindow).__harness.posted);
}

export async function savedState(page: Page): Promise<unknown> {
  return page.evaluate(() => (globalThis as unknown as HarnessWindow).__harness.state);
}
