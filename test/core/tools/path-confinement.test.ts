// resolveInside: the one gate every file path of every tool goes through.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resolveInside } from '../../../src/core/tools/path-confinement';
import { tempDir } from '../../kit/temp-dirs';

describe('resolveInside', () => {
  let root: string;
  let ws: string;
  let outside: string;

  beforeEach(async () => {
    root = await fs.realpath(tempDir('delegate-conf-'));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    await fs.mkdir(path.join(ws, 'src'), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
    await fs.writeFile(path.join(ws, 'src', 'a.ts'), 'a');
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('resolves relative paths inside the workspace', async () => {
    assert.deepEqual(await resolveInside(ws, 'src/a.ts'), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
    assert.deepEqual(await resolveInside(ws, './src/../src/a.ts'), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
    assert.deepEqual(await resolveInside(ws, '.'), { ok: true, absPath: ws });
  });

  it('accepts not-yet-existing files and folders inside', async () => {
    assert.deepEqual(await resolveInside(ws, 'new/dir/file.txt'), { ok: true, absPath: path.join(ws, 'new', 'dir', 'file.txt') });
  });

  it('accepts absolute paths inside the workspace', async () => {
    assert.deepEqual(await resolveInside(ws, path.join(ws, 'src/a.ts')), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
  });

  it('accepts names that merely start with two dots', async () => {
    const r = await resolveInside(ws, '..foo');
    assert.deepEqual(r, { ok: true, absPath: path.join(ws, '..foo') });
  });

  it('refuses .. escapes with a reason naming where they lead', async () => {
    const r = await resolveInside(ws, '../outside/secret.txt');
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /path escapes the workspace: \.\.\/outside\/secret\.txt resolves to .*outside\/secret\.txt/);
    assert.equal((await resolveInside(ws, 'src/../../x')).ok, false);
    assert.equal((await resolveInside(ws, '..')).ok, false);
  });

  it('refuses absolute paths outside the workspace', async () => {
    const r = await resolveInside(ws, '/etc/passwd');
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /absolute path is outside the workspace: \/etc\/passwd/);
    // A sibling sharing the prefix is not inside.
    assert.equal((await resolveInside(ws, `${ws}-other/x`)).ok, false);
  });

  it('refuses ~ and ~user paths', async () => {
    for (const p of ['~', '~/x', '~root/.ssh/id_rsa']) {
      const r = await resolveInside(ws, p);
      assert.equal(r.ok, false, p);
      assert.match(!r.ok ? r.reason : '', /home-directory paths are not allowed/);
    }
  });

  it('refuses empty paths and NUL bytes', async () => {
    assert.equal((await resolveInside(ws, '')).ok, false);
    assert.equal((await resolveInside(ws, 'a\0b')).ok, false);
  });

  it('refuses a symlinked file that points outside', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
    const r = await resolveInside(ws, 'link.txt');
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /through a symlink: link\.txt resolves to .*outside\/secret\.txt/);
  });

  it('refuses a new file under a symlinked folder that points outside', async () => {
    await fs.symlink(outside, path.join(ws, 'linkdir'));
    assert.equal((await resolveInside(ws, 'linkdir/new.txt')).ok, false);
    assert.equal((await resolveInside(ws, 'linkdir/deeper/new.txt')).ok, false);
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling.txt'));
    assert.equal((await resolveInside(ws, 'dangling.txt')).ok, false);
  });

  it('refuses a relative symlink chain that ends outside', async () => {
    await fs.symlink('../outside', path.join(ws, 'rel'));
    await fs.symlink('rel', path.join(ws, 'rel2'));
    assert.equal((await resolveInside(ws, 'rel2/secret.txt')).ok, false);
  });

  it('follows symlinks that stay inside, returning the real target', async () => {
    await fs.symlink('src', path.join(ws, 'alias'));
    assert.deepEqual(await resolveInside(ws, 'alias/a.ts'), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
  });

  it('works when the workspace itself is reached through a symlink', async () => {
    const via = path.join(root, 'via');
    await fs.symlink(ws, via);
    assert.deepEqual(await resolveInside(via, 'src/a.ts'), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
    assert.deepEqual(await resolveInside(via, path.join(via, 'src/a.ts')), { ok: true, absPath: path.join(ws, 'src', 'a.ts') });
    assert.equal((await resolveInside(via, '../outside/secret.txt')).ok, false);
  });

  it('refuses symlink loops with a reason instead of throwing', async () => {
    await fs.symlink('loop-b', path.join(ws, 'loop-a'));
    await fs.symlink('loop-a', path.join(ws, 'loop-b'));
    const r = await resolveInside(ws, 'loop-a/x');
    assert.equal(r.ok, false);
  });
});
