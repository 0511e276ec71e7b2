// The GitHub Action's bundles (action.yml's `runs.main`): a workflow runs them straight from the repository at a
// ref, with no install, so both are self-contained.
//   dist/action/index.js     src/action/ and @actions/core (small, built every time)
//   dist/action/artifact.js  @actions/artifact (~3.5 MB, several seconds to bundle), required by index.js on the
//                            first transcript upload; rebuilt only when missing, when that package or its entry
//                            changed, or for --production (a release builds everything from scratch)
import { build } from 'esbuild';
import { existsSync, statSync } from 'node:fs';

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };

// `import('./artifact-client')` becomes a require() of ./artifact.js beside the bundle.
const artifactApart = {
  name: 'artifact-apart',
  setup(b) {
    b.onResolve({ filter: /\/artifact-client$/ }, () => ({ path: 'artifact-client', namespace: 'artifact-apart' }));
    b.onLoad({ filter: /.*/, namespace: 'artifact-apart' }, () => ({ contents: "module.exports = require('./artifact.js');", loader: 'js' }));
    b.onResolve({ filter: /^\.\/artifact\.js$/ }, () => ({ path: './artifact.js', external: true }));
  },
};

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : Infinity);

export async function buildAction({ production }) {
  const sourcemap = production ? false : 'linked';
  await build({ ...common, plugins: [artifactApart], entryPoints: ['src/action/index.ts'], outfile: 'dist/action/index.js', sourcemap, minify: production });
  const out = 'dist/action/artifact.js';
  const stale = production || !existsSync(out) || Math.max(mtime('node_modules/@actions/artifact/package.json'), mtime('src/action/artifact-client.ts')) > mtime(out);
  if (stale) await build({ ...common, entryPoints: ['src/action/artifact-client.ts'], outfile: out, sourcemap: false, minify: true });
}
