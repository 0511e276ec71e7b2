// Bundles the panel's browser code (webview/main.ts) into dist/webview/main.js and copies the
// codicon font + stylesheet and the test harness page beside it.
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
  entryPoints: [join(root, 'webview', 'main.ts')],
  outfile: join(outDir, 'main.js'),
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
  const bytes = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('main.js'))?.[1].bytes ?? 0;
  console.log(`build-webview: dist/webview/main.js ${(bytes / 1024).toFixed(0)} KB${prod ? ' (minified)' : ''}`);
}
