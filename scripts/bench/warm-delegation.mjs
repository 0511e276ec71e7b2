// Section 2's warm comparison (issue 30 target 2 in a long-lived host): one delegation run again and again in ONE
// `delegate acp` process (the built CLI, driven with the ACP SDK's client over stdio as an editor drives it), against
// a bare node:http client in one process (this one) sending the same requests, both warmed up first.
//
//   bench ──ACP (stdio)──▶ delegate acp ──HTTP──▶ local server        per run: session/new (untimed),
//     │                                                                 session/prompt ⟶ its answer (timed),
//     └── sendRecorded(the bodies that run sent) ──HTTP──▶ same server  session/close (untimed); then the bare
//                                                                       client (timed), same keep-alive agent
//
// A new session per run keeps the requests the same as the one-shot CLI's (a growing session would send more each
// time). Each run's own recorded bodies are what the bare client sends right after it, so the pair is like for like.
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { sendRecorded } from './bare-send.mjs';
import { cliEnv, repeat } from './util.mjs';

const BIN = fileURLToPath(new URL('../../bin/delegate.js', import.meta.url));
const WARM_UPS = 2;
const PAIRS = 11;

/** `delegate acp ...args` started with the CLI runs' environment, initialized; { agent, updates(), close() }. */
async function startAcp(server, scratch, args = []) {
  const env = cliEnv(server, scratch);
  const child = spawn(process.execPath, [BIN, 'acp', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let updates = 0;
  const app = acp
    .client({ name: 'delegate-bench' })
    .onNotification(acp.methods.client.session.update, () => void updates++)
    // The plan reads files and delegates: nothing in it should ask. A question fails the run (cancelled).
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      stderr += `\n[bench] unexpected permission request: ${params.toolCall?.title ?? ''}`;
      return { outcome: { outcome: 'cancelled' } };
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'delegate-bench', version: '1.0.0' },
  });
  return {
    agent: connection.agent,
    updates: () => updates,
    stderr: () => stderr,
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      connection.close();
    },
  };
}

/**
 * One delegation in the live ACP process: { ms (session/prompt to its answer), newMs (session/new), requests,
 * sentAt and answeredAt (Date.now(), the server's clock for the requests' arrivals) }.
 */
async function delegation(host, server, scratch, plan, prompt) {
  await server.plan(plan);
  const t0 = performance.now();
  const { sessionId } = await host.agent.request(acp.methods.agent.session.new, { cwd: scratch.workdir, mcpServers: [] });
  const t1 = performance.now();
  const sentAt = Date.now();
  const answer = await host.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: prompt }] });
  const t2 = performance.now();
  const answeredAt = Date.now();
  await host.agent.request(acp.methods.agent.session.close, { sessionId });
  const st = await server.stats({ bodies: true });
  if (answer.stopReason !== 'end_turn') throw new Error(`delegate acp: the prompt ended "${answer.stopReason}"; stderr: ${host.stderr().slice(-500)}`);
  if (st.problems.length) throw new Error(`server: ${st.problems.join('; ')}; stderr: ${host.stderr().slice(-500)}`);
  return { ms: t2 - t1, newMs: t1 - t0, requests: st.requests, sentAt, answeredAt };
}

/** The bare client in this process, warm: the same agent every run; ms from the first request out to the last answer read. */
async function bare(agent, server, plan, requests) {
  await server.plan(plan);
  const t0 = performance.now();
  await sendRecorded(requests.map((r) => ({ body: r.body, headers: r.headers })), server.baseURL, agent);
  const ms = performance.now() - t0;
  const st = await server.stats();
  if (st.problems.length) throw new Error(`bare client: ${st.problems.join('; ')}`);
  return ms;
}

/** `prompt`: the one-shot runs' prompt (cli.mjs), so the requests are theirs. */
export async function warmAgainstBareClient(report, server, scratch, plan, prompt) {
  const host = await startAcp(server, scratch);
  // What-if: the same host with the fan-out review off. On every task call (one child included, where `auto` cannot
  // ask: the ACP host sets no dollar threshold) it reads a summary of every session in the transcript folder for the
  // agents' forecast (store/agent-forecast.ts), so its cost grows with the sessions kept.
  const noReview = await startAcp(server, scratch, ['--confirm-fanout', 'never']);
  const agent = new Agent({ keepAlive: true });
  try {
    const once = async () => {
      const deleg = await delegation(host, server, scratch, plan, prompt);
      const noFanout = await delegation(noReview, server, scratch, plan, prompt);
      return { deleg, noFanout, bare: await bare(agent, server, plan, deleg.requests) };
    };
    await repeat(WARM_UPS, once);
    const updatesBefore = host.updates();
    const triples = await repeat(PAIRS, once);
    report.note(
      [
        `warm: the same delegation (${triples[0].deleg.requests.length} requests) ${WARM_UPS + PAIRS} times in ONE \`delegate acp\` process (ACP SDK`,
        'client over stdio, no client capabilities; a new session per run, timed from session/prompt sent to its answer;',
        "session/new and session/close untimed), each run followed by this process's node:http keep-alive client sending",
        `the bodies that run sent; alternating, ${WARM_UPS} warm-up rounds discarded:`,
      ].join('\n'),
    );
    report.row('  warm: session/new (not in the wall time)', triples.map((p) => p.deleg.newMs), { digits: 1 });
    report.row('  warm: wall time, bare node:http client', triples.map((p) => p.bare), { digits: 1 });
    report.row('  warm: wall time, delegate acp session/prompt', triples.map((p) => p.deleg.ms), { digits: 1 });
    report.row('  warm: delegate acp − bare client (pairs)', triples.map((p) => p.deleg.ms - p.bare), { digits: 1 });
    report.row('  warm: delegate acp / bare client (pairs)', triples.map((p) => p.deleg.ms / p.bare), { unit: '×', digits: 2, max: 1.5 });
    // Where the time goes: the gaps between the server's arrivals (Date.now() in both processes, ±1 ms).
    const arrivals = (d) => d.requests.map((r) => r.receivedAt);
    const gapRow = (label, of) => report.row(`    ${label}`, triples.map((p) => of(p.deleg, arrivals(p.deleg))), { digits: 0 });
    gapRow('session/prompt → the first request', (d, a) => a[0] - d.sentAt);
    gapRow("the parent's first request → the child's first", (d, a) => a[1] - a[0]);
    gapRow("the child's 2nd–4th requests, each (median)", (d, a) => [a[2] - a[1], a[3] - a[2], a[4] - a[3]].sort((x, y) => x - y)[1]);
    gapRow("the child's last request → the parent's next", (d, a) => a.at(-1) - a.at(-2));
    gapRow('the last request → the answer', (d, a) => d.answeredAt - a.at(-1));
    report.note(`  (${((host.updates() - updatesBefore) / PAIRS).toFixed(0)} session/update notifications per run)`);
    report.row('  what-if --confirm-fanout never: wall time', triples.map((p) => p.noFanout.ms), { digits: 1 });
    report.row('    / bare client (pairs)', triples.map((p) => p.noFanout.ms / p.bare), { unit: '×', digits: 2 });
  } finally {
    agent.destroy();
    await Promise.all([host.close(), noReview.close()]);
  }
}
