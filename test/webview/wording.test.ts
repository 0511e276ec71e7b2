/**
 * Defects and wording (issue 15 §5) in headless Chromium: "Stop all" (the composer, only while something runs,
 * after Send in the Tab order) is told apart from a row's "Stop this subagent"; one word for a stop; the light
 * theme's success marks meet 3:1; the footer's totals fit the default 300 px side bar on one line.
 * Screenshots: test-artifacts/webview/footer-300.png, success-light.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { ARTIFACTS, launch, openPanel, requireBrowser, ROOT_DIR, send } from './browser';
import { finishedSession, runningSession } from './fixtures';
import { item } from './tree-dom';


function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

/** WCAG relative luminance of an sRGB colour given as [r, g, b] 0-255. */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
}

const rgb = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);

describe('defects and wording (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;

  before(async () => {
    execFileSync(process.execPath, [join(ROOT_DIR, 'scripts', 'build-webview.mjs')], { stdio: 'pipe' });
    requireBrowser();
    browser = await launch();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await page?.close();
  });

  it('"Stop all" shows only while something runs, comes after Send in the Tab order, and has its own glyph', async () => {
    page = await openPanel(browser);
    const stop = page.locator('vscode-button.stop-button');
    await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    assert.equal(await stop.isVisible(), false, 'not shown while nothing runs');
    assert.equal(await stop.getAttribute('disabled'), '');
    await page.locator('vscode-textarea.prompt-input').click();
    await page.keyboard.press('Tab');
    const focused = (): Promise<string | undefined> => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className);
    assert.equal(await focused(), 'send-button', 'Tab from the text box goes to Send');

    await send(page, { type: 'snapshot', state: snapshotOf(runningSession().events), running: true });
    assert.equal(await stop.isVisible(), true);
    assert.equal((await stop.textContent())?.trim(), 'Stop all');
    assert.equal(await stop.evaluate((e) => (e as unknown as { icon: string }).icon), 'stop-circle');
    await page.locator('vscode-textarea.prompt-input').click();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'send-button', 'still Send first while it runs');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'stop-button');
    // The row's stop is another glyph and names what it stops.
    const rowStop = page.locator(`${item('task:tu-up')} > .task-stop`);
    assert.ok(await rowStop.evaluate((e) => (e as unknown as { classList: { contains(c: string): boolean } }).classList.contains('codicon-debug-stop')));
    assert.match((await rowStop.getAttribute('title')) ?? '', /^Stop this subagent/);
  });

  it('one word for a stop: a task and a call the user stopped both read "stopped"', async () => {
    page = await openPanel(browser);
    const s = runningSession();
    s.childFinish('agent-nested', 'agent-up', 'cancelled', 1, 1, [900, 90], '', 'stopped by the user');
    await send(page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    const text = (await page.locator('.conversation').innerText()).toLowerCase();
    assert.ok(!/cancelled|stopped by you|stopped by the user/.test(text), text);
    assert.match(text, /stopped/);
  });

  it('the light theme\'s success marks meet 3:1 against the side bar', async () => {
    page = await openPanel(browser, { v: 1, expanded: { 'task:tu-a': true }, draft: '' }, { width: 420, height: 480 });
    await page.evaluate(() => {
      (globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = 'vscode-light';
    });
    await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    const marks = page.locator(`.tree-row.tool-row[data-parent="task:tu-a"][data-status='ok'] .row-status`);
    await marks.first().waitFor();
    const { color, opacity, background } = await marks.first().evaluate((e) => {
      const g = globalThis as unknown as { getComputedStyle(x: unknown): { color: string; opacity: string; backgroundColor: string }; document: { body: unknown } };
      return { color: g.getComputedStyle(e).color, opacity: g.getComputedStyle(e).opacity, background: g.getComputedStyle(g.document.body).backgroundColor };
    });
    const fg = rgb(color);
    const bg = rgb(background);
    const a = Number(opacity);
    const seen = fg.map((c, i) => a * c + (1 - a) * (bg[i] ?? 0));
    const ratio = (Math.max(luminance(seen), luminance(bg)) + 0.05) / (Math.min(luminance(seen), luminance(bg)) + 0.05);
    assert.ok(ratio >= 3, `contrast ${ratio.toFixed(2)}:1 (${color} at ${opacity} on ${background})`);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(ARTIFACTS, 'success-light.png') });
  });

  it('the footer\'s totals fit a 300 px side bar on one line, idle and running', async () => {
    page = await openPanel(browser, undefined, { width: 300, height: 420 });
    const state = snapshotOf(finishedSession().events);
    state.totals = { tokens: { input: 182_000, output: 9_400, cacheRead: 170_000 }, toolCalls: 142, tasks: 12, costUsd: 1.23 };
    const totals = page.locator('.totals');
    for (const running of [false, true]) {
      await send(page, { type: 'snapshot', state, running });
      const box = await totals.evaluate((e) => {
        const x = e as unknown as { textContent: string; scrollWidth: number; clientWidth: number; getClientRects(): { length: number }; offsetHeight: number };
        return { text: x.textContent, cut: x.scrollWidth > x.clientWidth, lines: x.getClientRects().length, height: x.offsetHeight };
      });
      assert.equal(box.text, '12 tasks · 142 calls · 191k tok · $1.23', 'the compact line (the cache share is in its tooltip)');
      assert.equal(box.cut, false, `not cut (running: ${running})`);
      assert.ok(box.height <= 16, `one line (${box.height} px, running: ${running})`);
    }
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(ARTIFACTS, 'footer-300.png') });
  });
});
