// glob: .gitignore (nested too), node_modules/.git never listed, escapes refused, output capped.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createGlobTool } from '../../../src/core/tools/glob';
import { defaultRipgrepPath } from '../../../src/core/tools/ripgrep';
import { tempDir } from '../../kit/temp-dirs';

const ctx = { signal: new AbortController().signal, agentId: 'root', toolUseId: 'tu_1' };

async function touch(root: string, rel: string, content = ''): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), content);
}

describe('glob tool', () => {
  let root: string;
  let ws: string;

  beforeEach(async () => {
    root = await fs.realpath(tempDir('delegate-glob-'));
    ws = path.join(root, 'ws');
    for (const f of ['src/a.ts', 'src/b.ts', 'src/sub/c.ts', 'README.md', '.env', 'dist/out.js', 'debug.log', 'pkg/ok.txt', 'pkg/secret.txt', 'node_modules/m/index.js', '.git/config', 'src/.hidden.ts']) {
      await touch(ws, f);
    }
    await touch(ws, '.gitignore', 'dist/\n*.log\n');
    await touch(ws, 'pkg/.gitignore', 'secret.txt\n');
    await touch(root, 'outside/leak.txt');
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const run = async (pattern: unknown) => {
    const tool = createGlobTool(ws, defaultRipgrepPath());
    const parsed = tool.parse({ pattern });
    if (!parsed.ok) return { content: parsed.error, isError: true };
    return tool.execute(parsed.input, ctx);
  };

  it('lists matches sorted, relative, one per line; kind read', async () => {
    assert.equal(createGlobTool(ws, defaultRipgrepPath()).kind, 'read');
    assert.deepEqual(await run('src/**/*.ts'), { content: 'src/a.ts\nsrc/b.ts\nsrc/sub/c.ts' });
  });

  it('a name holding a newline is one entry, quoted as git quotes it (C escapes)', async () => {
    await touch(ws, 'src/a\nb.ts');
    await touch(ws, 'src/back\\slash.ts');
    assert.equal((await run('src/*.ts')).content, '"src/a\\nb.ts"\nsrc/a.ts\nsrc/b.ts\n"src/back\\\\slash.ts"');
  });

  it('honours the root and nested .gitignore, and hides dotfiles unless named', async () => {
    const all = (await run('**/*')).content.split('\n');
    assert.deepEqual(all, ['README.md', 'pkg/ok.txt', 'src/a.ts', 'src/b.ts', 'src/sub/c.ts']);
    assert.equal((await run('**/.env')).content, '.env');
  });

  it('never lists node_modules or .git, even when asked', async () => {
    for (const p of ['node_modules/**', '**/node_modules/**/*.js', '.git/**', '**/.git/*']) {
      assert.match((await run(p)).content, /^No files match/, p);
    }
  });

  it('says when nothing matches', async () => {
    assert.deepEqual(await run('**/*.rs'), { content: 'No files match **/*.rs' });
  });

  it('refuses patterns that escape the workspace', async () => {
    for (const p of ['../outside/*', '/etc/*', '~/x', 'src/../../outside/*', '{..,src}/*', '!../x']) {
      const r = await run(p);
      assert.equal(r.isError, true, p);
      assert.doesNotMatch(r.content, /leak/);
    }
    // Dots inside a name are fine.
    assert.equal((await run('src/..foo')).isError, undefined);
  });

  it('does not list through a symlinked folder that leads outside', async () => {
    await fs.symlink(path.join(root, 'outside'), path.join(ws, 'linked'));
    assert.doesNotMatch((await run('**/*')).content, /leak/);
    assert.match((await run('linked/**')).content, /^No files match/);
  });

  it('rejects malformed input in parse', () => {
    const tool = createGlobTool(ws, defaultRipgrepPath());
    for (const bad of [null, {}, { pattern: 1 }, { pattern: '  ' }]) assert.equal(tool.parse(bad).ok, false);
  });

  it('caps the listing at 1000 entries and says how many more there are', async () => {
    await fs.mkdir(path.join(ws, 'many'));
    await Promise.all(Array.from({ length: 1005 }, (_, i) => fs.writeFile(path.join(ws, 'many', `f${String(i).padStart(4, '0')}.txt`), '')));
    const lines = (await run('many/*.txt')).content.split('\n');
    assert.equal(lines.length, 1001);
    assert.equal(lines[0], 'many/f0000.txt');
    assert.equal(lines[1000], '[5 more files not shown; use a narrower pattern]');
  });
});
