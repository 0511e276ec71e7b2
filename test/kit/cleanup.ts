/**
 * What a test leaves behind goes when it ends: folders from tempDir() (temp-dirs.ts), sessions from testSession(),
 * anything handed to afterThisTest(). The kit's root hooks (root-hooks.ts; the extension host's index.ts) run them:
 *
 *   root beforeEach ─▶ a scope opens for this test
 *   the suite's beforeEach, the test, the suite's afterEach     afterThisTest(fn): into the scope
 *   root afterEach  ─▶ (after the suite's own afterEach) the scope's cleanups, last registered first
 *
 *   outside a test (before, describe, module load), or afterThisRun(fn) ─▶ the run's scope, cleaned by root afterAll
 *
 * A cleanup that throws does not stop the run: root afterAll fails once, naming each.
 */
import type { Context } from 'mocha';

type Cleanup = () => void | Promise<void>;

/** The current test's cleanups (between root beforeEach and root afterEach), else undefined. */
let testScope: Cleanup[] | undefined;
const runScope: Cleanup[] = [];
const failures: string[] = [];

/** Runs `cleanup` when the current test ends (outside a test: when the run ends), after the suite's own hooks. */
export function afterThisTest(cleanup: Cleanup): void {
  (testScope ?? runScope).push(cleanup);
}

/** Runs `cleanup` when the whole run ends (what one helper hands to every test). */
export function afterThisRun(cleanup: Cleanup): void {
  runScope.push(cleanup);
}

async function runCleanups(list: Cleanup[], when: string): Promise<void> {
  for (const cleanup of list.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (err) {
      failures.push(`${when}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Root hooks (mocha's `mochaHooks` shape) that run the cleanups. */
export const cleanupHooks = {
  beforeEach(): void {
    testScope = [];
  },
  async afterEach(this: Context): Promise<void> {
    const list = testScope ?? [];
    testScope = undefined;
    await runCleanups(list, `after "${this.currentTest?.fullTitle() ?? 'a test'}"`);
  },
  async afterAll(): Promise<void> {
    await runCleanups(runScope, 'after all tests');
    if (failures.length) throw new Error(`cleanups failed:\n${failures.splice(0).join('\n')}`);
  },
};
