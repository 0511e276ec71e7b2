/**
 * Waiting on what a test can see, not on how long things take (the machines are shared and noisy): the one poll
 * every suite uses — unit, CLI, extension host (bundled into it), end to end.
 *
 *   await waitUntil(() => pidsWith(marker).length === 0, 'the sleep is killed', 3000);
 */

/**
 * Polls `check` (sync or async) every `everyMs` until it holds; past `timeoutMs` it throws naming `what`
 * ("timed out after 3000 ms waiting until the sleep is killed"). A function `what` is read then, for a message that
 * says how things stood (`() => \`left running: ${pids()}\``).
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 5_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
