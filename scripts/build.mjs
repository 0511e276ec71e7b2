// Builds the four bundles: the CLI (scripts/build-cli.mjs: split so a run loads what it needs lazily), the editor
// host (CommonJS, `vscode` external), the GitHub Action (dist/action/index.js, action.yml's entry: self-contained,
// a workflow runs it from the repository with no install) and the panel's webview (browser, scripts/build-webview.mjs).
import { build } from 'esbuild';
import { buildCli } from './build-cli.mjs';
import { buildAction } from './build-action.mjs';

const production = process.argv.includes('--production');

await buildCli({ production });
console.log('built dist/cli');

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

await buildAction({ production });
console.log('built dist/action/index.js, dist/action/artifact.js');

if (production) process.argv.push('--prod');
await import('./build-webview.mjs');
