// The test kit itself (test/kit/): a run with its root hooks removes what each test made when the test ends, fails
// naming what a test left in the temp dir, and leaves nothing there either way; waitUntil says what it waited for.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../kit/run-cli';
import { tempDir } from '../kit/temp-dirs';
import { waitUntil } from '../kit/wait';

const MOCHA = join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js');
/** What is in `dir` but tsx's compile cache (the child mocha runs through tsx with this TMPDIR). */
const contents = (dir: string): string[] => readdirSync(dir).filter((n) => !/^tsx-\d+$/.test(n));

/** Runs one fixture spec (test/fixtures/kit/) in a mocha with the kit's root hooks and TMPDIR=`tmp`. */
function runSpec(name: string, tmp: string, env: Record<string, string> = {}): { code: number | null; out: string } {
  const args = [MOCHA, '--no-config', '--node-option', 'import=tsx', '--extension', 'ts', '--timeout', '20000', '--require', 'test/kit/root-hooks.ts', `test/fixtures/kit/${name}`];
  const run = spawnSync(process.execPath, args, { cwd: REPO, env: { ...process.env, ...env, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the test kit', function () {
  this.timeout(60_000);

  it("removes a test's folders and closes its session when the test ends, a before() folder when the run ends; the run's temp dir goes too", () => {
    const tmp = tempDir('delegate-kit-');
    const { code, out } = runSpec('cleanups.spec.ts', tmp);
    assert.equal(code, 0, out);
    const made = JSON.parse(/^\{.*"suite".*\}$/m.exec(out)?.[0] ?? '{}') as Record<string, string>;
    assert.ok(made.suite?.startsWith(join(tmp, 'delegate-test-run-')), `the run's folders are in its own temp dir: ${made.suite}`);
    assert.equal(existsSync(made.suite ?? ''), false, 'the before() folder is gone after the run');
    assert.deepEqual(contents(tmp), [], 'nothing left in the temp dir');
  });

  it('fails a run that leaves a folder in the temp dir, naming it and the test after which it appeared; removes it anyway', () => {
    const tmp = tempDir('delegate-kit-');
    const { code, out } = runSpec('leak.spec.ts', tmp);
    assert.notEqual(code, 0, out);
    assert.match(out, /the run left 1 folder\(s\) or file\(s\) in the temp dir \(kit-leak- ×1\)/);
    assert.match(out, /kit-leak-\w{6} \(first seen after "a leaky suite leaves a folder behind"\)/);
    assert.deepEqual(contents(tmp), []);
  });

  it("the sandbox's placeholder registry holding only the run's own entry is kept, not a leftover; another pid's entry is", () => {
    const tmp = tempDir('delegate-kit-');
    const own = runSpec('registry.spec.ts', tmp);
    assert.equal(own.code, 0, own.out);
    assert.deepEqual(contents(tmp), []);
    const other = runSpec('registry.spec.ts', tmp, { KIT_OTHER_PID: '999999999' });
    assert.notEqual(other.code, 0, other.out);
    assert.match(other.out, /the run left 1 folder\(s\) or file\(s\) in the temp dir \(delegate-placeholders-\w+ ×1\)/);
    assert.deepEqual(contents(tmp), []);
  });

  it('waitUntil resolves once the check holds (sync or async) and otherwise names what it waited for, as things stood then', async () => {
    let n = 0;
    await waitUntil(() => ++n >= 3, 'three polls', 1000, 1);
    assert.equal(n, 3);
    await waitUntil(async () => true, 'an async check');
    let polls = 0;
    await assert.rejects(
      waitUntil(() => (polls++, false), () => `never (after ${polls} polls)`, 50, 5),
      (err: Error) => /^timed out after 50 ms waiting until never \(after \d+ polls\)$/.test(err.message) && !err.message.includes('after 0 polls'),
    );
  });
});
