// Starts and stops a real VS Code server (the one inside code-server 4.139.1, on Node 24, installed by install-editor.mjs)
// on 127.0.0.1, with fresh temporary server-data, user-data and extensions folders, in its own process group.
//   const editor = await startEditor({ workspace, userSettings, workspaceTrust: 'disabled', vsixPaths });
//   ... open editor.url in a browser ...
//   await editor.stop();   // kills the whole process group and removes the temporary folders
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { editorEnv, editorPaths } from './install-editor.mjs';

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// Everything started here is stopped when this process ends, however it ends.
const cleanups = new Set();
let hooked = false;
function hookProcessExit() {
  if (hooked) return;
  hooked = true;
  const runAll = () => {
    for (const fn of cleanups) {
      try {
        fn();
      } catch (err) {
        console.error(`[editor] cleanup failed: ${err.message}`);
      }
    }
    cleanups.clear();
  };
  process.on('exit', runAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      runAll();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Registers a synchronous cleanup run on exit/signals; returns a function that unregisters it. */
export function onExitCleanup(fn) {
  hookProcessExit();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** SIGKILLs every process whose command line contains `needle` (e.g. a unique temp folder); returns how many. */
export function killProcessesMatching(needle) {
  let n = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (Number(pid) !== process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) {
        process.kill(Number(pid), 'SIGKILL');
        n++;
      }
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return n;
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Installs .vsix files into an extensions folder with the server's own CLI (under a second each). */
export function installVsix(vsixPath, extensionsDir, env = editorEnv()) {
  const r = spawnSync(editorPaths.node, [editorPaths.serverMain, '--install-extension', path.resolve(vsixPath), '--force', '--extensions-dir', extensionsDir, '--accept-server-license-terms'], { env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`installing ${vsixPath} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

/**
 * @param {object} o
 * @param {string} o.workspace  folder the editor opens (used by callers to build URLs; the server itself serves any folder)
 * @param {object} [o.userSettings]  merged over DEFAULT_SETTINGS into User/settings.json
 * @param {'enabled'|'disabled'} [o.workspaceTrust]  'enabled' (default): the "Do you trust the authors" dialog appears
 * @param {number} [o.port]  default: a free port
 * @param {string[]} [o.vsixPaths]  .vsix files installed into the fresh extensions folder before start
 * @param {string[]} [o.disableExtensions]  extension ids to disable, e.g. built-ins a test does not need ('GitHub.copilot-chat')
 * @param {(line: string) => void} [o.onOutput]  the server's stdout/stderr lines
 */
export async function startEditor({ workspace, userSettings = {}, workspaceTrust = 'enabled', port, vsixPaths = [], disableExtensions = [], onOutput, startTimeoutMs = 60_000 } = {}) {
  if (!['enabled', 'disabled'].includes(workspaceTrust)) throw new Error(`workspaceTrust must be 'enabled' or 'disabled', got ${workspaceTrust}`);
  if (!fs.existsSync(editorPaths.serverMain)) throw new Error(`editor not installed: run node scripts/editor/install-editor.mjs`);
  port ??= await freePort();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'delegate-editor-'));
  const dirs = { base, serverData: path.join(base, 'server-data'), userData: path.join(base, 'user-data'), extensions: path.join(base, 'extensions'), tmp: path.join(base, 'tmp') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const trust = workspaceTrust === 'enabled'
    ? // the "Do you trust the authors" dialog came reliably only with 'always' (with the default 'once' it sometimes
      // never came and the window just stayed in Restricted Mode)
      { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'always' }
    : { 'security.workspace.trust.enabled': false };
  const settings = { ...DEFAULT_SETTINGS, ...trust, ...userSettings };
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  // TMPDIR inside our folder: the server's IPC sockets then go away with it.
  const env = { ...editorEnv(), TMPDIR: dirs.tmp };
  const removeDirs = () => fs.rmSync(base, { recursive: true, force: true, maxRetries: 3 });
  for (const v of vsixPaths) {
    try {
      installVsix(v, dirs.extensions, env);
    } catch (err) {
      removeDirs();
      throw err;
    }
  }

  const args = [editorPaths.serverMain, '--host', '127.0.0.1', '--port', String(port), '--without-connection-token', '--accept-server-license-terms', '--disable-telemetry', '--enable-smoke-test-driver', '--server-data-dir', dirs.serverData, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  if (workspaceTrust === 'disabled') args.push('--disable-workspace-trust');
  for (const id of disableExtensions) args.push('--disable-extension', id);
  // detached: the child calls setsid(), so it leads its own process group, which stop() kills whole.
  const child = spawn(editorPaths.node, args, { env, cwd: base, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  const output = [];
  const onData = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 2000) output.shift();
      onOutput?.(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  const exitedPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));

  let stopped = false;
  const killNow = () => {
    if (!stopped) killGroup(pgid, 'SIGKILL');
    stopped = true;
    removeDirs();
  };
  const unregister = onExitCleanup(killNow);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    unregister();
    if (killGroup(pgid, 'SIGTERM')) {
      for (let i = 0; i < 10 && killGroup(pgid, 0); i++) await sleep(100);
      killGroup(pgid, 'SIGKILL'); // whatever ignored SIGTERM (file watcher, agent host, pty host)
      for (let i = 0; i < 20 && killGroup(pgid, 0); i++) await sleep(50);
    }
    child.stdout.destroy();
    child.stderr.destroy();
    removeDirs();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`editor server exited early (${JSON.stringify(exited)}):\n${output.slice(-30).join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`editor server did not answer 200 on ${url}/ within ${startTimeoutMs} ms:\n${output.slice(-30).join('\n')}`);
    }
    await sleep(200);
  }
  // exited: resolves {code, signal} when the server process ends (by stop() or on its own).
  return { url, port, pid: child.pid, workspace, dirs, exited: exitedPromise, output: () => output.join('\n'), stop };
}
