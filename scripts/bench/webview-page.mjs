// The panel in headless Chromium, as the webview bench and the frame profiler drive it: launch, open the
// harness page, post a snapshot and time it to painted, and send a burst of events in host-style batches
// while recording every frame. Page code uses globalThis.* only (this file is linted without browser globals).
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { require as tsxRequire } from 'tsx/cjs/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// DELEGATE_WEBVIEW_DIR: another build of the panel (e.g. main's, to compare side by side).
export const webviewDir = process.env.DELEGATE_WEBVIEW_DIR ?? join(root, 'dist', 'webview');
const harness = join(webviewDir, 'test-harness.html');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The project's TS is CommonJS-flavoured (no "type": "module"): load it through tsx's CJS API.
export const { createSessionView, applyEvents } = tsxRequire('../../src/view-model/session-view.ts', import.meta.url);
export const { bigSession, ROOT } = tsxRequire('../../test/webview/fixtures.ts', import.meta.url);

export async function launchBrowser() {
  if (!existsSync(harness)) {
    console.error('dist/webview/test-harness.html is missing: run node scripts/build-webview.mjs first');
    process.exit(1);
  }
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Opens the harness page of the build in `dir` (default: this checkout's dist/webview). */
export async function openPage(browser, savedState, dir = webviewDir) {
  const page = await browser.newPage({ viewport: { width: 420, height: 800 } });
  if (savedState) await page.addInitScript((s) => (globalThis.__harnessInitialState = s), savedState);
  await page.goto(pathToFileURL(join(dir, 'test-harness.html')).href);
  await page.waitForFunction(() => globalThis.__harness.posted.some((m) => m.type === 'ready'));
  return page;
}

export const { encodeSnapshot } = tsxRequire('../../src/view-model/snapshot-codec.ts', import.meta.url);

/**
 * Posts a snapshot and waits until the row `waitForId` is in the DOM and a frame was painted. `packed`: as the
 * editor posts it (src/vscode/view-provider.ts: a slim copy packed by snapshot-codec.ts, one string to clone),
 * else the state object itself. The time covers the post (its structured clone), the decode and the render (the
 * packing is the host's, before). Also says how many rows the DOM holds.
 */
export async function timeSnapshot(page, snapshot, waitForId, { packed = false } = {}) {
  const message = packed ? { type: 'snapshot', packed: encodeSnapshot(snapshot), running: snapshot.running } : { type: 'snapshot', state: snapshot, running: snapshot.running };
  return page.evaluate(
    ({ message, waitForId }) =>
      new Promise((resolve) => {
        const g = globalThis;
        const t0 = performance.now();
        g.postMessage(message, '*');
        const check = () => {
          if (!g.document.querySelector(`[data-id="${waitForId}"]`)) return g.requestAnimationFrame(check);
          // One more frame: style, layout and paint of the rows.
          g.requestAnimationFrame(() => resolve({ ms: performance.now() - t0, rows: domRowsIn(g) }));
        };
        const domRowsIn = (w) => w.document.querySelectorAll('.conversation > .tree-row, vscode-tree-item').length;
        g.requestAnimationFrame(check);
      }),
    { message, waitForId },
  );
}

/** Rows in the DOM now (the virtual list's; vscode-tree-items for an older build). */
export async function domRows(page) {
  return page.evaluate(() => globalThis.document.querySelectorAll('.conversation > .tree-row, vscode-tree-item').length);
}

/** A running 5,000-call task open on its newest rows, and the 1,000 events (500 calls) of a burst into it. */
export async function burstScene(browser, dir = webviewDir) {
  const s = bigSession(5000);
  const base = createSessionView();
  applyEvents(base, s.take());
  const page = await openPage(browser, undefined, dir);
  await timeSnapshot(page, base, 'tool:big-4999');
  for (let i = 0; i < 500; i++) s.tool('agent-big', ROOT, `burst-${i}`, 'bash', { command: `echo ${i}` }, `out ${i}`);
  return { page, events: s.take() };
}

/**
 * Sends `events` in batches of `batchSize` every `intervalMs`. In the page: frame intervals
 * (rAF timestamps) during the burst, and per batch the time from postMessage to the moment its
 * last row — or a later batch's, when several were drawn in one frame — is in the DOM (MutationObserver,
 * before paint). Resolves once the last batch's rows are in the DOM and the frame that shows them ran.
 */
export async function burst(page, events, batchSize, intervalMs) {
  const batches = [];
  for (let i = 0; i < events.length; i += batchSize) {
    const batch = events.slice(i, i + batchSize);
    const lastTool = [...batch].reverse().find((e) => e.type === 'tool_call' && e.state === 'pending');
    batches.push({ events: batch, lastId: `tool:${lastTool.id}` });
  }
  return page.evaluate(
    ({ batches, intervalMs }) =>
      new Promise((resolve) => {
        const g = globalThis;
        const frames = [];
        const latencies = [];
        const pending = [];
        let done = false;
        let last = 0;
        const t0 = performance.now();
        g.console.timeStamp('delegate-burst'); // marks the window in a trace (frame-trace.mjs)
        const observer = new g.MutationObserver(() => {
          const now = performance.now();
          // The newest batch whose last row is in the DOM: it and every batch before it have been drawn (an
          // earlier batch's last row may already have scrolled past the overscan when two batches share a frame).
          for (let j = pending.length - 1; j >= 0; j--) {
            if (!g.document.querySelector(`[data-id="${pending[j].lastId}"]`)) continue;
            for (const batch of pending.splice(0, j + 1)) latencies.push(now - batch.at);
            break;
          }
          if (pending.length === 0 && sent === batches.length && !done) {
            done = true;
            observer.disconnect();
            // Let the frame that shows the last rows finish.
            g.requestAnimationFrame(() => {
              g.console.timeStamp('delegate-burst');
              resolve({ frames, work, latencies, totalMs: performance.now() - t0 });
            });
          }
        });
        // A row comes into the DOM as a new element, or as an element of a row that left, filled again (data-id).
        observer.observe(g.document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-id'] });
        // Frame work without a trace: this callback is the frame's first (registered in the previous
        // frame, before the panel schedules its flush); a MessageChannel message posted here runs as the
        // first task after the frame — after the panel's flush, lit's renders, style, layout and paint.
        const work = [];
        const channel = new g.MessageChannel();
        let frameStart = 0;
        channel.port1.onmessage = () => work.push(performance.now() - frameStart);
        const onFrame = (ts) => {
          if (last) frames.push(ts - last);
          last = ts;
          frameStart = performance.now();
          channel.port2.postMessage(0);
          if (!done) g.requestAnimationFrame(onFrame);
        };
        g.requestAnimationFrame(onFrame);
        let sent = 0;
        const send = () => {
          const batch = batches[sent];
          pending.push({ at: performance.now(), lastId: batch.lastId });
          sent += 1;
          g.postMessage({ type: 'events', events: batch.events }, '*');
          if (sent < batches.length) g.setTimeout(send, intervalMs);
        };
        send();
      }),
    { batches, intervalMs },
  );
}

/**
 * The floor under the burst, beside it: in a burst scene's page, a copy of the panel's list with no panel script
 * attached (a clone has no listeners or observers) gets what any list showing the burst must do — each frame, 25
 * of its rows filled again with a new call's text and moved to the end, the list 25 rows longer and scrolled to
 * its end — and its frame work is measured as burst() measures the panel's.
 */
export async function floorBurst(page, frames = 21) {
  return page.evaluate(
    (frames) =>
      new Promise((resolve) => {
        const g = globalThis;
        const old = g.document.querySelector('.log');
        const log = old.cloneNode(true);
        old.replaceWith(log);
        const list = log.querySelector('.conversation');
        const rows = [...list.querySelectorAll('.tool-row')];
        const startOf = (row) => Number(/translateY\(([\d.]+)px\)/.exec(row.style.transform)?.[1] ?? 0);
        let end = Math.max(...rows.map(startOf));
        let next = 0;
        let n = 0;
        let f = 0;
        const work = [];
        const channel = new g.MessageChannel();
        let frameStart = 0;
        channel.port1.onmessage = () => work.push(performance.now() - frameStart);
        const frame = () => {
          frameStart = performance.now();
          channel.port2.postMessage(0);
          for (let i = 0; i < 25; i++) {
            const row = rows[next];
            next = (next + 1) % rows.length;
            end += 22;
            n += 1;
            const summary = row.querySelector('.tool-summary');
            if (summary) summary.textContent = `echo floor ${n}`;
            row.dataset.id = `tool:floor-${n}`;
            row.style.transform = `translateY(${end}px)`;
          }
          list.style.height = `${end + 22}px`;
          log.scrollTop = end + 22;
          if (++f < frames) g.requestAnimationFrame(frame);
          else g.setTimeout(() => resolve(work), 50);
        };
        // Two frames first: the copy's own first style and layout are not the burst's.
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => g.requestAnimationFrame(frame)));
      }),
    frames,
  );
}
