// Starts server-process.mjs (the local Messages-API server in a child process) and talks to it over IPC.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Resolves to { baseURL, plan(plan), stats({ bodies }), close() }. */
export async function startServerProcess() {
  const child = fork(fileURLToPath(new URL('./server-process.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map();
  let nextId = 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A server that dies fails every call still waiting, rather than leaving the bench hanging.
  void exited.then((code) => {
    for (const call of pending.values()) call.reject(new Error(`the server process exited (${code})`));
    pending.clear();
  });

  const baseURL = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the server process exited early (${code})`)));
    child.on('message', (msg) => {
      if (msg.ready) return resolve(msg.ready);
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error !== undefined) call?.reject(new Error(`server: ${msg.error}`));
      else call?.resolve(msg.result);
    });
  });

  const call = (cmd, arg) =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error('the server process is gone'));
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd, arg });
    });

  return {
    baseURL,
    plan: (plan) => call('plan', plan),
    stats: (opts = {}) => call('stats', opts),
    async close() {
      if (child.exitCode !== null || !child.connected) return;
      await call('close').catch(() => undefined);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
      if (child.exitCode === null) child.kill();
    },
  };
}
