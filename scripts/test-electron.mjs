// For developers with a desktop VS Code: runs the same extension-host suites as `npm run test:vscode`,
// through @vscode/test-electron, against the VS Code you already have (nothing is downloaded).
// CI does not use this (it has no desktop editor and no network); it runs scripts/test-vscode.mjs.
//   VSCODE_EXECUTABLE=/path/to/code node scripts/test-electron.mjs
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildExtensionTests } from './build-extension-tests.mjs';
import { runTests } from '@vscode/test-electron';

const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
if (!vscodeExecutablePath || !existsSync(vscodeExecutablePath)) {
  console.error('Set VSCODE_EXECUTABLE to your VS Code binary (e.g. /usr/share/code/code or the .app\'s Contents/MacOS/Electron).');
  process.exit(2);
}

const root = resolve(import.meta.dirname, '..');
const extensionTestsPath = await buildExtensionTests();

const workspace = mkdtempSync(join(tmpdir(), 'delegate-ws-'));
writeFileSync(join(workspace, 'README.md'), '# test workspace\n');
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: root,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`extension tests failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
