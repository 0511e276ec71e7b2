// Bundles the extension-host suites (test/vscode/index.ts) for the editor to load as extensionTestsPath.
import { build } from 'esbuild';
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
