// Bench section 7, sessions that last (core in-process, scripted model; the panel part in headless Chromium):
//   a. reopen: a transcript of 5,000 tool calls → events → view state (host), then the panel's snapshot render
//   b. stop one subagent: session.cancel(id) → its `cancelled` record on disk
//   c. compaction: a 200-turn child whose tool outputs total ≥ 5× the window completes; its peak context
//      stays under the threshold; the parent's context does not grow with it
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { loadTs, repeat } from './util.mjs';

const { createSession, ROOT_AGENT_ID } = loadTs('src/core/session/index.ts');
const { ScriptedModel } = loadTs('test/kit/scripted-model.ts');
const { readTranscript } = loadTs('src/core/store/transcript-reader.ts');
const { replaySession } = loadTs('src/core/session/replay.ts');
const { createSessionView, applyEvents, settleInterrupted } = loadTs('src/view-model/session-view.ts');

const allow = { ask: async () => ({ decision: 'allow' }) };
const isChild = (r) => r.system.includes('You are a subagent');
const CALLS = 5000;
const PER_TURN = 100;

/** A real session whose child makes CALLS read_file calls (PER_TURN per turn); returns its transcript root and id. */
async function bigTranscript(scratch) {
  const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'));
  model.script('default', { toolUses: [{ name: 'task', input: { prompt: 'read small.txt many times', description: '5,000 reads' } }] }, { text: 'done' });
  for (let t = 0; t < CALLS / PER_TURN; t++) {
    model.script('child', { toolUses: Array.from({ length: PER_TURN }, (_, i) => ({ name: 'read_file', input: { path: 'small.txt', offset: 1 + ((t * PER_TURN + i) % 8) } })) });
  }
  model.script('child', { text: 'read it 5,000 times' });
  const transcriptRoot = scratch.dataDir();
  const session = await createSession({ workdir: scratch.workdir, model: { id: 'claude-bench' }, permissions: { mode: 'default' }, limits: { subagentMaxTurns: 100 }, persistence: { transcriptRoot }, ports: { model, approver: allow } });
  const result = await session.run('make 5,000 calls', new AbortController().signal);
  session.close();
  if (result.status !== 'completed') throw new Error(`big session ended ${result.status}: ${result.error}`);
  return { transcriptRoot, id: session.id };
}

async function panelSnapshotMs(state, runs) {
  const harness = fileURLToPath(new URL('../../dist/webview/test-harness.html', import.meta.url));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    return await repeat(runs, async () => {
      const page = await browser.newPage({ viewport: { width: 420, height: 800 } });
      await page.goto(pathToFileURL(harness).href);
      await page.waitForFunction(() => globalThis.__harness.posted.some((m) => m.type === 'ready'));
      const ms = await page.evaluate(
        (snapshot) =>
          new Promise((resolve) => {
            const g = globalThis;
            const t0 = performance.now();
            g.postMessage({ type: 'snapshot', state: snapshot, running: false }, '*');
            const check = () => {
              if (!g.document.querySelector('.tree-row.task-row, vscode-tree-item.task-row')) return g.requestAnimationFrame(check);
              g.requestAnimationFrame(() => resolve(performance.now() - t0));
            };
            g.requestAnimationFrame(check);
          }),
        state,
      );
      await page.close();
      return ms;
    });
  } finally {
    await browser.close();
  }
}

async function stopOneMs(scratch) {
  const model = new ScriptedModel((r) => (isChild(r) ? (JSON.stringify(r.messages[0]).includes('SLOW') ? 'slow' : 'fast') : 'default'));
  model.script('default', { toolUses: [{ name: 'task', input: { prompt: 'SLOW', description: 'slow' } }, { name: 'task', input: { prompt: 'FAST', description: 'fast' } }] }, { text: 'ok' });
  model.script('slow', { toolUses: [{ name: 'bash', input: { command: 'sleep 30' } }] });
  model.script('fast', { text: 'fast done', delayMs: 300 });
  const transcriptRoot = scratch.dataDir();
  const session = await createSession({ workdir: scratch.workdir, model: { id: 'claude-bench' }, permissions: { mode: 'bypassPermissions' }, persistence: { transcriptRoot }, ports: { model, approver: allow } });
  let slowId;
  let started = 0;
  let recordedAt = 0;
  const running = session.run('two children', new AbortController().signal);
  await new Promise((resolve) => {
    session.bus.subscribe((e) => {
      if (e.type === 'agent_started' && e.description === 'slow') slowId = e.agentId;
      if (e.type === 'tool_call' && e.state === 'running' && e.name === 'bash') setTimeout(resolve, 50);
      if (e.type === 'agent_finished' && e.agentId === slowId && started) {
        // The store writes synchronously before this listener (subscribed first): the line is on disk now.
        const onDisk = readFileSync(session.store.agentFile(slowId), 'utf8').includes('"status":"cancelled"');
        if (onDisk) recordedAt = performance.now();
      }
    });
  });
  started = performance.now();
  session.cancel(slowId);
  const result = await running;
  // Its group is TERMed at once, KILLed after the bash tool's grace; a member the host's init has not reaped yet
  // (bubblewrap's inner process, a zombie once its parent died) still counts, so the list may empty a little later.
  const stoppedAt = performance.now();
  while (session.processes.size > 0 && performance.now() - stoppedAt < 3000) await new Promise((r) => setTimeout(r, 10));
  session.close();
  if (!recordedAt) throw new Error('no cancelled record for the stopped child');
  return { ms: recordedAt - started, parentStatus: result.status, groupsLeft: session.processes.size, groupsGoneMs: performance.now() - stoppedAt };
}

