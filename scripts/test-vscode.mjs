// Runs the extension-host suites inside a real VS Code (code-server's server + Debian Chromium):
// bundles test/vscode/index.ts, opens a fresh workspace with the extension under development, and
// exits with the suites' result. The editor is installed into .tools/ on first use.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runExtensionTests } from './editor/run-extension-tests.mjs';

const root = resolve(import.meta.dirname, '..');
const outfile = join(root, 'dist-test', 'vscode', 'index.js');

await build({
  entryPoints: [join(root, 'test', 'vscode', 'index.ts')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // vscode is the host's; mocha loads its reporters dynamically, so it comes from node_modules.
  external: ['vscode', 'mocha'],
  sourcemap: 'inline',
  logLevel: 'warning',
});

const workspace = mkdtempSync(join(tmpdir(), 'delegate-ws-'));
writeFileSync(join(workspace, 'README.md'), '# test workspace\n');
const { exitCode } = await runExtensionTests({
  extensionDevelopmentPath: root,
  extensionTestsPath: outfile,
  workspace,
  settings: { 'delegate.permissionMode': 'default' },
  timeoutMs: 300_000,
});
rmSync(workspace, { recursive: true, force: true });
process.exit(exitCode);
