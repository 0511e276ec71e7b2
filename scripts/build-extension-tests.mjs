// Bundles the extension-host suites (test/vscode/index.ts) for the editor to load as extensionTestsPath, and the
// test-only language model extension (test/vscode-lm/) into a .vsix the editor installs beside the real one.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Builds dist-test/vscode/index.js; returns its path. */
export async function buildExtensionTests() {
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
  return outfile;
}

/**
 * Builds the test-only language model extension and packages it as dist-test/delegate-test-lm.vsix; returns its path.
 * A .vsix, installed into the editor: the workbench takes one extensionDevelopmentPath from its URL (its payload is
 * a map, the last entry wins), and that one is the extension under test.
 */
export async function buildTestLmExtension() {
  const dir = join(root, 'dist-test', 'vscode-lm');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(root, 'test', 'vscode-lm', 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  await build({
    entryPoints: [join(root, 'test', 'vscode-lm', 'src', 'extension.ts')],
    outfile: join(dir, 'extension.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const packagePath = join(root, 'dist-test', 'delegate-test-lm.vsix');
  const { createVSIX } = await import('@vscode/vsce');
  await createVSIX({ cwd: dir, packagePath, dependencies: false, allowMissingRepository: true, skipLicense: true });
  return packagePath;
}
