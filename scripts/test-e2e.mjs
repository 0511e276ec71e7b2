#!/usr/bin/env node
// End-to-end suite: builds the extension (production, as `npm run package` does), packages it with vsce into a
// temporary .vsix, and runs test/e2e/*.test.ts (mocha + tsx), which install THAT .vsix into a real VS Code 1.139
// (scripts/editor/) and drive it through headless Chromium as a user would. Screenshots: test-artifacts/e2e/.
//   node scripts/test-e2e.mjs [--dev] [--verbose] [mocha args, e.g. --grep "b\."]
//   --dev      skip build + package: load the repository as extensionDevelopmentPath (uses the current dist/)
//   --verbose  print the editor's phases, server output and browser console errors
// Closes with mocha's "N passed, N failed" line; a failed build or package prints "0 passed, 1 failed".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureEditor } from './editor/install-editor.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dev = args.includes('--dev');
const verbose = args.includes('--verbose');
const mochaArgs = args.filter((a) => a !== '--dev' && a !== '--verbose');
const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const log = (m) => console.log(`[e2e] ${m}`);

function fail(message) {
  console.error(`[e2e] ${message}`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

/** Runs a step to completion (no stdin: anything that would prompt fails instead of hanging). */
function step(what, cmd, cmdArgs) {
  const t0 = performance.now();
  const r = spawnSync(cmd, cmdArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  if (r.status !== 0) fail(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`.trim());
  log(`${what}: ${seconds(t0)}`);
  return r.stdout;
}

const started = performance.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'delegate-e2e-vsix-'));
const removeTmp = () => fs.rmSync(tmp, { recursive: true, force: true });
process.on('exit', removeTmp);

{
  const t0 = performance.now();
  ensureEditor({ log: (m) => log(m) }); // a cold install takes minutes: not inside a test's timeout
  log(`editor ready: ${seconds(t0)}`);
}

// The tests decide which key the editor sees; a developer's real key or endpoint must not leak into them.
const stripped = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'DELEGATE_E2E_VSIX']);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !stripped.has(k)));
if (verbose) env.DELEGATE_E2E_VERBOSE = '1';
if (dev) {
  log('--dev: loading the repository as extensionDevelopmentPath (no build, no .vsix)');
} else {
  step('build (node scripts/build.mjs --production)', process.execPath, ['scripts/build.mjs', '--production']);
  const vsix = path.join(tmp, 'delegate.vsix');
  step('package (vsce package --no-dependencies)', path.join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix]);
  if (!fs.existsSync(vsix)) fail(`vsce reported success but ${vsix} is missing`);
  log(`installing ${path.basename(vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KB) into each editor`);
  env.DELEGATE_E2E_VSIX = vsix;
}

// Failure screenshots of an earlier run would read as this run's.
const artifacts = path.join(root, 'test-artifacts', 'e2e');
for (const f of fs.existsSync(artifacts) ? fs.readdirSync(artifacts) : []) if (f.startsWith('failed-')) fs.rmSync(path.join(artifacts, f));

const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const t0 = performance.now();
// Its own process group: mocha's bin re-spawns node (for --import tsx) and passes on SIGINT only, so a TERM to the
// wrapper alone would orphan the tests. Signals go to the whole group; the test process's exit handlers
// (scripts/editor/editor-server.mjs) then stop the editors and Chromium, which run in groups of their own.
const child = spawn(process.execPath, [mocha, '--config', 'test/e2e/.mocharc.json', ...mochaArgs], { cwd: root, env, stdio: 'inherit', detached: true });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // the group is gone already
    }
  });
}
child.on('exit', (code, signal) => {
  log(`tests: ${seconds(t0)}; total ${seconds(started)}; screenshots in ${path.relative(process.cwd(), artifacts) || '.'}`);
  removeTmp();
  process.exit(code ?? (signal ? 1 : 0));
});
