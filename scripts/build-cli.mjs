// The CLI's build: esbuild's split ESM bundle, each chunk turned into CommonJS for src/cli/start.ts (which gives
// V8's code cache to scripts only: Node 20 has no compile cache, and ESM modules cannot be given cached data).
//
//   src/cli/main.ts ──esbuild (split ESM, metafile)──▶ *.mjs ──checks──▶ esbuild transform (cjs) ──▶ *.cjs
//                                                                │
//                       chunks no chunk imports: dropped ◀───────┤  (targets of tree-shaken import() calls)
//                 each import() in src/: the names it takes ─────┘  must be exports of its chunk, or the build fails
//
// Dev and production builds are the same code: both make source maps (so the chunks' hashed names agree);
// production drops the maps and their comment. A test (test/scripts/cli-build.test.ts) holds them to it.
import { build, transform } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dynamicImportProblems } from './cli-chunk-checks.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

// The SDK's modules get `Headers`, `FormData` and `Response` from src/core/llm/sdk-web-globals.ts rather than from
// Node's globals, each of which loads undici on first touch (~40 ms of CPU before the first request; the SDK's
// fetch is src/core/llm/http-fetch.ts). Imported on the file's first line, so its line numbers stay as they were.
const webGlobals = join(REPO, 'src/core/llm/sdk-web-globals.ts');
const sdkWebGlobals = {
  name: 'sdk-web-globals',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/].*\.mjs$/ }, ({ path }) => {
      let source = readFileSync(path, 'utf8');
      const names = ['Headers', 'FormData', 'Response'];
      // client.mjs asks `body instanceof globalThis.ReadableStream` of every request body: touching that global
      // loads Node's web streams (~1 ms before the first request; the response's body needs them only later).
      if (/[\\/]sdk[\\/]client\.mjs$/.test(path)) {
        if (!source.includes('globalThis.ReadableStream')) throw new Error('build-cli: @anthropic-ai/sdk/client.mjs no longer reads globalThis.ReadableStream: check sdk-web-globals.ts');
        source = source.replaceAll('globalThis.ReadableStream', 'ReadableStream');
        names.push('ReadableStream');
      }
      return { contents: `import { ${names.join(', ')} } from ${JSON.stringify(webGlobals)};${source}`, loader: 'js', resolveDir: dirname(path) };
    });
  },
};

const ESM_BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";
const MAP_COMMENT = /\/\/# sourceMappingURL=.*\s*$/;

/**
 * Builds dist/cli (or `outdir`): the chunks as CommonJS, start.cjs, and chunks.json (each chunk's file, the chunks
 * it imports, and the module a dynamic import of it loads: for the tests that prove every chunk is loaded). Throws on anything the
 * rewrite cannot vouch for.
 */
