/**
 * The worktree and landing modules on hostile and awkward repositories (the CLI suite, test/cli/isolation.test.ts,
 * covers the ordinary path): a repository whose hooks and filters would run commands, submodules, a deletion
 * against a change, binary files, and revert being the exact inverse of a landing; a resolver's seeded worktree.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorktree, finishWorktree, IsolationError } from '../../../src/core/isolation/worktree';
import { landChildren, seedConflicts, type LandingChild } from '../../../src/core/isolation/landing';
import { tempDir } from '../../kit/temp-dirs';

function repo(): { dir: string; under: string; git: (...a: string[]) => string } {
  const root = tempDir('delegate-iso-');
  const dir = join(root, 'repo');
  mkdirSync(dir);
  const git = (...a: string[]): string => execFileSync('git', a, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 3]));
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  return { dir, under: join(root, 'session', 'worktrees'), git };
}

/** A child that ran `edit` in its worktree, kept. */
async function child(r: ReturnType<typeof repo>, id: string, edit: (dir: string) => void): Promise<LandingChild> {
  const wt = await createWorktree(r.dir, r.under, id);
  edit(wt.dir);
  const kept = await finishWorktree(wt, { branch: `t/${id}`, patch: join(r.under, `${id}.patch`), message: id });
  assert.ok(kept, `${id} changed something`);
  return { agentId: id, snapshot: kept.snapshot, commit: kept.commit };
}

