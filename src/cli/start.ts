/**
 * The CLI's first module (bin/delegate.js requires dist/cli/start.cjs): loads the bundle's chunks, which the
 * build turned into CommonJS (scripts/build.mjs), through `vm.Script` with V8's code cache.
 *
 *   start ──▶ loadChunk(main.cjs) ──require('./run-….cjs')──▶ loadChunk(…)     one instance per chunk
 *               │ cached data from <cache>/delegate/code-cache/<node>-<arch>/<build>/<chunk>.v8
 *               ▼
 *   process 'exit' ──▶ for each chunk that had no cache (or V8 refused it): write one, with the functions
 *                      this run compiled in it (unless a fetch() changed V8's flags: see below)
 *
 * Why: compiling the chunks was ~35 ms of the CPU before the first request; with the cache V8 skips it
 * (Node 20 has no compile cache of its own, and ESM modules cannot be given cached data). V8 refuses data
 * made by another V8 or under other flags, and a build gets its own folder, keyed by the entry's size and
 * time; the four newest build folders are kept. DELEGATE_CODE_CACHE=0 turns it off.
 *
 * DELEGATE_CHUNK_LOG=FILE appends each chunk's name to FILE as it loads: the tests of the built CLI prove with it
 * that every chunk of the build is loaded by one of them (test/kit/chunk-coverage.ts).
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Node's fetch (undici) parses HTTP with a WebAssembly module that V8 recompiles in the background: ~300 ms of CPU
 * and ~25 MiB of peak RSS for a short run, and exit waits for it. The baseline tier is enough, so V8's tier-up is
 * turned off on the first fetch(): the CLI's own requests go over node:http (core/llm/http-fetch.ts); an MCP server
 * over HTTP fetches. Not at the start: a V8 flag set at run time invalidates the code cache Node embeds for its own
 * modules, and http, net, child_process, fs/promises and crypto were then compiled from source before the first
 * request (~15 ms of its CPU; docs/benchmarks.md, issue 30).
 */
let flagsChanged = false;
const platformFetch = globalThis.fetch;
globalThis.fetch = function fetch(input, init) {
  if (!flagsChanged) {
    flagsChanged = true;
    const { setFlagsFromString } = createRequire(__filename)('node:v8') as typeof import('node:v8');
    setFlagsFromString('--no-wasm-tier-up');
    setFlagsFromString('--no-wasm-dynamic-tiering');
  }
  return platformFetch(input, init);
};

type ModuleFunction = (exports: unknown, require: (id: string) => unknown, module: { exports: unknown }, filename: string, dirname: string) => void;

const KEEP_BUILDS = 4;
const CHUNK_LOG = process.env.DELEGATE_CHUNK_LOG;
const modules = new Map<string, { exports: unknown }>();
const toWrite: { script: Script; file: string }[] = [];

function cacheFolder(entry: string): string | undefined {
  if (process.env.DELEGATE_CODE_CACHE === '0') return undefined;
  try {
    const { size, mtimeMs } = statSync(entry);
    const root = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'delegate', 'code-cache', `${process.version}-${process.arch}`);
    return join(root, `${size}-${Math.trunc(mtimeMs)}`);
  } catch {
    return undefined;
  }
}

const ENTRY = join(__dirname, 'main.cjs');
const folder = cacheFolder(ENTRY);
const cacheFile = (file: string): string | undefined => folder && join(folder, `${file.slice(dirname(file).length + 1)}.v8`);

/** Evaluates one chunk (once: later requires get the same exports), with its code cache when there is one. */
function loadChunk(file: string): unknown {
  const known = modules.get(file);
  if (known) return known.exports;
  const source = readFileSync(file, 'utf8');
  if (CHUNK_LOG) appendFileSync(CHUNK_LOG, `${file.slice(dirname(file).length + 1)}\n`);
  const cachePath = cacheFile(file);
  let cachedData: Buffer | undefined;
  try {
    if (cachePath) cachedData = readFileSync(cachePath);
  } catch {
    // No cache yet: this run compiles and writes one.
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (cachePath && (!cachedData || script.cachedDataRejected)) toWrite.push({ script, file: cachePath });
  const module = { exports: {} as unknown };
  modules.set(file, module);
  const run = script.runInThisContext() as ModuleFunction;
  run.call(module.exports, module.exports, requireFrom(file), module, file, dirname(file));
  return module.exports;
}

/** `require` inside a chunk: sibling chunks through loadChunk, everything else (Node's modules, ripgrep) as usual. */
function requireFrom(file: string): (id: string) => unknown {
  const nodeRequire = createRequire(file);
  return (id) => (id.startsWith('./') && id.endsWith('.cjs') ? loadChunk(join(dirname(file), id)) : nodeRequire(id));
}

/** At exit, after the run compiled what it used: the caches that were missing, then old builds' folders removed. */
function writeCaches(): void {
  // Data made under changed flags (a fetch ran) would be refused by every run that fetches nothing: not written.
  if (!folder || toWrite.length === 0 || flagsChanged) return;
  try {
    mkdirSync(folder, { recursive: true });
    for (const { script, file } of toWrite) {
      // Written whole, then renamed: a process starting meanwhile reads the old file or the new one.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, file);
    }
    const root = dirname(folder);
    const builds = readdirSync(root)
      .map((name) => ({ name, at: statSync(join(root, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of builds.slice(KEEP_BUILDS)) rmSync(join(root, old.name), { recursive: true, force: true });
  } catch {
    // A cache that cannot be written (read-only home, full disk) only costs the next start its compile time.
  }
}

process.on('exit', writeCaches);
loadChunk(ENTRY);