export async function buildCli({ outdir = join(REPO, 'dist/cli'), production = false } = {}) {
  // Split chunks have hashed names: clear old ones so they don't pile up.
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: REPO,
    entryPoints: { main: 'src/cli/main.ts' },
    plugins: [sdkWebGlobals],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    // Always minified: less to parse on every start (the source map keeps stack traces readable).
    minify: true,
    define: { DELEGATE_VERSION: JSON.stringify(pkg.version) },
    // Its binary sits beside its own files: resolved from node_modules at run time.
    external: ['@vscode/ripgrep'],
    // CommonJS dependencies (the SDK) call require() for Node built-ins; ESM output needs a real one.
    banner: { js: ESM_BANNER },
    metafile: true,
    logLevel: 'warning',
  });
  const problems = dynamicImportProblems(metafile, REPO);
  if (problems.length) throw new Error(`build-cli: dynamic imports the bundle cannot serve:\n  ${problems.join('\n  ')}`);
  const chunks = chunkGraph(metafile);
  const reachable = reachableFrom('main.mjs', chunks);
  const dropped = [...chunks.keys()].filter((name) => !reachable.has(name));
  for (const name of dropped) {
    rmSync(join(outdir, name));
    rmSync(join(outdir, `${name}.map`), { force: true });
  }
  const names = [...reachable];
  for (const name of names) await toCommonJs(outdir, name, chunks, production);
  writeFileSync(
    join(outdir, 'chunks.json'),
    `${JSON.stringify(
      {
        chunks: names.map((n) => ({ file: cjs(n), entry: chunks.get(n).entry, imports: chunks.get(n).imports.map((i) => cjs(i.name)) })),
        dropped: dropped.map((n) => ({ file: n, entry: chunks.get(n).entry, why: 'no chunk imports it (its import() was tree-shaken)' })),
      },
      null,
      2,
    )}\n`,
  );
  // The start module (not a chunk): V8 flags, then the chunks through vm.Script with V8's code cache.
  await build({
    absWorkingDir: REPO,
    entryPoints: ['src/cli/start.ts'],
    outfile: join(outdir, 'start.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  return { chunks: names.map(cjs), dropped };
}

const cjs = (name) => name.replace(/\.mjs$/, '.cjs');

/** Output chunks by file name: the chunks each imports (static or dynamic) and, for an import() target, its module. */
function chunkGraph(metafile) {
  const graph = new Map();
  for (const [path, out] of Object.entries(metafile.outputs)) {
    if (!path.endsWith('.mjs')) continue;
    const imports = out.imports.filter((i) => !i.external && i.path.endsWith('.mjs')).map((i) => ({ name: basename(i.path), kind: i.kind }));
    // node_modules may be a symlink (../main/node_modules/…): named from node_modules on.
    const entry = out.entryPoint ? out.entryPoint.replace(/^.*?node_modules\//, 'node_modules/') : null;
    graph.set(basename(path), { imports, entry });
  }
  return graph;
}

function reachableFrom(start, graph) {
  const seen = new Set();
  const walk = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const i of graph.get(name)?.imports ?? []) walk(i.name);
  };
  walk(start);
  return seen;
}

/**
 * One chunk rewritten as a CommonJS module (imports become require() of ./….cjs, import() a require in a promise)
 * by esbuild's own transform; the source maps are chained through, so they still point at src/. What is ours —
 * the banner removed, the chunk paths renamed — is checked against the metafile: any surprise fails the build.
 */
export async function toCommonJs(dir, name, chunks, production) {
  const path = join(dir, name);
  const fail = (why) => {
    throw new Error(`build-cli: cannot rewrite ${name} as CommonJS: ${why}`);
  };
  const esm = readFileSync(path, 'utf8');
  // The ESM banner's require() comes from the CommonJS wrapper now.
  if (!esm.startsWith(ESM_BANNER)) fail('it does not start with the banner that defines require()');
  let code = esm.slice(ESM_BANNER.length).replace(MAP_COMMENT, '');
  code += `//# sourceMappingURL=data:application/json;base64,${readFileSync(`${path}.map`).toString('base64')}\n`;
  const out = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    minify: true,
    sourcemap: 'external',
    // Not `.mjs`: from an .mjs file esbuild converts import() in Node's mode, `__toESM(require(…), 1)`, which
    // ignores the chunk's __esModule mark, so `(await import('./turndown….mjs')).default` was the chunk's whole
    // exports object instead of its default ("r is not a constructor"). Every chunk is ESM turned CommonJS:
    // its mark is right. (The names in the source map come from the chained map, not from this.)
    sourcefile: name.replace(/\.mjs$/, '.js'),
    logLevel: 'silent',
  });
  if (out.warnings.length) fail(out.warnings.map((w) => w.text).join('; '));
  // Chunk names are esbuild's [name]-[hash]: no other string in the code looks like one.
  const required = new Set();
  const rewritten = out.code.replace(/require\("\.\/([\w.-]+\.mjs)"\)/g, (m, file) => {
    if (!chunks.has(file)) fail(`it requires ./${file}, which is not a chunk of this build`);
    required.add(file);
    return `require("./${cjs(file)}")`;
  });
  for (const { name: wanted } of chunks.get(name).imports) if (!required.has(wanted)) fail(`its import of ${wanted} did not become a require()`);
  const leftover = /\bimport\.meta\b|require\("\.\/[^"]*\.mjs"\)/.exec(rewritten);
  if (leftover) fail(`"${leftover[0]}" is left in the CommonJS code`);
  // A chunk wrapped in Node's mode (see `sourcefile` above) would lose its default export again.
  const nodeMode = /\(require\("\.\/[\w.-]+\.cjs"\),1\)/.exec(rewritten);
  if (nodeMode) fail(`an import() of a chunk was converted in Node's mode (${nodeMode[0]}): its default export would be wrong`);
  const cjsName = cjs(name);
  writeFileSync(join(dir, cjsName), production ? rewritten : `${rewritten}//# sourceMappingURL=${cjsName}.map\n`);
  if (!production) writeFileSync(join(dir, `${cjsName}.map`), out.map);
  rmSync(path);
  rmSync(`${path}.map`, { force: true });
}

/** Every chunk file of a built dist/cli (start.cjs is the loader, not a chunk). */
export function chunkFiles(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.cjs') && f !== 'start.cjs').sort();
}
