// Measures markdown rendering while an answer streams, in headless Chromium (dist/webview must be
// built: node scripts/build-webview.mjs). A ~20 KB answer (paragraphs, lists, tables, code) grows
// by one delta per frame, 100 times, with its tail (a) in a paragraph and (b) in a fenced code
// block; per frame: the panel's render plus style and layout. For comparison, the cost of building
// the whole message at once (what re-rendering everything per frame would cost).
// Prints figures; no pass/fail. Page code uses globalThis.* only (linted without browser globals).
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { require as tsxRequire } from 'tsx/cjs/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const harness = join(root, 'dist', 'webview', 'test-harness.html');
if (!existsSync(harness)) {
  console.error('dist/webview/test-harness.html is missing: run node scripts/build-webview.mjs first');
  process.exit(1);
}
const { answerState, longAnswer } = tsxRequire('../test/webview/markdown-fixtures.ts', import.meta.url);
const FRAMES = 100;
const KB = 20;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/**
 * In the page: dispatches host messages synchronously and times the panel's next frame callback —
 * a rAF queued before the message runs just before the panel's flush, one queued after it runs
 * just after; that one also forces style and layout.
 */
async function timeFrames(page, messages) {
  return page.evaluate(
    (messages) =>
      new Promise((resolve) => {
        const g = globalThis;
        const times = [];
        let i = 0;
        const step = () => {
          if (i === messages.length) return resolve(times);
          let start = 0;
          g.requestAnimationFrame(() => (start = performance.now()));
          g.dispatchEvent(new g.MessageEvent('message', { data: messages[i++] }));
          g.requestAnimationFrame(() => {
            void g.document.body.offsetHeight;
            times.push(performance.now() - start);
            g.setTimeout(step, 0);
          });
        };
        step();
      }),
    messages,
  );
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `p50 ${pick(0.5).toFixed(1)}  p95 ${pick(0.95).toFixed(1)}  max ${pick(1).toFixed(1)} ms  (n=${values.length})`;
}

async function openPage() {
  const page = await browser.newPage({ viewport: { width: 420, height: 800 } });
  await page.goto(pathToFileURL(harness).href);
  await page.waitForFunction(() => globalThis.__harness.posted.some((m) => m.type === 'ready'));
  return page;
}

/** Warms the highlighter (it loads on first use) so its load time is not in the figures. */
async function warm(page) {
  await timeFrames(page, [{ type: 'snapshot', state: answerState('```ts\nconst a = 1;\n```\n'), running: false }]);
  await page.waitForFunction(() => globalThis.document.querySelector('.hl-keyword') !== null);
}

const base = longAnswer(KB);
console.log(`Delegate markdown bench — Chromium headless, 420 px wide, a ${(base.length / 1024).toFixed(0)} KB answer, ${FRAMES} frames`);
console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (timings scale with load)`);

for (const [label, prefix, delta] of [
  ['tail in a paragraph', `${base}\nThe last paragraph grows`, ' word by word,'],
  ['tail in a code block', `${base}\n\`\`\`ts\nconst first = 1;\n`, 'const next = compute(first, "text");\n'],
]) {
  const page = await openPage();
  await warm(page);
  const turn = 1;
  const state = answerState(prefix, true);
  await timeFrames(page, [{ type: 'snapshot', state, running: true }]);
  const meta = { seq: 1_000_000, time: Date.now(), sessionId: 'session-1', agentId: 'root', parentId: null };
  const deltas = Array.from({ length: FRAMES }, (_, i) => ({ type: 'events', events: [{ ...meta, seq: meta.seq + i, type: 'text_delta', turn, text: delta }] }));
  const times = await timeFrames(page, deltas);
  const blocks = await page.evaluate(() => globalThis.document.querySelector('.msg-assistant .md').childElementCount);
  console.log(`streaming, ${label} (${blocks} blocks), per frame: ${stats(times)}`);
  await page.close();
}

const page = await openPage();
await warm(page);
const whole = await timeFrames(page, Array.from({ length: 20 }, () => ({ type: 'snapshot', state: answerState(base), running: false })));
console.log(`whole ${KB} KB message built from scratch (snapshot), per frame: ${stats(whole)}`);
await page.close();
await browser.close();
