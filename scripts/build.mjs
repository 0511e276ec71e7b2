// Builds the three bundles: the CLI (ESM, split so a run loads what it needs lazily), the editor
// host (CommonJS, `vscode` external) and the panel's webview (browser, scripts/build-webview.mjs).
import { build, transform } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');

// The SDK's modules get `Headers`, `FormData` and `Response` from src/core/llm/sdk-web-globals.ts rather than from
// Node's globals, each of which loads undici on first touch (~40 ms of CPU before the first request; the SDK's
// fetch is src/core/llm/http-fetch.ts). Imported on the file's first line, so its line numbers stay as they were.
const webGlobals = fileURLToPath(new URL('../src/core/llm/sdk-web-globals.ts', import.meta.url));
const sdkWebGlobals = {
  name: 'sdk-web-globals',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/].*\.mjs$/ }, ({ path }) => ({
      contents: `import { Headers, FormData, Response } from ${JSON.stringify(webGlobals)};${readFileSync(path, 'utf8')}`,
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

const ESM_BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

// Split chunks have hashed names: clear old ones so they don't pile up.
rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  plugins: [sdkWebGlobals],
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
  banner: { js: ESM_BANNER },
  logLevel: 'warning',
});
await toCommonJs('dist/cli');
// The start module (not a chunk): V8 flags, then the chunks through vm.Script with V8's code cache.
await build({
  entryPoints: ['src/cli/start.ts'],
  outfile: 'dist/cli/start.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
});
console.log('built dist/cli');

/**
 * esbuild splits only ESM, and Node 20 can give V8's code cache only to scripts: each chunk is rewritten as a
 * CommonJS module (imports become require() of ./….cjs, import() a require in a promise) for src/cli/start.ts.
 * The source maps are chained through, so they still point at src/.
 */
async function toCommonJs(dir) {
  const chunks = readdirSync(dir).filter((f) => f.endsWith('.mjs'));
  for (const name of chunks) {
    const path = join(dir, name);
    // The ESM banner's require() comes from the CommonJS wrapper now.
    let code = readFileSync(path, 'utf8').replace(ESM_BANNER, '');
    if (!production) {
      code = code.replace(/\/\/# sourceMappingURL=.*\s*$/, '');
      code += `//# sourceMappingURL=data:application/json;base64,${readFileSync(`${path}.map`).toString('base64')}\n`;
    }
    const out = await transform(code, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      minify: true,
      sourcemap: production ? false : 'external',
      sourcefile: name,
      logLevel: 'warning',
    });
    const cjsName = name.replace(/\.mjs$/, '.cjs');
    // Chunk names are esbuild's [name]-[hash]: no other string in the code looks like one.
    const cjs = out.code.replace(/require\("\.\/([\w.-]+)\.mjs"\)/g, (m, stem) => (chunks.includes(`${stem}.mjs`) ? `require("./${stem}.cjs")` : m));
    writeFileSync(join(dir, cjsName), production ? cjs : `${cjs}//# sourceMappingURL=${cjsName}.map\n`);
    if (!production) writeFileSync(join(dir, `${cjsName}.map`), out.map);
    rmSync(path);
    rmSync(`${path}.map`, { force: true });
  }
}

// The MCP SDK is only imported dynamically (src/core/mcp/sdk-modules.ts): a CommonJS bundle cannot split, so the
// extension gets it as a file of its own, required on first use, instead of parsing it at every activation.
// The import becomes a require() of ./mcp-sdk.js beside the bundle (an external import() would stay an ESM import
// of a CommonJS file, whose named exports Node cannot always see).
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(b) {
    b.onResolve({ filter: /\/sdk-modules$/ }, () => ({ path: 'mcp-sdk', namespace: 'mcp-sdk-apart' }));
    b.onLoad({ filter: /.*/, namespace: 'mcp-sdk-apart' }, () => ({ contents: "module.exports = require('./mcp-sdk.js');", loader: 'js' }));
    b.onResolve({ filter: /^\.\/mcp-sdk\.js$/ }, () => ({ path: './mcp-sdk.js', external: true }));
  },
};
await build({
  entryPoints: { 'mcp-sdk': 'src/core/mcp/sdk-modules.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
});
await build({
  plugins: [mcpSdkApart],
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
console.log('built dist/extension.js, dist/mcp-sdk.js');

if (production) process.argv.push('--prod');
await import('./build-webview.mjs');
