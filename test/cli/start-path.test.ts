/**
 * What the CLI's start does and does not load (its speed is measured in `npm run bench`, not here): no undici
 * on the way to a request, and the chunks' V8 code cache written once, then used, and rebuilt when refused.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { tempDir } from '../kit/temp-dirs';

describe('the CLI start path', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  const run = async (more: Record<string, string> = {}) => {
    cli.api.script(reply.text('done'));
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env(more) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJsonLine(r.stdout).result, 'done');
    return r;
  };


  it('sends its requests without loading undici (Node 20 loads it on the first touch of fetch or Headers)', async () => {
    const scratch = tempDir('delegate-start-');
    const report = join(scratch, 'modules.txt');
    const preload = join(scratch, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join('\\n')));`);
    await run({ NODE_OPTIONS: `--require ${preload}` });
    const loaded = readFileSync(report, 'utf8');
    assert.match(loaded, /NativeModule http\b/, 'the report lists what was loaded');
    assert.doesNotMatch(loaded, /undici/);
  });

  it('a run without subagents or web pages loads neither the report checker nor node:dns/promises (issue 30)', async () => {
    const scratch = tempDir('delegate-start-');
    const report = join(scratch, 'modules.txt');
    const chunks = join(scratch, 'chunks.txt');
    const preload = join(scratch, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join('\\n')));`);
    await run({ NODE_OPTIONS: `--require ${preload}`, DELEGATE_CHUNK_LOG: chunks });
    const loaded = readFileSync(report, 'utf8');
    assert.match(loaded, /NativeModule http\b/, 'the report lists what was loaded');
    assert.doesNotMatch(loaded, /NativeModule (internal\/)?dns\/promises/, 'node:dns/promises builds its resolver (reads /etc/resolv.conf) when loaded');
    assert.doesNotMatch(readFileSync(chunks, 'utf8'), /child-report|report-guard/);
  });

  it('writes a code cache per chunk on the first run, uses it on the next, and replaces one V8 refuses', async () => {
    const cacheHome = tempDir('delegate-cache-');
    await run({ XDG_CACHE_HOME: cacheHome });
    const root = join(cacheHome, 'delegate', 'code-cache', `${process.version}-${process.arch}`);
    const [build, ...others] = readdirSync(root);
    assert.ok(build !== undefined && others.length === 0, 'one folder for this build');
    const folder = join(root, build);
    const files = readdirSync(folder);
    assert.ok(files.includes('main.cjs.v8'), files.join(', '));
    const runChunk = files.find((f) => /^run-.*\.cjs\.v8$/.test(f));
    assert.ok(runChunk, files.join(', '));
    const before = statSync(join(folder, runChunk)).mtimeMs;

    await run({ XDG_CACHE_HOME: cacheHome });
    assert.equal(statSync(join(folder, runChunk)).mtimeMs, before, 'a cache V8 accepted is not written again');

    writeFileSync(join(folder, runChunk), 'not a code cache');
    await run({ XDG_CACHE_HOME: cacheHome });
    assert.ok(readFileSync(join(folder, runChunk)).length > 1000, 'the refused cache was replaced');
  });

  it('writes nothing with DELEGATE_CODE_CACHE=0', async () => {
    const cacheHome = tempDir('delegate-cache-');
    await run({ XDG_CACHE_HOME: cacheHome, DELEGATE_CODE_CACHE: '0' });
    assert.deepEqual(readdirSync(cacheHome), []);
  });
});
