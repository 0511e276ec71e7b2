// Runs every suite in turn — unit + CLI (mocha), webview (headless Chromium), extension host (real
// VS Code), end to end (real VS Code driven by Playwright) — and closes with one total line,
// "N passed, N failed", summed from each suite's own closing line. Exits non-zero if any suite failed.
//   node scripts/test-all.mjs [unit] [webview] [vscode] [e2e]     (default: all)
import { spawn } from 'node:child_process';
import { ensureEditor } from './editor/install-editor.mjs';
import { ensureDebianPackages, SUITE_PACKAGES } from './prerequisites.mjs';

const SUITES = {
  unit: ['npx', ['mocha']],
  webview: ['npx', ['mocha', '--config', 'test/webview/.mocharc.json', '--reporter', 'test/kit/summary-reporter.cjs']],
  vscode: ['node', ['scripts/test-vscode.mjs']],
  e2e: ['node', ['scripts/test-e2e.mjs']],
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SUITES);
const summary = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/;
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
// Each suite's "FAILED: …" lines (test/kit/summary-reporter.cjs), repeated under the total: CI shows only the tail.
const failures = [];

for (const name of wanted) {
  if (!SUITES[name]) throw new Error(`unknown suite ${name}; known: ${Object.keys(SUITES).join(', ')}`);
}
prepare(wanted);

for (const name of wanted) {
  const suite = SUITES[name];
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const { code, last } = await run(...suite);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (!last) {
    // A suite that crashed before its summary counts as one failure, so it can't pass silently.
    failed += 1;
    rows.push(`${name}: no summary line (exit ${code}) in ${seconds}s`);
    continue;
  }
  passed += last.passed;
  failed += last.failed + (code !== 0 && last.failed === 0 ? 1 : 0);
  skipped += last.skipped;
  rows.push(`${name}: ${last.passed} passed, ${last.failed} failed${code !== 0 && last.failed === 0 ? ` (exit ${code})` : ''} in ${seconds}s`);
}

console.log(`\n=== all suites ===\n${rows.join('\n')}`);
if (failures.length) console.log(`\n${failures.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);

/**
 * What the suites need from the machine, installed before any runs (a new user's `npm test` on a fresh machine
 * does this too): Debian packages as root, else one line naming the command; the test editor for vscode/e2e,
 * so a cold install (minutes) is not counted inside a suite's own time-outs.
 */
function prepare(names) {
  const log = (m) => console.log(`[prerequisites] ${m}`);
  try {
    ensureDebianPackages(names.flatMap((n) => SUITE_PACKAGES[n] ?? []), { log });
    if (names.includes('vscode') || names.includes('e2e')) ensureEditor({ log: (m) => log(`editor: ${m}`) });
  } catch (err) {
    console.error(`[prerequisites] ${err.message}`);
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
}

/** Colour codes would hide a summary line from the pattern. */
function stripAnsi(text) {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
}

/** Runs a suite with its output passed through; remembers its last summary line. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let last;
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const plain = stripAnsi(line).trim();
        if (plain.startsWith('FAILED: ')) failures.push(plain);
        const m = summary.exec(plain);
        if (m) last = { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) };
      }
    });
    child.on('close', (code) => resolve({ code, last }));
  });
}
