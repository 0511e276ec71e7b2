// Bundles the panel's browser code (webview/main.ts) into dist/webview/main.js, the highlighter
// it loads on first use (webview/highlight-bundle.ts) into dist/webview/highlight.js, and copies
// the codicon font + stylesheet and the test harness page beside them.
//   node scripts/build-webview.mjs            development build (sourcemap, not minified)
//   node scripts/build-webview.mjs --prod     minified, no sourcemap
//   node scripts/build-webview.mjs --watch    rebuild on change
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'webview');
const args = new Set(process.argv.slice(2));
const prod = args.has('--prod') || process.env.NODE_ENV === 'production';

/** @type {import('esbuild').BuildOptions} */
const options = {
  entryPoints: { main: join(root, 'webview', 'main.ts'), highlight: join(root, 'webview', 'highlight-bundle.ts') },
  outdir: outDir,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  minify: prod,
  sourcemap: prod ? false : 'linked',
  legalComments: prod ? 'none' : 'inline',
  tsconfig: join(root, 'webview', 'tsconfig.json'),
  logLevel: 'warning',
};

async function copyAssets() {
  await mkdir(outDir, { recursive: true });
  const codicons = join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  await copyFile(join(codicons, 'codicon.css'), join(outDir, 'codicon.css'));
  await copyFile(join(codicons, 'codicon.ttf'), join(outDir, 'codicon.ttf'));
  await copyFile(join(root, 'webview', 'test-harness.html'), join(outDir, 'test-harness.html'));
}

await copyAssets();
if (args.has('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  console.log('build-webview: watching');
} else {
  const result = await esbuild.build({ ...options, metafile: true });
  const size = (name) => Object.entries(result.metafile.outputs).find(([file]) => file.endsWith(`/${name}`))?.[1].bytes ?? 0;
  const kb = (name) => `dist/webview/${name} ${(size(name) / 1024).toFixed(0)} KB`;
  console.log(`build-webview: ${kb('main.js')}, ${kb('highlight.js')} (loaded on first use)${prod ? ' (minified)' : ''}`);
}
