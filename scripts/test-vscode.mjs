// Runs the extension-host suites inside a real VS Code (code-server's server + Debian Chromium):
// bundles test/vscode/index.ts and the test-only language model extension (test/vscode-lm/), opens a fresh
// workspace with the extension under development and the test model installed, and exits with the suites'
// result. The editor is installed into .tools/ on first use. `node scripts/test-vscode.mjs proxy lm-model` runs only
// those suites (names in test/vscode/index.ts).
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildExtensionTests, buildTestLmExtension } from './build-extension-tests.mjs';
import { runExtensionTests } from './editor/run-extension-tests.mjs';

const root = resolve(import.meta.dirname, '..');

if (process.argv.length > 2) process.env.DELEGATE_VSCODE_SUITES = process.argv.slice(2).join(',');
// The editor (and so its extension host) starts with a fake key and a copy of the one tool-env.test.ts stores in the
// secret storage: neither may reach an agent's commands nor stay in the extension host's /proc/<pid>/environ.
const fakeKeys = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'test', 'vscode', 'fake-keys.json'), 'utf8'));
process.env.ANTHROPIC_API_KEY = fakeKeys.envKey;
process.env.DELEGATE_TEST_KEY_COPY = fakeKeys.storedKey;
const outfile = await buildExtensionTests();
const testLm = await buildTestLmExtension();

const workspace = mkdtempSync(join(tmpdir(), 'delegate-ws-'));
writeFileSync(join(workspace, 'README.md'), '# test workspace\n');
const { exitCode } = await runExtensionTests({
  extensionDevelopmentPath: root,
  vsixPaths: [testLm],
  extensionTestsPath: outfile,
  workspace,
  settings: { 'delegate.permissionMode': 'default' },
  timeoutMs: 300_000,
});
rmSync(workspace, { recursive: true, force: true });
process.exit(exitCode);
