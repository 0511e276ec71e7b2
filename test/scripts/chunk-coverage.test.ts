// The chunk-coverage check (test/kit/chunk-coverage.ts): a chunk no test loaded is named with its module; one
// reached only through a chunk excused by NOT_LOADED_BY_DESIGN is excused with it; a stale excuse is named.
import assert from 'node:assert/strict';
import { NOT_LOADED_BY_DESIGN, uncoveredChunks } from '../kit/chunk-coverage';

const excused = Object.keys(NOT_LOADED_BY_DESIGN)[0] as string;
const manifest = {
  chunks: [
    { file: 'main.cjs', entry: 'src/cli/main.ts', imports: ['run-A.cjs', 'chunk-S.cjs'] },
    { file: 'chunk-S.cjs', entry: null, imports: [] },
    { file: 'run-A.cjs', entry: 'src/cli/run.ts', imports: ['turndown-B.cjs', 'node-C.cjs'] },
    { file: 'turndown-B.cjs', entry: 'node_modules/turndown/lib/turndown.cjs.js', imports: [] },
    { file: 'node-C.cjs', entry: excused, imports: ['chunk-D.cjs'] },
    { file: 'chunk-D.cjs', entry: null, imports: [] },
  ],
};

describe('chunk coverage check', () => {
  it('names the chunks no test loaded, excuses what only an excused chunk reaches', () => {
    assert.deepEqual(uncoveredChunks(manifest, new Set(['main.cjs', 'run-A.cjs', 'chunk-S.cjs', 'turndown-B.cjs'])), { missing: [], stale: [] });
    assert.deepEqual(uncoveredChunks(manifest, new Set(['main.cjs', 'run-A.cjs'])), {
      missing: ['chunk-S.cjs', 'turndown-B.cjs (node_modules/turndown/lib/turndown.cjs.js)'],
      stale: [],
    });
  });

  it('an excuse that matches no chunk of the build is stale', () => {
    const without = { chunks: manifest.chunks.filter((c) => c.entry !== excused) };
    assert.deepEqual(uncoveredChunks(without, new Set(['main.cjs', 'run-A.cjs', 'chunk-S.cjs', 'turndown-B.cjs'])).stale, [excused]);
  });
});
