// Measures the panel in headless Chromium (dist/webview must be built: node scripts/build-webview.mjs):
//   1. time to render a 5,000-tool-call session from a snapshot (finished: task collapsed; running:
//      task open with its last 250 calls), and to build all 5,000 rows after "Show earlier calls",
//   2. frames under a burst of 1,000 events (host-style 16 ms batches, repeated BURSTS times; and all in
//      one batch) into that open running task:
//      - rAF interval: headless Chromium paces frames at 60 Hz, so intervals are whole vsyncs (16.7, 33.3, …
//        ms) and never below 16.7; they count missed vsyncs, not how long a frame took;
//      - frame work: from the frame's first rAF callback to the first task after it, i.e. the panel's flush,
//        lit's renders, style, layout and paint of that frame (webview-page.mjs). This is the figure the
//        16 ms target applies to: a frame keeps its vsync when its work fits in it;
//      - event-to-DOM latency per batch.
// All timings are taken inside the page with performance.now. Prints figures; no pass/fail.
// scripts/profile-webview-frame.mjs splits one burst's frames by stage (script, style, layout, paint).
import { cpus, loadavg } from 'node:os';
import { applyEvents, bigSession, burst, burstScene, createSessionView, launchBrowser, openPage, timeSnapshot } from './bench/webview-page.mjs';

const browser = await launchBrowser();

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

function pick(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
const median = (xs) => pick(xs, 0.5);
/** p50 / p95 / max of each run, then the median of each over the runs. */
function summary(runs) {
  const per = runs.map((values) => [pick(values, 0.5), pick(values, 0.95), pick(values, 1)]);
  const [p50, p95, max] = [0, 1, 2].map((i) => median(per.map((p) => p[i])));
  const n = runs.map((r) => r.length).join('/');
  return `p50 ${p50.toFixed(1)}  p95 ${p95.toFixed(1)}  max ${max.toFixed(1)}  (frames/batches per run: ${n})`;
}

const N = 5000;
const RUNS = 3;
const BURSTS = 3;
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
  let page = await openPage(browser);
  collapsed.push((await timeSnapshot(page, finished, 1)).ms);
  await page.close();
  page = await openPage(browser);
  open.push((await timeSnapshot(page, runningBig, 253)).ms);
  revealAll.push(await timeRevealAll(page, N));
  await page.close();
}
console.log(`snapshot -> painted, finished session (task collapsed, rows built on expand): ${median(collapsed).toFixed(0).padStart(6)} ms`);
console.log(`snapshot -> painted, running task (open: prompt row + last 250 calls):       ${median(open).toFixed(0).padStart(6)} ms`);
console.log(`then "Show 4,750 earlier calls" -> all 5,000 rows built (time-boxed chunks): ${median(revealAll).toFixed(0).padStart(6)} ms`);

// A running task showing 250 rows, then a burst of 1,000 events (500 calls started + finished).
for (const [label, batchSize, interval, repeats] of [['host-style 16 ms batches of 50', 50, 16, BURSTS], ['one batch of 1,000', 1000, 0, 1]]) {
  const results = [];
  for (let i = 0; i < repeats; i++) {
    const { page, events } = await burstScene(browser);
    results.push(await burst(page, events, batchSize, interval));
    await page.close();
  }
  console.log(`burst of 1000 events = 500 calls (${label}) into the open task, ${repeats === 1 ? 'once' : `median of ${repeats} bursts`}:`);
  console.log(`  ms per frame (rAF interval, whole vsyncs):     ${summary(results.map((r) => r.frames))}`);
  console.log(`  frame work ms (rAF -> first task after paint): ${summary(results.map((r) => r.work))}`);
  console.log(`  event-to-DOM latency ms (post -> rows in DOM): ${summary(results.map((r) => r.latencies))}`);
  console.log(`  all 500 rows in the DOM after ${median(results.map((r) => r.totalMs)).toFixed(0)} ms`);
}

await browser.close();
