/**
 * Folders for tests, in the temp dir, removed when the test ends (cleanup.ts): any folder (tempDir), a core session's
 * (sessionDirs: a workspace and a transcript root), the built CLI's (cliDirs: a workspace and a data home).
 *
 *   const dir = tempDir('delegate-x-');         made now, gone after this test (made in `before`: after the run)
 *
 * The root hooks give the run a temp dir of its own and fail it on anything left there (root-hooks.ts); without
 * them (mocha --no-config, a crash) the folders still listed go when the process exits.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterThisRun, afterThisTest } from './cleanup';

/** Folders not removed yet, for the 'exit' backstop. */
const liveFolders = new Set<string>();

process.on('exit', () => {
  for (const dir of liveFolders) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh folder in the temp dir (`prefix` + 6 random characters), removed when the test ends; `lifetime: 'run'`
 * keeps it for the whole run (a folder one helper hands to every test, like the CLI's HOME).
 */
export function tempDir(prefix = 'delegate-test-', lifetime: 'test' | 'run' = 'test'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  liveFolders.add(dir);
  const remove = (): void => {
    // Retries: a process the test started may still be writing into it for a moment.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    liveFolders.delete(dir);
  };
  if (lifetime === 'run') afterThisRun(remove);
  else afterThisTest(remove);
  return dir;
}

/** A workspace folder and a transcript root for one core session. */
export function sessionDirs(): { workdir: string; transcriptRoot: string } {
  return { workdir: tempDir('delegate-ws-'), transcriptRoot: tempDir('delegate-tr-') };
}

/** A workspace folder (`ws`) and a data home (`data`, not made: the CLI makes it) for one run of the built CLI. */
export function cliDirs(): { workdir: string; dataHome: string } {
  const root = tempDir('delegate-cli-');
  const workdir = join(root, 'ws');
  mkdirSync(workdir);
  return { workdir, dataHome: join(root, 'data') };
}
