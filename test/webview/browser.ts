/**
 * Headless Chromium around the built panel (dist/webview/test-harness.html): launch, open a
 * page (optionally with a saved webview state), post host messages, read what the panel posted
 * and what it saved; `panelSuite` is the set-up every panel suite shares. Page-side code only touches
 * `globalThis` (the root tsconfig has no DOM lib).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostToWebview, WebviewToHost } from '../../src/protocol';

export const ROOT_DIR = join(__dirname, '..', '..');
const HARNESS = join(ROOT_DIR, 'dist', 'webview', 'test-harness.html');
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

export interface PanelSuite {
  /** The suite's browser. */
  readonly browser: Browser;
  /** This test's panel (with `pagePerTest`, the default). */
  readonly page: Page;
}

/**
 * The set-up every panel suite shares, inside its `describe`: the panel built (scripts/build-webview.mjs), Chromium
 * required and launched once for the suite, the artifacts folder made, and unless `pagePerTest` is false a fresh
 * panel of `size` for each test, closed after it.
 */
export function panelSuite(options: { size?: { width: number; height: number }; pagePerTest?: boolean } = {}): PanelSuite {
  let browser: Browser | undefined;
  let page: Page | undefined;
  before(async () => {
    execFileSync(process.execPath, [join(ROOT_DIR, 'scripts', 'build-webview.mjs')], { stdio: 'pipe' });
    requireBrowser();
    browser = await launch();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });
  if (options.pagePerTest !== false) {
    beforeEach(async () => {
      if (!browser) throw new Error('panelSuite: the browser did not start');
      page = await openPanel(browser, undefined, options.size);
    });
    afterEach(async () => {
      await page?.close();
    });
  }
  return {
    get browser() {
      if (!browser) throw new Error('panelSuite: no browser outside the suite');
      return browser;
    },
    get page() {
      if (!page) throw new Error('panelSuite: no page outside a test (or pagePerTest is false)');
      return page;
    },
  };
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

/** What the panel posted, but its `focus` reports (they keep an editor context; when Chromium sends them varies). */
export async function posted(page: Page): Promise<WebviewToHost[]> {
  const all = await page.evaluate(() => (globalThis as unknown as HarnessWindow).__harness.posted);
  return all.filter((m) => m.type !== 'focus');
}

export async function savedState(page: Page): Promise<unknown> {
  return page.evaluate(() => (globalThis as unknown as HarnessWindow).__harness.state);
}
