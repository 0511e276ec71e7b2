// Builds the three bundles: the CLI (ESM, split so a run loads what it needs lazily), the editor
// host (CommonJS, `vscode` external) and the panel's webview (browser, scripts/build-webview.mjs).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');

// Split chunks have hashed names: clear old ones so they don't pile up.
rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  sourcemap: production ? false : 'linked',
  // Always minified: less to parse on every start (the source map keeps stack traces readable).
  minify: true,
  define: { DELEGATE_VERSION: JSON.stringify(pkg.version) },
  // Its binary sits beside its own files: resolved from node_modules at run time.
  external: ['@vscode/ripgrep'],
  // CommonJS dependencies (the SDK) call require() for Node built-ins; ESM output needs a real one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log('built dist/cli');

await build({
  entryPoints: ['src/vscode/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The editor passes the ripgrep VS Code ships; @vscode/ripgrep is not in the .vsix.
  external: ['vscode', '@vscode/ripgrep'],
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
});
console.log('built dist/extension.js');

if (production) process.argv.push('--prod');
await import('./build-webview.mjs');
