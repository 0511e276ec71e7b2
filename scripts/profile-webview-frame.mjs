// Profiles the panel's frames under the bench's burst (1,000 events in 16 ms batches of 50 into an open
// 250-row task; build first: node scripts/build-webview.mjs). Two passes over the same scene:
//   1. a Chromium trace (frame-trace.mjs): per frame, main-thread time by stage — script (rAF callbacks,
//      events, lit's renders), style, layout, pre-paint, intersection checks (content-visibility), paint,
//      layerize — and the heaviest frame's split;
//   2. the CDP sampling profiler: which functions the script time goes to ("(program)" is Chromium's own
//      native work: style, layout, paint).
//   node scripts/profile-webview-frame.mjs [events]      (default 1000)
import { burst, burstScene, launchBrowser } from './bench/webview-page.mjs';
import { mainThreadTasks, markTimes, stageTotals, TRACE_CATEGORIES } from './bench/frame-trace.mjs';

const count = Number(process.argv[2] ?? 1000);
const browser = await launchBrowser();
const ms = (v) => v.toFixed(1);
const short = (k) => k.replace('IntersectionObserverController::computeIntersections', 'intersections (content-visibility)');
const split = (stages) => Object.entries(stages).filter(([, v]) => v >= 0.05).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${short(k)} ${ms(v)}`).join(', ');

{
  const { page, events } = await burstScene(browser);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await burst(page, events.slice(0, count), 50, 16);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await page.close();
  const [from, to] = markTimes(trace, 'delegate-burst');
  const tasks = mainThreadTasks(trace, from, to);
  const frames = tasks.filter((t) => t.frame);
  const other = tasks.filter((t) => !t.frame);
  const sorted = [...frames].sort((a, b) => a.ms - b.ms);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${frames.length} frames; frame work p50 ${ms(at(0.5).ms)} p95 ${ms(at(0.95).ms)} max ${ms(at(1).ms)} ms (traced: a little slower than untraced)`);
  console.log(`other tasks (message events applying batches, timers): ${other.length}, longest ${ms(Math.max(0, ...other.map((t) => t.ms)))} ms`);
  const totals = stageTotals(frames);
  for (const k of Object.keys(totals)) totals[k] /= frames.length;
  console.log(`mean per frame: ${split(totals)}`);
  console.log(`median frame (${ms(at(0.5).ms)} ms): ${split(at(0.5).stages)}`);
  console.log(`heaviest frame (${ms(at(1).ms)} ms): ${split(at(1).stages)}`);
}

{
  const { page, events } = await burstScene(browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await burst(page, events.slice(0, count), 50, 16);
  const { profile } = await cdp.send('Profiler.stop');
  await page.close();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (f) => `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim();
  const self = new Map();
  const total = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]);
    self.set(name(node.callFrame), (self.get(name(node.callFrame)) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const k = name(byId.get(id).callFrame);
      if (!seen.has(k)) total.set(k, (total.get(k) ?? 0) + dt);
      seen.add(k);
    }
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${ms(v).padStart(8)} ms  ${k}`).join('\n');
  console.log(`sampled, self time:\n${top(self, 15)}`);
  console.log(`sampled, inclusive time:\n${top(total, 25)}`);
}
await browser.close();
