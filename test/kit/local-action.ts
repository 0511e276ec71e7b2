/**
 * Runs the action as a runner would, two ways:
 *   localAction(...)   @github/local-action (the maintained local runner): the TypeScript entry src/action/main.ts
 *                      with @actions/core and @actions/artifact stubbed (outputs printed as a table, the job
 *                      summary written to GITHUB_STEP_SUMMARY, artifacts zipped into LOCAL_ACTION_ARTIFACT_PATH)
 *   runnerBundle(...)  the bundle a workflow runs (dist/action/index.js) under the runner's own protocol: inputs as
 *                      INPUT_* variables, outputs and the summary through the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY
 *                      files, the step's result its exit code
 * Both spawn the built CLI (bin/delegate.js), pointed by `env` at the test's Messages-API server.
 *   releaseCheckout()  what `uses: OWNER/delegate@v1` gets: scripts/release-action.mjs's commit (HEAD's tree and
 *                      dist/), extracted where no node_modules is above it
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './run-cli';
import { tempDir } from './temp-dirs';

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The job summary written. */
  summary: string;
  /** Where artifacts went (local-action) . */
  artifacts: string;
  /** Outputs the step set. */
  outputs: Record<string, string>;
}

function scratch(): { dir: string; summary: string; artifacts: string } {
  const dir = tempDir('delegate-action-');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  const artifacts = join(dir, 'artifacts');
  mkdirSync(artifacts);
  return { dir, summary, artifacts };
}

function spawnRun(args: string[], env: Record<string, string | undefined>, timeoutMs: number, cwd = REPO): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined));
    const child = spawn(process.execPath, args, { cwd, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the action did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const inputVars = (inputs: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]));

/** The base environment: PATH, a fresh HOME, the chunk log of the CLI suite (chunk-coverage.ts). */
function baseEnv(home: string): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: home, DELEGATE_CHUNK_LOG: process.env.DELEGATE_CHUNK_LOG };
}

/** `local-action run <repo> src/action/main.ts <dotenv>`: inputs in the dotenv file, as its README says. */
export async function localAction(inputs: Record<string, string>, env: Record<string, string>): Promise<ActionRun> {
  const s = scratch();
  const dotenv = join(s.dir, '.env');
  const vars = { ...inputVars(inputs), GITHUB_STEP_SUMMARY: s.summary, LOCAL_ACTION_ARTIFACT_PATH: s.artifacts, LOCAL_ACTION_WORKSPACE: s.dir, RUNNER_TEMP: s.dir };
  writeFileSync(dotenv, Object.entries(vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n');
  const bin = join(REPO, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');
  const run = await spawnRun([bin, 'run', REPO, 'src/action/main.ts', dotenv], { ...baseEnv(s.dir), ...env }, 60_000);
  return { ...run, summary: readFileSync(s.summary, 'utf8'), artifacts: s.artifacts, outputs: localOutputs(run.stdout) };
}

/** The stubbed core prints each output as `::set-output name=NAME::VALUE` (the value's first line). */
function localOutputs(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of stdout.matchAll(/^::set-output name=([\w-]+)::(.*)$/gm)) out[m[1] as string] = m[2] as string;
  return out;
}

/** `node dist/action/index.js` with the runner's variables and files; `root`: a checkout of a release (else this repository). */
export async function runnerBundle(inputs: Record<string, string>, env: Record<string, string>, root = REPO): Promise<ActionRun> {
  const s = scratch();
  const output = join(s.dir, 'output');
  writeFileSync(output, '');
  const vars = { ...inputVars(inputs), GITHUB_STEP_SUMMARY: s.summary, GITHUB_OUTPUT: output, RUNNER_TEMP: s.dir, GITHUB_ACTIONS: 'true' };
  const run = await spawnRun([join(root, 'dist', 'action', 'index.js')], { ...baseEnv(s.dir), ...vars, ...env }, 30_000, s.dir);
  return { ...run, summary: readFileSync(s.summary, 'utf8'), artifacts: s.artifacts, outputs: fileOutputs(readFileSync(output, 'utf8')) };
}

/** GITHUB_OUTPUT's format: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
function fileOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const end = lines.indexOf(m[2] as string, i + 1);
    out[m[1] as string] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

/** The release commit of the current build (scripts/release-action.mjs --skip-build --no-ref), as a plain folder. */
export function releaseCheckout(): string {
  const commit = execFileSync(process.execPath, ['scripts/release-action.mjs', '--skip-build', '--no-ref'], { cwd: REPO, encoding: 'utf8' }).trim();
  const dir = tempDir('delegate-release-');
  const tar = execFileSync('git', ['archive', '--format=tar', commit], { cwd: REPO, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}
