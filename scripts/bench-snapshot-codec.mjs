// The panel's snapshot on the wire (src/view-model/snapshot-codec.ts): for a 50,000-call session, the size of the
// slim JSON the editor posted before and of the packed text it posts now, the host's time to make each, and the
// panel's time to read each — JSON.parse of the slim JSON against decodeSnapshot of the packed text — in Node and in
// headless Chromium (the codec bundled by esbuild into a blank page). Reads alternate (parse, decode, parse, …) after a
// forced GC each (warm: the codec's code optimized by then), and each the first call of a fresh page (cold: as the
// panel decodes a snapshot once); the medians are printed: the machine is shared and noisy. Two sessions: the fixtures' bigSession
// (short tool_use ids, "big-123", which V8's JSON.parse interns by itself) and the same with ids as long as the API's
// ("toolu_01" + 22 characters), as a real session has them.
// Usage: node --expose-gc scripts/bench-snapshot-codec.mjs [runs]
import { loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { require as tsxRequire } from 'tsx/cjs/api';
import { applyEvents, bigSession, createSessionView } from './bench/webview-page.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { slimSnapshot } = tsxRequire('../src/view-model/slim-snapshot.ts', import.meta.url);
const { encodeSnapshot, decodeSnapshot } = tsxRequire('../src/view-model/snapshot-codec.ts', import.meta.url);

const RUNS = Number(process.argv[2] ?? 15);
const N = 50_000;
const gc = globalThis.gc ?? (() => undefined);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (chars) => `${(chars / 1e6).toFixed(2)} MB`;

/** bigSession(N, finished) (its calls carry their tools' kinds, as the core sends them), and (`real`) with API-length tool_use ids. */
function session(real) {
  const events = bigSession(N, true).events.map((e) => {
    if (!real || e.type !== 'tool_call') return e;
    return { ...e, id: `toolu_01${e.id.replace(/[^a-z0-9]/gi, 'x').padStart(22, 'A')}` };
  });
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

/** Times `fns` alternately, `RUNS` rounds, a GC before each; the median of each. */
function alternate(fns) {
  const times = fns.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    fns.forEach((fn, i) => {
      gc();
      const t0 = performance.now();
      fn();
      times[i].push(performance.now() - t0);
    });
  }
  return times.map(median);
}

const bundle = (await build({ entryPoints: [join(root, 'src/view-model/snapshot-codec.ts')], bundle: true, format: 'iife', globalName: 'codec', write: false, target: 'es2022' })).outputFiles[0].text;
// No panel here, only the page's V8 (with gc exposed): the codec's own cost, without the render.
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc'] });
/** In one page, alternately, a GC before each: the codec's code optimized by then, the heap clean. */
async function inPage(json, packed) {
  const page = await browser.newPage();
  await page.addScriptTag({ content: bundle });
  const medians = await page.evaluate(
    ({ json, packed, runs }) => {
      const g = globalThis;
      const fns = [() => JSON.parse(json), () => g.codec.decodeSnapshot(packed)];
      const times = fns.map(() => []);
      for (let r = 0; r < runs; r++) {
        fns.forEach((fn, i) => {
          g.gc();
          const t0 = performance.now();
          fn();
          times[i].push(performance.now() - t0);
        });
      }
      return times.map((xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
    },
    { json, packed, runs: RUNS },
  );
  await page.close();
  return medians;
}

/** Each read the first of a fresh page (as the panel's one decode of a snapshot: code not yet optimized, no GC forced), alternately. */
async function coldInPage(json, packed) {
  const times = [[], []];
  for (let r = 0; r < RUNS; r++) {
    for (const [i, text] of [json, packed].entries()) {
      const page = await browser.newPage();
      await page.addScriptTag({ content: bundle });
      await page.evaluate((text) => (globalThis.text = text), text);
      const t = await page.evaluate((decode) => {
        const g = globalThis;
        const t0 = performance.now();
        g.kept = decode ? g.codec.decodeSnapshot(g.text) : JSON.parse(g.text);
        return performance.now() - t0;
      }, i === 1);
      times[i].push(t);
      await page.close();
    }
  }
  return times.map(median);
}

console.log(`snapshot codec bench: ${N.toLocaleString('en-US')} finished calls in one task; median of ${RUNS} alternating runs; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}${globalThis.gc ? '' : ' (no --expose-gc: GCs land in the timings)'}`);
for (const real of [false, true]) {
  const state = session(real);
  const [slimMs, packMs] = alternate([() => JSON.stringify(slimSnapshot(state)), () => encodeSnapshot(state)]);
  const json = JSON.stringify(slimSnapshot(state));
  const packed = encodeSnapshot(state);
  const [parseNode, decodeNode] = alternate([() => JSON.parse(json), () => decodeSnapshot(packed)]);
  const [parsePage, decodePage] = await inPage(json, packed);
  const [parseCold, decodeCold] = await coldInPage(json, packed);
  console.log(real ? `\nwith API-length tool_use ids and tool kinds:` : `\nthe fixtures' bigSession (short ids):`);
  console.log(`  size: slim JSON ${mb(json.length)}, packed ${mb(packed.length)} (${((100 * packed.length) / json.length).toFixed(0)} %)`);
  console.log(`  host, make the text: slim + JSON.stringify ${ms(slimMs)}, encodeSnapshot ${ms(packMs)}`);
  console.log(`  Node ${process.versions.node}: JSON.parse(slim JSON) ${ms(parseNode)}, decodeSnapshot(packed) ${ms(decodeNode)}`);
  console.log(`  Chromium ${browser.version()}, warm: JSON.parse(slim JSON) ${ms(parsePage)}, decodeSnapshot(packed) ${ms(decodePage)}`);
  console.log(`  Chromium, first call in a fresh page: JSON.parse(slim JSON) ${ms(parseCold)}, decodeSnapshot(packed) ${ms(decodeCold)}`);
}
await browser.close();
