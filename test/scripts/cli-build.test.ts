/**
 * The CLI's build (scripts/build-cli.mjs) holds to what the tests of the built CLI rely on: the build they run
 * (`npm run build`) is the code `--production` ships but for source maps; an import() whose names its chunk does
 * not export fails the build (the yaml crash); the CommonJS rewrite refuses what it cannot vouch for.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error -- plain ESM script without types; its exports are checked by these tests
import { buildCli, toCommonJs } from '../../scripts/build-cli.mjs';
// @ts-expect-error -- plain ESM script without types
import { dynamicImportProblems } from '../../scripts/cli-chunk-checks.mjs';
import { tempDir } from '../kit/temp-dirs';

const REPO = join(__dirname, '..', '..');
const code = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\n$/, '\n');
const shipped = (dir: string) => readdirSync(dir).filter((f) => !f.endsWith('.map')).sort();

describe('the CLI build', function () {
  this.timeout(60_000);

  it('dev and production builds are the same files and code but for the source maps, and so is dist/cli', async () => {
    // Beside dist/cli, at its depth: the source maps' relative paths, and so the chunks' hashed names, depend on it.
    const dev = mkdtempSync(join(REPO, 'dist', 'cli-dev-'));
    const prod = mkdtempSync(join(REPO, 'dist', 'cli-prod-'));
    try {
      await buildCli({ outdir: dev });
      await buildCli({ outdir: prod, production: true });
      assert.deepEqual(shipped(dev), shipped(prod));
      assert.ok(readdirSync(dev).some((f) => f.endsWith('.cjs.map')), 'the dev build has its maps');
      assert.ok(!readdirSync(prod).some((f) => f.endsWith('.map')), 'production has none');
      for (const file of shipped(prod)) assert.equal(code(dev, file), code(prod, file), file);
      const dist = join(REPO, 'dist', 'cli');
      assert.deepEqual(shipped(dist), shipped(prod), 'dist/cli is the build of this source (run `npm run build`)');
      for (const file of shipped(prod)) assert.equal(code(dist, file), code(prod, file), `dist/cli/${file}`);
    } finally {
      for (const d of [dev, prod]) rmSync(d, { recursive: true, force: true });
    }
  });

  it("an import() whose names its chunk does not export is a problem with its file and line; uses it cannot read are too", async () => {
    const outdir = tempDir('delegate-split-');
    const { metafile } = await build({
      absWorkingDir: REPO,
      entryPoints: ['test/fixtures/dynamic-imports/entry.ts'],
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      metafile: true,
      logLevel: 'silent',
    });
    const problems = dynamicImportProblems(metafile, REPO, 'test/fixtures/dynamic-imports/') as string[];
    assert.deepEqual(problems, [
      "test/fixtures/dynamic-imports/entry.ts:4 import('yaml') takes parseDocument, but its chunk exports only default",
      "test/fixtures/dynamic-imports/entry.ts:9 import('yaml') takes parse, but its chunk exports only default",
      "test/fixtures/dynamic-imports/entry.ts:18 import('./named'): cannot tell which of its exports it uses",
    ]);
  });

  it('the CommonJS rewrite fails loudly on a chunk without the banner or with an import it cannot map', async () => {
    const dir = tempDir('delegate-rewrite-');
    const banner = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";
    writeFileSync(join(dir, 'plain.mjs'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'plain.mjs.map'), '{"version":3,"sources":[],"mappings":""}');
    const chunks = new Map([['plain.mjs', { imports: [], entry: null }]]);
    await assert.rejects(toCommonJs(dir, 'plain.mjs', chunks, false), /cannot rewrite plain\.mjs as CommonJS: it does not start with the banner/);
    writeFileSync(join(dir, 'stray.mjs'), `${banner}import { b } from './elsewhere.mjs'; export const a = b;\n`);
    writeFileSync(join(dir, 'stray.mjs.map'), '{"version":3,"sources":[],"mappings":""}');
    chunks.set('stray.mjs', { imports: [], entry: null });
    await assert.rejects(toCommonJs(dir, 'stray.mjs', chunks, false), /cannot rewrite stray\.mjs as CommonJS: it requires \.\/elsewhere\.mjs, which is not a chunk of this build/);
  });
});