async function compaction(scratch) {
  const WINDOW = 30_000;
  const TURNS = 200;
  const model = new ScriptedModel((r) => (r.system.startsWith('You summarize') ? 'summary' : isChild(r) ? 'child' : 'default'));
  const parentSizes = [];
  model.script('default', (r) => (parentSizes.push(JSON.stringify(r.messages).length), { toolUses: [{ name: 'task', input: { prompt: 'digest 200 log files', description: 'digest logs' } }] }));
  model.script('default', (r) => (parentSizes.push(JSON.stringify(r.messages).length), { text: 'digested' }));
  // Usage as the API would report it (what the meter trusts): the request's size.
  const reported = [];
  const usage = (r) => {
    const input = Math.ceil((JSON.stringify(r.messages).length + r.system.length + JSON.stringify(r.tools).length) / 4);
    reported.push(input);
    return { input_tokens: input, output_tokens: 30 };
  };
  for (let t = 0; t < TURNS; t++) {
    model.script('child', (r) => ({ usage: usage(r), toolUses: [{ name: 'read_file', input: { path: `files/f${String((t % 20) + 1).padStart(2, '0')}.txt`, limit: 40 + (t % 3) } }] }));
  }
  model.script('child', { text: 'digested all 200' });
  for (let i = 0; i < 100; i++) model.script('summary', { text: `summary ${i}: files digested so far, nothing unusual` });
  const session = await createSession({
    workdir: scratch.workdir, model: { id: 'claude-bench', contextWindow: WINDOW }, permissions: { mode: 'default' },
    limits: { subagentMaxTurns: TURNS + 5 }, persistence: { transcriptRoot: scratch.dataDir() }, ports: { model, approver: allow },
  });
  let peak = 0;
  let outputChars = 0;
  let compactions = 0;
  session.bus.subscribe((e) => {
    if (e.type === 'compacted' && e.parentId !== null) {
      compactions++;
      peak = Math.max(peak, e.tokensAfter);
    }
    if (e.type === 'tool_call' && 'output' in e && e.name === 'read_file') outputChars += e.output.length;
  });
  const t0 = performance.now();
  const result = await session.run('digest the logs', new AbortController().signal);
  const ms = performance.now() - t0;
  session.close();
  const childPeak = Math.max(...reported);
  return { result, ms, compactions, childPeak, limit: WINDOW * 0.8, outputTokens: Math.round(outputChars / 4), window: WINDOW, parentSizes, turns: TURNS };
}

export async function benchSessions(report, _server, scratch) {
  report.note(`a. A real session whose subagent made ${CALLS.toLocaleString('en-US')} read_file calls; reopened from its transcript.`);
  const { transcriptRoot, id } = await bigTranscript(scratch);
  let state;
  const host = await repeat(5, async () => {
    const t0 = performance.now();
    const events = await readTranscript(transcriptRoot, id);
    state = createSessionView();
    applyEvents(state, events);
    settleInterrupted(state, 'bench');
    replaySession(id, events, ROOT_AGENT_ID);
    return performance.now() - t0;
  });
  const hostRow = report.row(`reopen: transcript → view state (${CALLS} calls)`, host);
  const panel = await panelSnapshotMs(JSON.parse(JSON.stringify(state)), 3);
  const panelRow = report.row('reopen: panel snapshot → tree shown', panel);
  report.row('reopen a 5,000-call session: tree shown', hostRow.median + panelRow.median, { max: 500 });

  report.note('b. Stop one of two running subagents (its bash sleeping): cancel(id) → its `cancelled` line on disk.');
  const stops = await repeat(3, () => stopOneMs(scratch));
  report.row('stop one subagent → cancelled record', stops.map((s) => s.ms), { max: 200 });
  report.row('  its process group gone, after the parent completed', stops.map((s) => s.groupsGoneMs), { digits: 0 });
  report.check('the parent goes on and completes; no process group left (within 3 s)', stops.every((s) => s.parentStatus === 'completed' && s.groupsLeft === 0));

  report.note('c. A 200-turn subagent reading ~1,000 tokens a turn against a 30,000-token window (compaction at 80%).');
  const c = await compaction(scratch);
  report.note(`   ${c.turns} turns, tool outputs ≈ ${c.outputTokens.toLocaleString('en-US')} tokens = ${(c.outputTokens / c.window).toFixed(1)}× the window; ${c.compactions} compactions; ${(c.ms / 1000).toFixed(1)} s`);
  report.check('the 200-turn child completes', c.result.status === 'completed' && c.result.subagents[0]?.status === 'completed', c.result.subagents[0]?.status);
  report.check('its tool outputs total ≥ 5× the window', c.outputTokens >= 5 * c.window, `${(c.outputTokens / c.window).toFixed(1)}×`);
  report.row('child peak context (as the API reports it)', c.childPeak, { unit: 'tokens', digits: 0, max: c.limit });
  report.check('the parent’s context is unaffected', c.parentSizes[1] - c.parentSizes[0] < 2000, `parent request grew ${c.parentSizes[1] - c.parentSizes[0]} chars`);
}
