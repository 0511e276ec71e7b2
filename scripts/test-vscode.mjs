// Runs the extension-host suites inside a real VS Code (code-server's server + Debian Chromium):
// bundles test/vscode/index.ts and the test-only language model extension (test/vscode-lm/), opens a fresh
// workspace with the extension under development and the test model installed, and exits with the suites'
// result; then the `untrusted` suite in a workspace VS Code does not trust (a second launch). The editor is
// installed into .tools/ on first use. `node scripts/test-vscode.mjs proxy lm-model` runs only those suites (names
// in test/vscode/index.ts).
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildExtensionTests, buildTestLmExtension } from './build-extension-tests.mjs';
import { runExtensionTests } from './editor/run-extension-tests.mjs';

const root = resolve(import.meta.dirname, '..');

// The editor (and so its extension host) starts with a fake key and a copy of the one tool-env.test.ts stores in the
// secret storage: neither may reach an agent's commands nor stay in the extension host's /proc/<pid>/environ.
const fakeKeys = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'test', 'vscode', 'fake-keys.json'), 'utf8'));
process.env.ANTHROPIC_API_KEY = fakeKeys.envKey;
process.env.DELEGATE_TEST_KEY_COPY = fakeKeys.storedKey;
const outfile = await buildExtensionTests();
const testLm = await buildTestLmExtension();

// Two launches: every suite in a trusted workspace, then `untrusted` in Restricted Mode (workspace trust on, never
// granted). Named suites run in the launch they belong to.
const named = process.argv.slice(2);
const UNTRUSTED = 'untrusted';
const launches = [
  { suites: named.filter((n) => n !== UNTRUSTED), workspaceTrust: 'disabled', wanted: named.length === 0 || named.some((n) => n !== UNTRUSTED) },
  { suites: [UNTRUSTED], workspaceTrust: 'enabled', wanted: named.length === 0 || named.includes(UNTRUSTED) },
].filter((l) => l.wanted);

const summary = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/m;
let exitCode = 0;
const totals = { passed: 0, failed: 0 };
for (const launch of launches) {
  process.env.DELEGATE_VSCODE_SUITES = launch.suites.join(',');
  const workspace = mkdtempSync(join(tmpdir(), 'delegate-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# test workspace\n');
  const run = await runExtensionTests({
    extensionDevelopmentPath: root,
    vsixPaths: [testLm],
    extensionTestsPath: outfile,
    workspace,
    workspaceTrust: launch.workspaceTrust,
    settings: { 'delegate.permissionMode': 'default' },
    timeoutMs: 300_000,
  });
  rmSync(workspace, { recursive: true, force: true });
  const counts = summary.exec(run.log);
  totals.passed += Number(counts?.[1] ?? 0);
  // A launch that ended without its summary counts as one failure.
  totals.failed += counts ? Number(counts[2]) : 1;
  exitCode ||= run.exitCode;
}
// test-all.mjs reads the last summary line: both launches together.
if (launches.length > 1) console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(exitCode);
