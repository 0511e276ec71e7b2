/**
 * The proof that the tests of the built CLI load every chunk of it (a mocha root-hook plugin, .mocharc.json):
 *
 *   before all   DELEGATE_CHUNK_LOG=<tmp file>   each bin/delegate.js run (test/kit/run-cli.ts) appends the
 *                                                chunks it loaded (src/cli/start.ts)
 *   after all    when every test/cli file ran: each chunk in dist/cli/chunks.json must be in the log, else the
 *                hook fails naming the chunks (and the module each one holds) that no test loaded
 *
 * A chunk the rewrite broke (scripts/build-cli.mjs) fails the test that loads it; this makes sure there is one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Context, Suite } from 'mocha';

const REPO = join(__dirname, '..', '..');
const CLI_TESTS = join(REPO, 'test', 'cli');

/** Chunks no run of the CLI can load, with why (a stale entry fails the check too). */
export const NOT_LOADED_BY_DESIGN: Readonly<Record<string, string>> = {
  'node_modules/@anthropic-ai/sdk/internal/node.mjs':
    "the SDK's credential chain (config files, OAuth profiles) imports it, and the SDK enters that only without an explicit apiKey or authToken; Delegate always passes one (src/core/llm/anthropic-model.ts)",
};

interface ChunkManifest {
  chunks: { file: string; entry: string | null; imports: string[] }[];
}

/**
 * What the check finds: chunks no test loaded (with their module), and allow-list entries that match no chunk.
 * A chunk reached only through one of NOT_LOADED_BY_DESIGN is excused with it.
 */
export function uncoveredChunks(manifest: ChunkManifest, loaded: ReadonlySet<string>): { missing: string[]; stale: string[] } {
  const byFile = new Map(manifest.chunks.map((c) => [c.file, c]));
  const loadable = new Set<string>();
  const walk = (file: string) => {
    const chunk = byFile.get(file);
    if (!chunk || loadable.has(file) || (chunk.entry && chunk.entry in NOT_LOADED_BY_DESIGN)) return;
    loadable.add(file);
    chunk.imports.forEach(walk);
  };
  walk('main.cjs');
  const missing = manifest.chunks.filter((c) => loadable.has(c.file) && !loaded.has(c.file)).map((c) => (c.entry ? `${c.file} (${c.entry})` : c.file));
  const stale = Object.keys(NOT_LOADED_BY_DESIGN).filter((entry) => !manifest.chunks.some((c) => c.entry === entry));
  return { missing, stale };
}

function filesRun(suite: Suite): Set<string> {
  const files = new Set<string>();
  const walk = (s: Suite) => {
    if (s.file) files.add(s.file);
    s.suites.forEach(walk);
  };
  walk(suite);
  return files;
}

let log: string | undefined;

export const mochaHooks = {
  beforeAll(): void {
    log = join(mkdtempSync(join(tmpdir(), 'delegate-chunks-')), 'loaded.txt');
    process.env.DELEGATE_CHUNK_LOG = log;
  },
  afterAll(this: Context): void {
    if (!log) return;
    const loaded = new Set(existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    // Its own folder, before the kit's root afterAll (required after this file) looks for leftovers.
    rmSync(dirname(log), { recursive: true, force: true });
    const root = this.test?.parent;
    if (!root) return;
    const ran = filesRun(root);
    const cliTests = readdirSync(CLI_TESTS).filter((f) => f.endsWith('.test.ts')).map((f) => join(CLI_TESTS, f));
    // Only a run of the whole CLI suite can prove coverage (one file alone loads what it needs).
    if (!cliTests.every((f) => ran.has(f))) return;
    const manifest = JSON.parse(readFileSync(join(REPO, 'dist', 'cli', 'chunks.json'), 'utf8')) as ChunkManifest;
    const { missing, stale } = uncoveredChunks(manifest, loaded);
    const lines = [
      ...missing.map((m) => `no test of the built CLI loads the chunk ${m}: add one that uses what it holds`),
      ...stale.map((s) => `NOT_LOADED_BY_DESIGN names ${s}, which no chunk of the build holds any more: remove it`),
    ];
    if (lines.length) throw new Error(lines.join('\n'));
  },
};
