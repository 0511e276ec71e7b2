/**
 * The bash tool inside bubblewrap, with real processes: what the sandbox stops (writes outside the
 * workspace, deleting HOME, the network, `kill -9 -1` reaching the host, privileged sockets) and what must
 * still work (the workspace and /tmp, git, node, exit codes, timeouts and cancels killing everything).
 * Skipped, with the reason printed, where bubblewrap cannot run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel } from '../../kit/scripted-model';
import { Sandbox, type SandboxSettings } from '../../../src/core/sandbox/sandbox';
import { probeBubblewrap } from '../../../src/core/sandbox/probe';
import { createBashTool, type BashToolOptions } from '../../../src/core/tools/bash';
import type { ToolResult } from '../../../src/core/tools/types';
import { pidsWith } from '../../kit/processes';
import { waitUntil } from '../../kit/wait';
import { tempDir } from '../../kit/temp-dirs';
import { testSession } from '../../kit/test-session';

/** A number that appears in no other process's command line (`sleep 300.<n>`). */
const marker = (): string => `300.${Date.now() % 100000}${Math.floor(Math.random() * 1000)}`;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

describe('bash in the bubblewrap sandbox', function () {
  this.timeout(20_000);
  let root: string;
  let ws: string;
  const sandboxes: Sandbox[] = [];
  const opts: BashToolOptions = { defaultTimeoutMs: 10_000, maxTimeoutMs: 20_000, maxOutputChars: 20_000, killGraceMs: 300 };

  before(async function () {
    const probe = await probeBubblewrap();
    if (!probe.ok) {
      console.log(`    (skipped: ${probe.reason}${probe.reason.includes('not installed') ? '; install it with: apt-get install bubblewrap' : ''})`);
      this.skip();
    }
  });

  beforeEach(() => {
    root = realpathSync(tempDir('delegate-sbx-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
  });
  afterEach(() => {
    for (const s of sandboxes.splice(0)) s.removeTempFolder();
  });

  const sandbox = (settings: Partial<SandboxSettings> = {}, hide: string[] = []): Sandbox => {
    const s = new Sandbox({ mode: 'on', allowNetwork: false, ...settings }, { hide: () => hide });
    sandboxes.push(s);
    return s;
  };

  const run = (command: string, o: { sandbox?: Sandbox; timeout?: number; signal?: AbortSignal } = {}): Promise<ToolResult> => {
    const tool = createBashTool(ws, { ...opts, launcher: o.sandbox ?? sandbox() });
    return tool.execute({ command, ...(o.timeout ? { timeout: o.timeout } : {}) }, { signal: o.signal ?? new AbortController().signal, agentId: 'main', toolUseId: 'tu_1' });
  };

  it('runs in the workspace; output, stderr and the exit code come through', async () => {
    assert.deepEqual(await run('pwd; echo err >&2; sleep 0.05; echo out; exit 3'), { content: `${ws}\nerr\nout\n[exit code 3]`, isError: true, exitCode: 3 });
    assert.deepEqual(await run('true'), { content: '(no output)\n[exit code 0]', isError: false, exitCode: 0 });
  });

  it('the system is read-only: writes outside the workspace fail and never reach the host', async () => {
    const r = await run('touch /usr/delegate-probe; echo "usr:$?"; echo x > ../beside.txt; echo "beside:$?"; touch /etc/delegate-probe 2>&1');
    assert.match(r.content, /usr:1/);
    assert.match(r.content, /Read-only file system/);
    assert.equal(existsSync('/usr/delegate-probe'), false);
    assert.equal(existsSync('/etc/delegate-probe'), false);
    // The workspace's parent is under /tmp, which is the private one inside: the host's folder is untouched.
    assert.equal(existsSync(join(root, 'beside.txt')), false);
  });

  it('HOME cannot be deleted, wherever it is (outside /tmp, or under /tmp where the private /tmp would hide it)', async () => {
    const saved = process.env.HOME;
    for (const base of ['/var/tmp', root]) {
      const home = realpathSync(mkdtempSync(join(base, 'delegate-home-')));
      writeFileSync(join(home, '.profile'), 'keep me\n');
      process.env.HOME = home;
      try {
        const r = await run('rm -rf "${HOME:?}"; echo "rm:$?"; cat "$HOME/.profile"');
        assert.match(r.content, /Read-only file system/, r.content);
        assert.match(r.content, /rm:1\nkeep me/, r.content);
        assert.equal(readFileSync(join(home, '.profile'), 'utf8'), 'keep me\n');
      } finally {
        process.env.HOME = saved;
        rmSync(home, { recursive: true, force: true });
      }
    }
  });

  it('the workspace and a private /tmp are writable; /tmp lasts for the session, in a host folder of its own', async () => {
    const s = sandbox();
    const note = `delegate-note-${process.pid}-${Date.now()}`;
    const r = await run(`echo made > made.txt && echo kept > /tmp/${note} && mktemp && echo "$TMPDIR"`, { sandbox: s });
    assert.equal(r.isError, false, r.content);
    assert.match(r.content, /^\/tmp\/tmp\.\w+\n\/tmp\n\[exit code 0\]$/);
    assert.equal(readFileSync(join(ws, 'made.txt'), 'utf8'), 'made\n');
    assert.ok(s.tempFolder && !s.tempFolder.startsWith(ws));
    assert.equal(readFileSync(join(s.tempFolder, note), 'utf8'), 'kept\n');
    assert.equal(existsSync(`/tmp/${note}`), false, 'not the host /tmp');
    assert.deepEqual(await run(`cat /tmp/${note}`, { sandbox: s }), { content: 'kept\n[exit code 0]', isError: false, exitCode: 0 });
  });

  it('ordinary dev commands work: git, node, a compiler-like tool writing into the workspace and /tmp', async () => {
    const r = await run(
      'git init -q . && git -c user.email=a@b.c -c user.name=t commit -q --allow-empty -m first && git log --oneline | wc -l && ' +
        `node -e "require('fs').writeFileSync('out.js', 'ok'); require('fs').writeFileSync(require('os').tmpdir() + '/obj', 'o')" && cat out.js /tmp/obj`,
    );
    assert.deepEqual(r, { content: '1\noko\n[exit code 0]', isError: false, exitCode: 0 });
  });

  it('git in a repository with placeholders: stash -u and clean -fd finish cleanly (exit 0); the user\'s own global excludes still apply', async () => {
    const home = realpathSync(mkdtempSync('/var/tmp/delegate-home-'));
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'ignore'), '*.log\n');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      // The first command makes the repository; the second finds it, and its placeholders, in place.
      await run('git init -q . && git -c user.email=a@b.c -c user.name=t commit -q --allow-empty -m first');
      const r = await run('exec 2>&1; echo u > u.txt; echo l > a.log; git stash -u -q; echo "stash:$?"; git stash pop -q >/dev/null; git clean -fdq; echo "clean:$?"; ls -A; git status --short --ignored');
      assert.equal(r.content, 'stash:0\nclean:0\n.claude\n.git\n.mcp.json\n.vscode\na.log\n!! a.log\n[exit code 0]');
      assert.deepEqual(readdirSync(ws).sort(), ['.git', 'a.log']);
    } finally {
      process.env.HOME = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('parallel commands share the placeholders: one ending does not lift the other\'s hold; the last one removes them', async () => {
    const s = sandbox();
    const slow = run('sleep 1; echo {} > .mcp.json; echo "mcp:$?"; mkdir .claude/agents; echo "claude:$?"', { sandbox: s });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await run('ls -d .mcp.json .claude', { sandbox: s }), { content: '.claude\n.mcp.json\n[exit code 0]', isError: false, exitCode: 0 });
    const r = await slow;
    assert.match(r.content, /mcp:1\n[\s\S]*claude:1\n/, r.content);
    assert.deepEqual(readdirSync(ws), []);
  });

  it('no network by default: a server on the host loopback cannot be reached; with the network allowed it can', async () => {
    const server = createServer((socket) => socket.end('hello from the host\n'));
    const port = await listen(server);
    try {
      const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
      const off = await run(connect);
      assert.equal(off.isError, true, off.content);
      assert.match(off.content, /Connection refused/);
      const on = await run(connect, { sandbox: sandbox({ allowNetwork: true }) });
      assert.deepEqual(on, { content: 'hello from the host\n[exit code 0]', isError: false, exitCode: 0 });
      // Loopback inside a sandbox without network is its own: a server and client of one command still talk.
      const own = await run(`node -e "const s=require('net').createServer(c=>c.end('own')).listen(0,'127.0.0.1',()=>require('net').connect(s.address().port,'127.0.0.1').on('data',d=>{console.log(String(d));s.close()}))"`);
      assert.deepEqual(own, { content: 'own\n[exit code 0]', isError: false, exitCode: 0 });
    } finally {
      server.close();
    }
  });

  it('without network, npm fails at once instead of retrying for a minute', async () => {
    const started = Date.now();
    const r = await run('npm view left-pad version', { timeout: 30_000 });
    assert.equal(r.isError, true);
    assert.match(r.content, /EAI_AGAIN|ENOTFOUND|getaddrinfo/);
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
  });

  it('on timeout every process inside is killed, one that left the group (setsid) and one that ignores TERM too', async () => {
    const m = marker();
    const started = Date.now();
    const r = await run(`sleep ${m} & (setsid sleep ${m} &); (trap '' TERM; exec sleep ${m}) & echo started; wait`, { timeout: 600 });
    assert.ok(Date.now() - started < 5000);
    assert.match(r.content, /started\n[\s\S]*Command timed out after 600 ms/);
    await waitUntil(() => pidsWith(`sleep ${m}`).length === 0, () => `the sleeps end (still running: ${pidsWith(`sleep ${m}`).join(', ')})`, 3000);
  });

  it('a cancel kills everything inside', async () => {
    const m = marker();
    const ac = new AbortController();
    const running = run(`sleep ${m} & sleep ${m}`, { signal: ac.signal });
    await waitUntil(() => pidsWith(`sleep ${m}`).length >= 2, 'the sleeps start');
    ac.abort();
    const r = await running;
    assert.match(r.content, /Command cancelled/);
    await waitUntil(() => pidsWith(`sleep ${m}`).length === 0, () => `the sleeps end (still running: ${pidsWith(`sleep ${m}`).join(', ')})`, 3000);
  });

  it('background processes end with the command', async () => {
    const m = marker();
    const r = await run(`(setsid sleep ${m} >/dev/null 2>&1 &); sleep ${m} >/dev/null 2>&1 & echo left`);
    assert.deepEqual(r, { content: 'left\n[exit code 0]', isError: false, exitCode: 0 });
    await waitUntil(() => pidsWith(`sleep ${m}`).length === 0, 'the sleeps end', 3000);
  });

  it('`kill -9 -1`, su and mount reach nothing outside: no capabilities, a pid namespace of its own', async () => {
    const m = marker();
    const outside = spawn('sleep', [m], { stdio: 'ignore' });
    try {
      // Guarded: only where bash is a low pid (inside a pid namespace) is kill -1 sent at all.
      const r = await run('grep CapEff /proc/self/status; [ $$ -lt 10 ] && kill -9 -1; echo "kill:$?"; su -c id 2>/dev/null; echo "su:$?"; mount -o remount,rw / 2>/dev/null; echo "mount:$?"');
      assert.match(r.content, /CapEff:\s+0+\n/);
      assert.match(r.content, /su:[1-9]/);
      assert.match(r.content, /mount:[1-9]/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(outside.exitCode, null, 'a host process survived kill -9 -1');
      assert.equal(outside.signalCode, null);
    } finally {
      outside.kill('SIGKILL');
    }
  });

  it('hides privileged sockets (like docker.sock): connecting fails inside, works outside', async () => {
    const dir = realpathSync(mkdtempSync('/var/tmp/delegate-sock-'));
    const path = join(dir, 'docker.sock');
    const server = createServer((socket) => socket.end('root shell\n'));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const probe = `node -e "require('net').connect('${path}').on('data',d=>console.log(String(d).trim())).on('error',e=>console.log(e.code))"`;
      assert.deepEqual(await run(probe, { sandbox: sandbox({ allowNetwork: true }) }), { content: 'root shell\n[exit code 0]', isError: false, exitCode: 0 });
      const hidden = await run(probe, { sandbox: sandbox({ allowNetwork: true }, [path]) });
      assert.doesNotMatch(hidden.content, /root shell/);
      assert.match(hidden.content, /ECONNREFUSED|ENOTSOCK/);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a session's private /tmp (host side: the OS temp dir) goes when it closes, the files its commands left there too", async () => {
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: 'mkdir -p /tmp/cache && echo kept > /tmp/cache/f' } }] }, { text: 'done' });
    const { session } = await testSession({ workdir: ws, model });
    assert.equal((await session.run('go', new AbortController().signal)).status, 'completed');
    const temp = session.sandbox.tempFolder ?? '';
    assert.ok(temp.startsWith(tmpdir()), temp);
    assert.equal(readFileSync(join(temp, 'cache', 'f'), 'utf8'), 'kept\n');
    session.close();
    assert.equal(existsSync(temp), false);
  });

  it('a session sandboxes by default, and its shutdownNow kills a sandboxed command that ignores TERM', async () => {
    const m = marker();
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: `trap '' TERM; sleep ${m} & wait` } }] });
    const { session } = await testSession({ workdir: ws, model });
    assert.deepEqual(await session.sandbox.status(), { kind: 'bubblewrap', network: false });
    const running = session.run('go', new AbortController().signal);
    await waitUntil(() => pidsWith(`sleep ${m}`).length > 0, 'the sleep starts');
    const temp = session.sandbox.tempFolder ?? '';
    assert.ok(existsSync(temp), 'the session has a private /tmp');
    session.shutdownNow('test ended');
    await waitUntil(() => pidsWith(`sleep ${m}`).length === 0, () => `the sleep ends (still running: ${pidsWith(`sleep ${m}`).join(', ')})`, 2000);
    assert.equal((await running).status, 'cancelled');
    assert.equal(session.processes.size, 0);
    assert.equal(existsSync(temp), false, 'its /tmp went with it');
  });
});
