// Measures the panel in headless Chromium (dist/webview must be built: node scripts/build-webview.mjs):
//   1. time to render a 5,000-tool-call session from a snapshot (finished: task collapsed; running:
//      task open with its last 250 calls), and to build all 5,000 rows after "Show earlier calls",
//   2. ms per frame and event-to-DOM latency under a burst of 1,000 events (host-style 16 ms batches,
//      and all in one batch) into that open running task.
// All timings are taken inside the page with performance.now. Prints figures; no pass/fail.
// Page code uses globalThis.* only (this file is linted without browser globals).
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { require as tsxRequire } from 'tsx/cjs/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const harness = join(root, 'dist', 'webview', 'test-harness.html');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(harness)) {
  console.error('dist/webview/test-harness.html is missing: run node scripts/build-webview.mjs first');
  process.exit(1);
}

// The project's TS is CommonJS-flavoured (no "type": "module"): load it through tsx's CJS API.
const { createSessionView, applyEvents } = tsxRequire('../src/view-model/session-view.ts', import.meta.url);
const { bigSession, ROOT } = tsxRequire('../test/webview/fixtures.ts', import.meta.url);

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function openPage(savedState) {
  const page = await browser.newPage({ viewport: { width: 420, height: 800 } });
  if (savedState) await page.addInitScript((s) => (globalThis.__harnessInitialState = s), savedState);
  await page.goto(pathToFileURL(harness).href);
  await page.waitForFunction(() => globalThis.__harness.posted.some((m) => m.type === 'ready'));
  return page;
}

/** Posts a snapshot and waits until `expectedRows` tree-items exist and a frame was painted. */
async function timeSnapshot(page, snapshot, expectedRows) {
  return page.evaluate(
    ({ snapshot, expectedRows }) =>
      new Promise((resolve) => {
        const g = globalThis;
        const t0 = performance.now();
        g.postMessage({ type: 'snapshot', state: snapshot, running: snapshot.running }, '*');
        const check = () => {
          const rows = g.document.querySelectorAll('vscode-tree-item').length;
          if (rows < expectedRows) return g.requestAnimationFrame(check);
          // One more frame: style, layout and paint of the rows.
          g.requestAnimationFrame(() => resolve({ ms: performance.now() - t0, rows }));
        };
        g.requestAnimationFrame(check);
      }),
    { snapshot, expectedRows },
  );
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return `mean ${mean.toFixed(1)}  p50 ${pick(0.5).toFixed(1)}  p95 ${pick(0.95).toFixed(1)}  max ${pick(1).toFixed(1)}  (n=${values.length})`;
}

/**
 * Sends `events` in batches of `batchSize` every `intervalMs`. In the page: frame intervals
 * (rAF timestamps) during the burst, and per batch the time from postMessage to the moment its
 * last row is in the DOM (MutationObserver, before paint).
 */
async function burst(page, events, batchSize, intervalMs) {
  const batches = [];
  for (let i = 0; i < events.length; i += batchSize) {
    const batch = events.slice(i, i + batchSize);
    const lastTool = [...batch].reverse().find((e) => e.type === 'tool_started');
    batches.push({ events: batch, lastId: `tool:${lastTool.toolUseId}` });
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
        const observer = new g.MutationObserver(() => {
          const now = performance.now();
          while (pending.length && g.document.querySelector(`[data-id="${pending[0].lastId}"]`)) latencies.push(now - pending.shift().at);
          if (pending.length === 0 && sent === batches.length && !done) {
            done = true;
            observer.disconnect();
            // Let the frame that shows the last rows finish.
            g.requestAnimationFrame(() => resolve({ frames, latencies, totalMs: performance.now() - t0 }));
          }
        });
        observer.observe(g.document.body, { childList: true, subtree: true });
        const onFrame = (ts) => {
          if (last) frames.push(ts - last);
          last = ts;
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

/** Clicks "Show N earlier calls" and times until every row of the task exists (chunked, one chunk per frame). */
async function timeRevealAll(page, expectedRows) {
  return page.evaluate(
    (expectedRows) =>
      new Promise((resolve) => {
        const g = globalThis;
        const more = g.document.querySelector('vscode-tree-item.more-row');
        const t0 = performance.now();
        more.click();
        const check = () => {
          if (g.document.querySelectorAll('vscode-tree-item.tool-row').length < expectedRows) return g.requestAnimationFrame(check);
          g.requestAnimationFrame(() => resolve(performance.now() - t0));
        };
        g.requestAnimationFrame(check);
      }),
    expectedRows,
  );
}

const N = 5000;
const RUNS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Delegate webview bench — Chromium headless, 420x800 viewport, ${N} tool calls in one task`);
console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (timings scale with load); median of ${RUNS} runs`);

const finished = createSessionView();
applyEvents(finished, bigSession(N, true).events);
const runningBig = createSessionView();
applyEvents(runningBig, bigSession(N).events);
const collapsed = [];
const open = [];
const revealAll = [];
for (let run = 0; run < RUNS; run++) {
  let page = await openPage();
  collapsed.push((await timeSnapshot(page, finished, 1)).ms);
  await page.close();
  page = await openPage();
  open.push((await timeSnapshot(page, runningBig, 253)).ms);
  revealAll.push(await timeRevealAll(page, N));
  await page.close();
}
console.log(`snapshot -> painted, finished session (task collapsed, rows built on expand): ${median(collapsed).toFixed(0).padStart(6)} ms`);
console.log(`snapshot -> painted, running task (open: prompt row + last 250 calls):       ${median(open).toFixed(0).padStart(6)} ms`);
console.log(`then "Show 4,750 earlier calls" -> all 5,000 rows built (time-boxed chunks): ${median(revealAll).toFixed(0).padStart(6)} ms`);

// A running task showing 250 rows, then a burst of 1,000 events (500 calls started + finished).
for (const [label, batchSize, interval] of [['host-style 16 ms batches of 50', 50, 16], ['one batch of 1,000', 1000, 0]]) {
  const s = bigSession(N);
  const base = createSessionView();
  applyEvents(base, s.take());
  const page = await openPage();
  await timeSnapshot(page, base, 253);
  for (let i = 0; i < 500; i++) s.tool('agent-big', ROOT, `burst-${i}`, 'bash', { command: `echo ${i}` }, `out ${i}`);
  const events = s.take();
  const result = await burst(page, events, batchSize, interval);
  console.log(`burst of ${events.length} events = 500 calls (${label}) into the open task:`);
  console.log(`  ms per frame (rAF interval):                   ${stats(result.frames)}`);
  console.log(`  event-to-DOM latency ms (post -> rows in DOM): ${stats(result.latencies)}`);
  console.log(`  all 500 rows in the DOM after ${result.totalMs.toFixed(0)} ms`);
  await page.close();
}

await browser.close();