describe('isolation: worktrees and landing', function () {
  this.timeout(30_000);

  it("runs none of the repository's hooks or filter drivers (post-checkout, pre-commit, smudge, clean)", async () => {
    const r = repo();
    const marker = join(r.under, '..', 'ran');
    const script = join(r.dir, '..', 'evil.sh');
    writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\ncat\n`);
    chmodSync(script, 0o755);
    mkdirSync(join(r.dir, '.git', 'hooks'), { recursive: true });
    for (const hook of ['post-checkout', 'pre-commit', 'post-commit']) {
      writeFileSync(join(r.dir, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${JSON.stringify(marker)}\n`);
      chmodSync(join(r.dir, '.git', 'hooks', hook), 0o755);
    }
    r.git('config', 'filter.evil.smudge', script);
    r.git('config', 'filter.evil.clean', script);
    writeFileSync(join(r.dir, '.gitattributes'), '*.txt filter=evil\n');
    const c = await child(r, 'c1', (dir) => writeFileSync(join(dir, 'a.txt'), 'changed\n'));
    assert.equal(existsSync(marker), false, existsSync(marker) ? readFileSync(marker, 'utf8') : '');
    assert.equal(r.git('show', `${c.commit}:a.txt`), 'changed\n');
  });

  it('refuses a repository with submodules, and a folder that is not one, with one line each', async () => {
    const r = repo();
    writeFileSync(join(r.dir, '.gitmodules'), '[submodule "x"]\n\tpath = x\n\turl = ../x\n');
    await assert.rejects(createWorktree(r.dir, r.under, 'c'), (err: Error) => err instanceof IsolationError && /submodules/.test(err.message) && !err.message.includes('\n'));
    const plain = tempDir('delegate-iso-plain-');
    await assert.rejects(createWorktree(plain, join(plain, '..', 'wt'), 'c'), (err: Error) => err instanceof IsolationError && /is not in a git repository$/.test(err.message));
    assert.equal(existsSync(join(r.under, 'c')), false, 'nothing half made is left');
  });

  it('lands clean children, and a deletion against a change or a binary changed on both sides is a conflict that writes nothing', async () => {
    const r = repo();
    const del = await child(r, 'del', (dir) => rmSync(join(dir, 'a.txt')));
    const bin = await child(r, 'bin', (dir) => writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 9])));
    const add = await child(r, 'add', (dir) => writeFileSync(join(dir, 'new.txt'), 'new\n'));
    // Meanwhile the user changes both files in the parent's tree.
    writeFileSync(join(r.dir, 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(r.dir, 'bin.dat'), Buffer.from([0, 7]));
    const report = await landChildren([del, bin, add], { workdir: r.dir, scratch: r.under });
    assert.deepEqual(
      report.outcomes.map((o) => [o.agentId, o.outcome, o.conflicts?.map((c) => `${c.path} with ${c.with.join(',')}`)]),
      [
        ['del', 'conflict', ["a.txt with the parent's tree"]],
        ['bin', 'conflict', ["bin.dat with the parent's tree"]],
        ['add', 'landed', undefined],
      ],
    );
    assert.equal(readFileSync(join(r.dir, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n', 'the conflicting deletion wrote nothing');
    assert.deepEqual([...readFileSync(join(r.dir, 'bin.dat'))], [0, 7]);
    assert.equal(readFileSync(join(r.dir, 'new.txt'), 'utf8'), 'new\n');
  });

  it('never writes through a symbolic link in the tree: a conflict, its target untouched', async () => {
    const r = repo();
    const outside = join(r.under, '..', 'outside.txt');
    mkdirSync(join(r.under, '..'), { recursive: true });
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, join(r.dir, 'link.txt'));
    r.git('add', 'link.txt');
    r.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'link');
    const c = await child(r, 'c', (dir) => {
      rmSync(join(dir, 'link.txt'));
      writeFileSync(join(dir, 'link.txt'), 'overwritten\n');
    });
    const report = await landChildren([c], { workdir: r.dir, scratch: r.under });
    assert.equal(report.outcomes[0]?.outcome, 'conflict');
    assert.deepEqual(report.outcomes[0]?.conflicts?.[0]?.with, ['a symbolic link in the tree']);
    assert.equal(readFileSync(outside, 'utf8'), 'secret\n');
  });

  it('merges changes to different lines of one file (3-way), and reverting a landed child is exactly its inverse', async () => {
    const r = repo();
    const c = await child(r, 'c', (dir) => writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nTHREE\n'));
    writeFileSync(join(r.dir, 'a.txt'), 'ONE\ntwo\nthree\n');
    const landed = await landChildren([c], { workdir: r.dir, scratch: r.under });
    assert.equal(landed.outcomes[0]?.outcome, 'landed');
    assert.equal(readFileSync(join(r.dir, 'a.txt'), 'utf8'), 'ONE\ntwo\nTHREE\n');
    const reverted = await landChildren([c], { workdir: r.dir, scratch: r.under, revert: true });
    assert.equal(reverted.outcomes[0]?.outcome, 'reverted');
    assert.equal(readFileSync(join(r.dir, 'a.txt'), 'utf8'), 'ONE\ntwo\nthree\n', "the user's own change stays");
  });

  it("seeds a resolver's worktree: text conflicts as diff3 markers, a deletion against a change as the tree's side; a marker left lands nothing", async () => {
    const r = repo();
    const a = await child(r, 'a', (dir) => {
      writeFileSync(join(dir, 'a.txt'), 'ONE\ntwo\nthree\n');
      rmSync(join(dir, 'bin.dat'));
    });
    const b = await child(r, 'b', (dir) => {
      writeFileSync(join(dir, 'a.txt'), 'uno\ntwo\nthree\n');
      writeFileSync(join(dir, 'bin.dat'), Buffer.from([9, 9]));
    });
    const landed = await landChildren([a, b], { workdir: r.dir, scratch: r.under });
    assert.deepEqual(landed.outcomes.map((o) => o.outcome), ['landed', 'conflict']);
    const wt = await createWorktree(r.dir, r.under, 'resolver');
    const seeded = await seedConflicts(wt.dir, wt.repo, b);
    assert.deepEqual(seeded, { marked: ['a.txt'], whole: ['bin.dat'] });
    assert.equal(readFileSync(join(wt.dir, 'a.txt'), 'utf8'), '<<<<<<< parent\nONE\n||||||| base\none\n=======\nuno\n>>>>>>> subagent\ntwo\nthree\n');
    assert.equal(existsSync(join(wt.dir, 'bin.dat')), false, "the tree's side (deleted) is kept");
    // The resolver settles nothing: its changes hold the markers, and landing them is refused.
    const lazy = await finishWorktree(wt, { branch: 't/resolver', patch: join(r.under, 'resolver.patch'), message: 'resolver' });
    assert.ok(lazy);
    const refused = await landChildren([{ agentId: 'resolver', snapshot: lazy.snapshot, commit: lazy.commit, resolver: true }], { workdir: r.dir, scratch: r.under });
    assert.equal(refused.outcomes[0]?.outcome, 'conflict');
    assert.deepEqual(refused.outcomes[0]?.conflicts?.[0], { path: 'a.txt', hunks: [{ line: 1, lines: 1 }], with: ['a conflict marker the resolver left'] });
    assert.equal(readFileSync(join(r.dir, 'a.txt'), 'utf8'), 'ONE\ntwo\nthree\n');
  });
});
