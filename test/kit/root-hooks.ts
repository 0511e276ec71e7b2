/**
 * The kit's mocha root-hook plugin (`require` in .mocharc.json, test/webview/.mocharc.json, test/e2e/.mocharc.json):
 * each test's cleanups (cleanup.ts), and the proof that a run leaves nothing in the temp dir.
 *
 *   loaded (before any test file)  TMPDIR = <temp dir>/delegate-test-run-XXXXXX: this process and everything it
 *                                  starts with its environment (the CLI, MCP servers, the editor) make their temp
 *                                  folders there, so this run's are told apart from other runs on the machine
 *   after all (cleanups done)      anything left in it fails the run, named by prefix; then it is removed
 *
 * Not leftovers: tsx's compile cache (`tsx-<uid>`, made by child processes run through tsx), and the sandbox's registry
 * of processes holding placeholders (`delegate-placeholders-<uid>`, src/core/sandbox/placeholders.ts: a folder all
 * Delegate processes share, kept) while it holds no entry but this process's own (a core test's sandbox registered
 * the test process, whose entry goes at its exit). Another pid's entry there is a process that did not clean up.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'mocha';
import { cleanupHooks } from './cleanup';

const CACHES = /^tsx-\d+$/;
const runTemp = mkdtempSync(join(tmpdir(), 'delegate-test-run-'));
process.env.TMPDIR = runTemp;
process.on('exit', () => rmSync(runTemp, { recursive: true, force: true }));

const PLACEHOLDER_REGISTRY = /^delegate-placeholders-/;

/** Whether `name` in the run's temp dir is kept by design (see above), not left behind. */
function kept(name: string): boolean {
  if (CACHES.test(name)) return true;
  if (!PLACEHOLDER_REGISTRY.test(name)) return false;
  return readdirSync(join(runTemp, name)).every((pid) => pid === String(process.pid));
}

/** "delegate-cli- ×3, delegate-sandbox- ×1": what was left, by prefix (mkdtemp's 6 characters cut off). */
function leftoverSummary(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const prefix = /^(.*[-_.])[A-Za-z0-9]{6}$/.exec(name)?.[1] ?? name;
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].map(([prefix, n]) => `${prefix} ×${n}`).join(', ');
}

/** Each name in the run's temp dir and the test after which it was first seen there. */
const seenAfter = new Map<string, string>();

function noteNewEntries(this: Context): void {
  for (const name of readdirSync(runTemp)) if (!seenAfter.has(name)) seenAfter.set(name, this.currentTest?.fullTitle() ?? 'a test');
}

export const mochaHooks = {
  beforeEach: cleanupHooks.beforeEach,
  // The test's cleanups first, then what it left (for the message below).
  afterEach: [cleanupHooks.afterEach, noteNewEntries],
  // After every other root afterAll (chunk-coverage.ts is required first and removes its own log).
  async afterAll(): Promise<void> {
    const problems: string[] = [];
    await cleanupHooks.afterAll().catch((err: Error) => problems.push(err.message));
    const left = readdirSync(runTemp).filter((name) => !kept(name));
    rmSync(runTemp, { recursive: true, force: true });
    if (left.length) {
      const by = left.map((name) => `  ${name}${seenAfter.has(name) ? ` (first seen after "${seenAfter.get(name)}")` : ''}`);
      problems.push(
        `the run left ${left.length} folder(s) or file(s) in the temp dir (${leftoverSummary(left)}). Make test folders with tempDir() ` +
          `(test/kit/temp-dirs.ts); a process the test started must end, and clean up, before the test does:\n${by.join('\n')}`,
      );
    }
    if (problems.length) throw new Error(problems.join('\n'));
  },
};
