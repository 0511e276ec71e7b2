/**
 * What the CLI's start does and does not load (its speed is measured in `npm run bench`, not here): no undici
 * on the way to a request, no git before it, and the chunks' V8 code cache written once, then used, and rebuilt
 * when refused.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { tempDir } from '../kit/temp-dirs';
import { startHttpServer } from '../kit/mcp-servers';

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

  /** Runs with a preload that writes process.moduleLoadList at exit; the list. */
  async function loadedBy(more: Record<string, string> = {}, args: string[] = []): Promise<string> {
    const scratch = tempDir('delegate-start-');
    const report = join(scratch, 'modules.txt');
    const preload = join(scratch, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join('\\n')));`);
    cli.api.script(reply.text('done'));
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'json', ...args], { env: cli.env({ NODE_OPTIONS: `--require ${preload}`, ...more }) });
    assert.equal(r.code, 0, r.stderr);
    return readFileSync(report, 'utf8');
  }

  it('sets no V8 flag in a run that fetches nothing: node:v8 is never loaded (a flag set at run time voids the code cache Node embeds for its own modules; issue 30)', async () => {
    const loaded = await loadedBy();
    assert.match(loaded, /NativeModule http\b/, 'the report lists what was loaded');
    assert.doesNotMatch(loaded, /NativeModule v8\b/);
  });

  it('a run that hashes nothing loads no node:crypto: its session id, a version 4 UUID, comes from /dev/urandom (issue 30)', async () => {
    const scratch = tempDir('delegate-start-');
    const report = join(scratch, 'modules.txt');
    const preload = join(scratch, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join('\\n')));`);
    const r = await run({ NODE_OPTIONS: `--require ${preload}` });
    assert.match(String(lastJsonLine(r.stdout).session_id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const loaded = readFileSync(report, 'utf8');
    assert.match(loaded, /NativeModule http\b/, 'the report lists what was loaded');
    assert.doesNotMatch(loaded, /NativeModule crypto\b/);
  });

  it("reads a streamed reply without releasing a web stream's lock: Node 20 makes a second V8 context for the first release (issue 30)", async () => {
    const scratch = tempDir('delegate-start-');
    const log = join(scratch, 'contexts.txt');
    const preload = join(scratch, 'preload.cjs');
    // Node's cross-realm regular expression (internal/util getInternalGlobal) makes its context with vm.runInNewContext.
    writeFileSync(preload, `const vm = require('vm'); const made = vm.runInNewContext; vm.runInNewContext = function (...a) { require('fs').appendFileSync(${JSON.stringify(log)}, new Error().stack + '\\n'); return made.apply(this, a); };`);
    cli.api.script(reply.toolUse({ name: 'read_file', input: { path: 'a.txt' } }), reply.text('done'));
    writeFileSync(join(cli.dirs.workdir, 'a.txt'), 'a\n');
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env({ NODE_OPTIONS: `--require ${preload}` }) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJsonLine(r.stdout).result, 'done');
    assert.equal(existsSync(log) ? readFileSync(log, 'utf8') : '', '');
  });

  it('a fetch() (an MCP server over HTTP) turns WebAssembly tier-up off first, and that run writes no code cache other runs would refuse', async () => {
    const server = await startHttpServer('streamableHttp');
    try {
      const cacheHome = tempDir('delegate-cache-');
      const config = JSON.stringify({ mcpServers: { web: { type: 'http', url: server.url } } });
      const loaded = await loadedBy({ XDG_CACHE_HOME: cacheHome }, ['--mcp-config', config]);
      assert.match(loaded, /NativeModule v8\b/, 'node:v8 set the flags');
      assert.ok(cli.api.requests.some((r) => JSON.stringify(r.body).includes('mcp__web__')), "the server's tools were offered: its fetches worked");
      assert.deepEqual(readdirSync(cacheHome), []);
    } finally {
      await server.stop();
    }
  });

  /** A `git` first on PATH that logs each call (ms since the epoch, its arguments) and runs the real one. */
  function loggingGit(): { path: string; calls: () => { at: number; args: string }[] } {
    const dir = tempDir('delegate-git-');
    const log = join(dir, 'calls.log');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'git'), `#!/bin/sh\necho "$(date +%s%3N) $*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(dir, 'bin', 'git'), 0o755);
    const calls = () =>
      existsSync(log)
        ? readFileSync(log, 'utf8').trim().split('\n').map((line) => ({ at: Number(line.slice(0, line.indexOf(' '))), args: line.slice(line.indexOf(' ') + 1) }))
        : [];
    return { path: `${join(dir, 'bin')}:${process.env.PATH}`, calls };
  }

  it('runs no git in a folder outside any repository: the prune of dead worktrees knows there is none (issue 30)', async () => {
    const git = loggingGit();
    await run({ PATH: git.path });
    assert.deepEqual(git.calls(), []);
  });

  it('in a repository, the prune of dead worktrees runs git only after the first request went out (issue 30)', async () => {
    execFileSync('git', ['init', '-q'], { cwd: cli.dirs.workdir });
    const git = loggingGit();
    await run({ PATH: git.path });
    const first = cli.api.requests[0]?.receivedAt ?? 0;
    const calls = git.calls();
    assert.ok(calls.some((c) => /worktree|rev-parse/.test(c.args)), `the prune ran: ${JSON.stringify(calls)}`);
    for (const c of calls) assert.ok(c.at >= first, `git ${c.args} ran ${first - c.at} ms before the first request`);
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
