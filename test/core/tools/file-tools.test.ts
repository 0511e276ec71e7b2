// read_file, write_file, edit_file and the node:fs FileOps they run on, against real temp folders.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createBaseTools } from '../../../src/core/tools/base-tools';
import { createEditFileTool } from '../../../src/core/tools/edit-file';
import { createNodeFileOps } from '../../../src/core/tools/node-file-ops';
import { createReadFileTool } from '../../../src/core/tools/read-file';
import type { Tool, ToolResult } from '../../../src/core/tools/types';
import { createWriteFileTool } from '../../../src/core/tools/write-file';
import { tempDir } from '../../kit/temp-dirs';

const ctx = { signal: new AbortController().signal, agentId: 'root', toolUseId: 'tu_1' };

/** Parses then executes, as the agent loop does; a parse failure comes back as an error result. */
async function call<I>(tool: Tool<I>, raw: unknown): Promise<ToolResult> {
  const parsed = tool.parse(raw);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  return tool.execute(parsed.input, ctx);
}

describe('file tools', () => {
  let root: string;
  let ws: string;
  let outside: string;
  const ops = createNodeFileOps();

  beforeEach(async () => {
    root = await fs.realpath(tempDir('delegate-files-'));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    await fs.mkdir(path.join(ws, 'src'), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  describe('node file ops', () => {
    it('writes atomically, creating parents, leaving no temp files, keeping the mode', async () => {
      const target = path.join(ws, 'a', 'b', 'c.sh');
      await ops.writeFileAtomic(target, '#!/bin/sh\n');
      assert.equal(await fs.readFile(target, 'utf8'), '#!/bin/sh\n');
      await fs.chmod(target, 0o755);
      await ops.writeFileAtomic(target, '#!/bin/sh\necho hi\n');
      assert.equal((await fs.stat(target)).mode & 0o777, 0o755);
      assert.deepEqual(await fs.readdir(path.dirname(target)), ['c.sh']);
      assert.equal(await ops.exists(target), true);
      assert.equal(await ops.exists(path.join(ws, 'nope')), false);
      assert.equal((await ops.readFile(target)).toString(), '#!/bin/sh\necho hi\n');
    });
  });

  describe('read_file', () => {
    const tool = (): Tool => createReadFileTool(ws, ops);

    it('reads a whole file, kind read', async () => {
      await fs.writeFile(path.join(ws, 'src/a.ts'), 'one\ntwo\nthree\n');
      const t = tool();
      assert.equal(t.kind, 'read');
      assert.deepEqual(t.describe({ path: 'src/a.ts' }).paths, ['src/a.ts']);
      assert.deepEqual(await call(t, { path: 'src/a.ts' }), { content: 'one\ntwo\nthree' });
    });

    it('windows with offset and limit and says how many lines remain', async () => {
      const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
      await fs.writeFile(path.join(ws, 'ten.txt'), lines.join('\n'));
      const r = await call(tool(), { path: 'ten.txt', offset: 3, limit: 2 });
      assert.equal(r.isError, undefined);
      assert.match(r.content, /^line 3\nline 4\n\[showed lines 3-4 of 10; 6 more lines, continue with offset=5\]$/);
      assert.deepEqual(await call(tool(), { path: 'ten.txt', offset: 9 }), { content: 'line 9\nline 10' });
      const past = await call(tool(), { path: 'ten.txt', offset: 11 });
      assert.equal(past.isError, true);
      assert.match(past.content, /offset 11 is past the end of ten\.txt \(10 lines\)/);
    });

    it('says when a file is empty', async () => {
      await fs.writeFile(path.join(ws, 'empty.txt'), '');
      assert.match((await call(tool(), { path: 'empty.txt' })).content, /empty/);
    });

    it('refuses binary files', async () => {
      await fs.writeFile(path.join(ws, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
      const r = await call(tool(), { path: 'img.png' });
      assert.equal(r.isError, true);
      assert.match(r.content, /img\.png looks like a binary file \(7 bytes\)/);
    });

    it('reports missing files and directories clearly', async () => {
      const missing = await call(tool(), { path: 'src/nope.ts' });
      assert.deepEqual(missing, { content: 'file not found: src/nope.ts', isError: true });
      const dir = await call(tool(), { path: 'src' });
      assert.equal(dir.isError, true);
      assert.match(dir.content, /src is a directory/);
    });

    it('rejects malformed input in parse', () => {
      const t = tool();
      for (const bad of [null, 'x', [], {}, { path: 3 }, { path: '' }, { path: 'a', offset: 0 }, { path: 'a', limit: 1.5 }, { path: 'a', limit: '2' }]) {
        const r = t.parse(bad);
        assert.equal(r.ok, false, JSON.stringify(bad));
      }
      assert.deepEqual(t.parse({ path: 'a', extra: true }), { ok: true, input: { path: 'a', offset: undefined, limit: undefined } });
    });

    it('refuses paths outside the workspace: .., absolute, ~, symlink', async () => {
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
      for (const p of ['../outside/secret.txt', path.join(outside, 'secret.txt'), '~/.bashrc', 'link.txt']) {
        const r = await call(tool(), { path: p });
        assert.equal(r.isError, true, p);
        assert.doesNotMatch(r.content, /top secret/);
      }
      assert.match((await call(tool(), { path: 'link.txt' })).content, /through a symlink/);
    });
  });

  describe('write_file', () => {
    const tool = (): Tool => createWriteFileTool(ws, ops);

    it('creates files with parent folders and reports bytes, kind write', async () => {
      const t = tool();
      assert.equal(t.kind, 'write');
      const r = await call(t, { path: 'deep/new/file.txt', content: 'héllo\n' });
      assert.deepEqual(r, { content: 'Created deep/new/file.txt (7 bytes written)' });
      assert.equal(await fs.readFile(path.join(ws, 'deep/new/file.txt'), 'utf8'), 'héllo\n');
    });

    it('overwrites existing files and accepts empty content', async () => {
      await fs.writeFile(path.join(ws, 'x.txt'), 'old');
      assert.deepEqual(await call(tool(), { path: 'x.txt', content: '' }), { content: 'Overwrote x.txt (0 bytes written)' });
      assert.equal(await fs.readFile(path.join(ws, 'x.txt'), 'utf8'), '');
    });

    it('rejects malformed input in parse', () => {
      for (const bad of [undefined, { path: 'a' }, { content: 'x' }, { path: 'a', content: 5 }]) assert.equal(tool().parse(bad).ok, false);
    });

    it('refuses writes outside, including through a linked folder', async () => {
      await fs.symlink(outside, path.join(ws, 'linkdir'));
      for (const p of ['../outside/evil.txt', '/tmp/delegate-evil.txt', '~/evil.txt', 'linkdir/evil.txt', 'linkdir/sub/evil.txt']) {
        const r = await call(tool(), { path: p, content: 'pwned' });
        assert.equal(r.isError, true, p);
      }
      assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
    });

    it('reports a directory target as an error', async () => {
      const r = await call(tool(), { path: 'src', content: 'x' });
      assert.equal(r.isError, true);
      assert.match(r.content, /src is a directory/);
    });
  });

  describe('edit_file', () => {
    const tool = (): Tool => createEditFileTool(ws, ops);
    const file = (): string => path.join(ws, 'src/a.ts');

    beforeEach(() => fs.writeFile(file(), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n'));

    it('replaces a unique snippet, kind write', async () => {
      const t = tool();
      assert.equal(t.kind, 'write');
      const r = await call(t, { path: 'src/a.ts', old_text: 'const b = 2;', new_text: 'const b = 3;\nconst c = 4;' });
      assert.equal(r.isError, undefined);
      assert.match(r.content, /Edited src\/a\.ts at line 2/);
      assert.equal(await fs.readFile(file(), 'utf8'), 'const a = 1;\nconst b = 3;\nconst c = 4;\nconst a2 = 1;\n');
    });

    it('inserts $-patterns literally', async () => {
      await call(tool(), { path: 'src/a.ts', old_text: 'const b = 2;', new_text: "const b = '$&$1';" });
      assert.match(await fs.readFile(file(), 'utf8'), /const b = '\$&\$1';/);
    });

    it('says when old_text is not found', async () => {
      const r = await call(tool(), { path: 'src/a.ts', old_text: 'const z = 9;', new_text: 'x' });
      assert.equal(r.isError, true);
      assert.match(r.content, /^old_text not found in src\/a\.ts/);
    });

    it('says how often old_text occurs when it is not unique', async () => {
      const r = await call(tool(), { path: 'src/a.ts', old_text: ' = 1;', new_text: ' = 5;' });
      assert.deepEqual(r, { content: 'old_text occurs 2 times in src/a.ts; include more surrounding lines to make it unique', isError: true });
      assert.equal(await fs.readFile(file(), 'utf8'), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    });

    it('refuses empty old_text and no-op edits', async () => {
      const empty = await call(tool(), { path: 'src/a.ts', old_text: '', new_text: 'x' });
      assert.equal(empty.isError, true);
      assert.match(empty.content, /old_text is empty/);
      const same = await call(tool(), { path: 'src/a.ts', old_text: 'const b = 2;', new_text: 'const b = 2;' });
      assert.equal(same.isError, true);
    });

    it('matches LF old_text against a CRLF file and keeps CRLF', async () => {
      await fs.writeFile(file(), 'one\r\ntwo\r\nthree\r\n');
      const r = await call(tool(), { path: 'src/a.ts', old_text: 'one\ntwo', new_text: 'uno\ndos' });
      assert.equal(r.isError, undefined, r.content);
      assert.equal(await fs.readFile(file(), 'utf8'), 'uno\r\ndos\r\nthree\r\n');
    });

    it('reports a missing file pointing at write_file, and refuses binary files', async () => {
      const r = await call(tool(), { path: 'src/missing.ts', old_text: 'a', new_text: 'b' });
      assert.equal(r.isError, true);
      assert.match(r.content, /file not found: src\/missing\.ts \(use write_file to create it\)/);
      await fs.writeFile(path.join(ws, 'bin.dat'), Buffer.from([1, 0, 2]));
      assert.match((await call(tool(), { path: 'bin.dat', old_text: 'a', new_text: 'b' })).content, /binary/);
    });

    it('rejects malformed input in parse', () => {
      for (const bad of [{ path: 'a', old_text: 'x' }, { path: 'a', new_text: 'x' }, { old_text: 'a', new_text: 'b' }, { path: 'a', old_text: 1, new_text: 'b' }]) {
        assert.equal(tool().parse(bad).ok, false, JSON.stringify(bad));
      }
    });

    it('refuses edits through a symlink that points outside', async () => {
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
      const r = await call(tool(), { path: 'link.txt', old_text: 'top', new_text: 'no' });
      assert.equal(r.isError, true);
      assert.equal(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
    });
  });

  it('createBaseTools returns the six tools in order', () => {
    const reg = createBaseTools(ws, { defaultTimeoutMs: 1000, maxTimeoutMs: 2000, maxOutputChars: 1000 });
    assert.deepEqual(reg.names(), ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
    assert.deepEqual(
      reg.schemas().map((s) => s.input_schema.required),
      [['command'], ['path'], ['path', 'content'], ['path', 'old_text', 'new_text'], ['pattern'], ['pattern']],
    );
  });
});
