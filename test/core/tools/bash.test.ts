// bash tool: real /bin/bash processes; timeouts and cancels must take the whole process group down.
import assert from 'node:assert/strict';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { createBashTool, type BashToolOptions } from '../../../src/core/tools/bash';
import type { ToolResult } from '../../../src/core/tools/types';
import { tempDir } from '../../kit/temp-dirs';
import { isAlive } from '../../kit/processes';
import { waitUntil } from '../../kit/wait';

/** Alive and not a zombie (a container's init may be slow to reap re-parented children). */

/** Live members of a process group, read from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return members;
}

async function waitGone(pids: number[], ms = 3000): Promise<void> {
  await waitUntil(() => !pids.some(isAlive), () => `the processes are gone (alive: ${pids.filter(isAlive).join(', ')})`, ms);
}

function pidsIn(content: string): number[] {
  return [...content.matchAll(/^pid:(\d+)$/gm)].map((m) => Number(m[1]));
}

describe('bash tool', function () {
  this.timeout(15000);
  let ws: string;
  const opts: BashToolOptions = { defaultTimeoutMs: 10_000, maxTimeoutMs: 20_000, maxOutputChars: 10_000, killGraceMs: 300 };

  beforeEach(async () => {
    ws = await fs.realpath(tempDir('delegate-bash-'));
  });
  afterEach(() => fs.rm(ws, { recursive: true, force: true }));

  const run = async (raw: unknown, o: Partial<BashToolOptions> = {}, signal = new AbortController().signal): Promise<ToolResult> => {
    const tool = createBashTool(ws, { ...opts, ...o });
    const parsed = tool.parse(raw);
    if (!parsed.ok) return { content: parsed.error, isError: true };
    return tool.execute(parsed.input, { signal, agentId: 'root', toolUseId: 'tu_1' });
  };

  it('runs in the workspace with interleaved stdout/stderr and the exit code; kind exec', async () => {
    const tool = createBashTool(ws, opts);
    assert.equal(tool.kind, 'exec');
    assert.deepEqual(tool.describe({ command: 'ls -la' }), { summary: 'ls -la', paths: [] });
    const r = await run({ command: 'pwd; echo err >&2; sleep 0.05; echo out' });
    assert.deepEqual(r, { content: `${ws}\nerr\nout\n[exit code 0]`, isError: false, exitCode: 0 });
  });

  it('marks a non-zero exit as an error and says the code', async () => {
    assert.deepEqual(await run({ command: 'echo failing; exit 3' }), { content: 'failing\n[exit code 3]', isError: true, exitCode: 3 });
  });

  it('says when there was no output, and gives an empty stdin', async () => {
    assert.deepEqual(await run({ command: 'cat' }), { content: '(no output)\n[exit code 0]', isError: false, exitCode: 0 });
  });

  it('rejects malformed input in parse', () => {
    const tool = createBashTool(ws, opts);
    for (const bad of [null, {}, { command: '' }, { command: 5 }, { command: 'ls', timeout: 0 }, { command: 'ls', timeout: '100' }, { command: 'ls', timeout: 1.5 }]) {
      assert.equal(tool.parse(bad).ok, false, JSON.stringify(bad));
    }
    assert.deepEqual(tool.parse({ command: 'ls', timeout: 50, extra: 1 }), { ok: true, input: { command: 'ls', timeout: 50 } });
  });

  it('on timeout kills the whole process group, background children included', async () => {
    const started = Date.now();
    const r = await run({ command: 'echo pid:$$; sleep 30 & echo pid:$!; wait', timeout: 500 });
    assert.ok(Date.now() - started < 5000);
    assert.equal(r.isError, true);
    assert.match(r.content, /Command timed out after 500 ms/);
    const pids = pidsIn(r.content);
    assert.equal(pids.length, 2);
    await waitGone(pids);
    const [leader] = pids;
    assert.deepEqual(groupMembers(leader ?? -1), []);
  });

  it('on abort kills `sleep 30 & sleep 30` (both of them)', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 400);
    const r = await run({ command: 'echo pid:$$; sleep 30 & echo pid:$!; sleep 30' }, {}, ac.signal);
    assert.equal(r.isError, true);
    assert.match(r.content, /Command cancelled/);
    const pids = pidsIn(r.content);
    assert.equal(pids.length, 2);
    await waitGone(pids);
    assert.deepEqual(groupMembers(pids[0] ?? -1), []);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const started = Date.now();
    const r = await run({ command: "trap '' TERM; echo pid:$$; sleep 30 & echo pid:$!; wait; wait", timeout: 300 });
    assert.ok(Date.now() - started < 5000, 'returned promptly');
    assert.match(r.content, /timed out after 300 ms/);
    await waitGone(pidsIn(r.content));
  });

  it('does not leave background processes running after the command ends', async () => {
    const started = Date.now();
    const r = await run({ command: 'sleep 30 >/dev/null 2>&1 & echo pid:$!; sleep 30 & echo pid:$!' });
    assert.ok(Date.now() - started < 5000, 'did not wait for the background sleeps');
    assert.equal(r.isError, false);
    await waitGone(pidsIn(r.content));
  });

  it('returns at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await run({ command: 'touch ran' }, {}, ac.signal);
    assert.equal(r.isError, true);
    assert.equal(await fs.access(path.join(ws, 'ran')).then(() => true, () => false), false);
  });

  it('reports a missing workspace folder instead of throwing', async () => {
    const tool = createBashTool(path.join(ws, 'gone'), opts);
    const r = await tool.execute({ command: 'ls' }, { signal: new AbortController().signal, agentId: 'root', toolUseId: 'tu_1' });
    assert.deepEqual(r, { content: `could not run bash: workspace folder does not exist: ${path.join(ws, 'gone')}`, isError: true });
  });

  it('clamps the timeout to maxTimeoutMs', async () => {
    const r = await run({ command: 'sleep 5', timeout: 60_000 }, { maxTimeoutMs: 300 });
    assert.match(r.content, /timed out after 300 ms/);
  });

  it('caps 300 KB of output, keeping head and tail and saying how much was dropped', async () => {
    const r = await run({ command: "head -c 300000 /dev/zero | tr '\\0' a; echo; seq 1 5" });
    assert.equal(r.isError, false);
    assert.ok(r.content.length < 10_200, `kept ${r.content.length} chars`);
    assert.match(r.content, /^a{5000}\n\[\.\.\. [\d,]+ of [\d,]+ characters of output dropped \(not saved\) \.\.\.\]\na+\n1\n2\n3\n4\n5\n\[exit code 0\]$/);
    const [dropped, total] = (/\[\.\.\. ([\d,]+) of ([\d,]+) characters/.exec(r.content) ?? []).slice(1).map((v) => Number(v.replace(/,/g, '')));
    assert.equal(dropped, 300_000 + 1 + 10 - 10_000);
    assert.equal(total, 300_000 + 1 + 10);
  });

  it('does not split multi-byte characters across chunks', async () => {
    const r = await run({ command: "for i in $(seq 1 20000); do printf 'é'; done" }, { maxOutputChars: 100_000 });
    assert.equal(r.content, `${'é'.repeat(20000)}\n[exit code 0]`);
  });
});
