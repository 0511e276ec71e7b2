/**
 * Can bubblewrap run here? Answered once per process by running it for real, with the very namespace
 * flags a sandboxed command gets (a bwrap that is installed but refused user namespaces — Ubuntu's
 * AppArmor rule, a locked-down container — fails here, not on the agent's first command).
 *
 *   probeBubblewrap() ──first call──▶ spawn `bwrap … -- /bin/bash -c :` (async, ~10 ms) ──▶ cached promise
 *                     ──later calls─▶ the same promise
 *
 * Asynchronous on purpose: the CLI starts it before loading the SDK, so it costs no start-up time.
 */
import { spawn } from 'node:child_process';
import { ToolEnv } from '../secrets/tool-env';

export type ProbeResult = { ok: true } | { ok: false; reason: string };

/** Namespaces and privileges of every sandboxed command (bubblewrap.ts adds the mounts). */
export const NAMESPACE_ARGS = ['--unshare-user', '--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL'] as const;

const PROBE_TIMEOUT_MS = 5000;

let cached: Promise<ProbeResult> | undefined;

/** Whether `bwrap` (found on PATH) can create the sandbox on this machine; probed once, then cached. */
export function probeBubblewrap(): Promise<ProbeResult> {
  cached ??= runProbe();
  return cached;
}

function runProbe(): Promise<ProbeResult> {
  if (process.platform !== 'linux') {
    return Promise.resolve({ ok: false, reason: `bubblewrap is Linux-only, and no sandbox is built for ${process.platform} yet` });
  }
  return new Promise((resolve) => {
    const args = [...NAMESPACE_ARGS, '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/bash', '-c', ':'];
    let child;
    try {
      // No credential in its environment: /proc/<pid>/environ of any process we start is readable by the user's others.
      child = spawn('bwrap', args, { env: new ToolEnv().build(), stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      resolve({ ok: false, reason: `bwrap could not be started: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, reason: `bwrap did not answer within ${PROBE_TIMEOUT_MS} ms` });
    }, PROBE_TIMEOUT_MS);
    timer.unref();
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: err.code === 'ENOENT' ? 'bubblewrap (bwrap) is not installed' : `bwrap could not be started: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else {
        const why = stderr.trim().split('\n')[0] || (signal ? `killed by ${signal}` : `exit code ${code}`);
        resolve({ ok: false, reason: `bwrap cannot create a sandbox here (${why})` });
      }
    });
  });
}
