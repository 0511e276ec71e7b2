// AGENTS.md / CLAUDE.md in every agent's system prompt: which files, imports and their bounds, the cap.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importPaths } from '../../../src/core/instructions/instruction-imports';
import { loadProjectInstructions, MAX_INSTRUCTION_CHARS } from '../../../src/core/instructions/project-instructions';
import { ScriptedModel } from '../../kit/scripted-model';
import { fixtureRepo, openFixtureSession } from '../../kit/hooks-fixture';
import { isChild } from '../../kit/is-child';
import { tempDir } from '../../kit/temp-dirs';

const go = (): AbortSignal => new AbortController().signal;

function tree(files: Record<string, string>): { workdir: string; home: string } {
  const root = tempDir('delegate-instr-');
  const dirs = { workdir: join(root, 'ws'), home: join(root, 'home') };
  mkdirSync(dirs.workdir);
  mkdirSync(dirs.home);
  for (const [name, text] of Object.entries(files)) {
    const file = name.startsWith('~/') ? join(dirs.home, name.slice(2)) : name.startsWith('../') ? join(root, name.slice(3)) : join(dirs.workdir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dirs;
}

describe('project instructions', function () {
  this.timeout(20_000);

  it('AGENTS.md, CLAUDE.md and its import reach the parent and every subagent; the panel is told which', async () => {
    const dirs = fixtureRepo();
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'look around' } }] }, { text: 'done' })
      .script('child', { text: 'Conclusion: looked.' });
    const { session, events } = await openFixtureSession(dirs, model);
    await session.run('start', go());
    model.assertDone();
    const parent = model.requests.find((r) => r.route === 'parent')?.request.system ?? '';
    const child = model.requests.find((r) => r.route === 'child')?.request.system ?? '';
    for (const system of [parent, child]) {
      assert.match(system, /## From AGENTS\.md \(project instructions\)\n\n# Agents\n\nNever commit to main directly \(AGENTS-MARKER-17\)\./);
      assert.match(system, /## From CLAUDE\.md \(project instructions\)\n\n# Fixture project/);
      assert.match(system, /## From docs\/style\.md \(imported by CLAUDE\.md\)\n\nUse tabs for indentation \(STYLE-MARKER-41\)\./);
    }
    assert.match(parent, /^You are a coding agent/);
    assert.match(child, /^You are a subagent/);
    const loaded = events.filter((e) => e.type === 'instructions_loaded');
    assert.equal(loaded.length, 1);
    assert.deepEqual(loaded[0]?.type === 'instructions_loaded' && [loaded[0].files, loaded[0].cut], [['AGENTS.md', 'CLAUDE.md', 'docs/style.md'], false]);
    // Said once per session, at its first prompt.
    const more = new ScriptedModel().script('default', { text: 'x' }, { text: 'y' });
    const second = await openFixtureSession(dirs, more);
    await second.session.run('a', go());
    await second.session.run('b', go());
    assert.equal(second.events.filter((e) => e.type === 'instructions_loaded').length, 1);
  });

  it('nothing found: no section, no event', async () => {
    const dirs = tree({ 'README.md': '# just a readme' });
    const found = await loadProjectInstructions(dirs);
    assert.deepEqual(found, { text: '', files: [], chars: 0, cut: false, skipped: [] });
    const model = new ScriptedModel().script('default', { text: 'ok' });
    const { session, events } = await openFixtureSession({ ...dirs, transcriptRoot: join(dirs.home, 't') }, model);
    await session.run('hi', go());
    assert.doesNotMatch(model.requests[0]?.request.system ?? '', /instructions follow/);
    assert.equal(events.filter((e) => e.type === 'instructions_loaded').length, 0);
  });

  it('is cut at 40,000 characters with a note naming what was left out', async () => {
    const big = `${'x'.repeat(99)}\n`.repeat(450);
    const dirs = tree({ 'AGENTS.md': 'short rules', 'CLAUDE.md': big, '~/.claude/CLAUDE.md': 'my own habits' });
    const found = await loadProjectInstructions(dirs);
    assert.equal(found.cut, true);
    assert.equal(found.chars, MAX_INSTRUCTION_CHARS);
    assert.deepEqual(found.files, ['AGENTS.md', 'CLAUDE.md']);
    assert.match(found.text, /\[Instructions cut at 40,000 characters: the rest of CLAUDE\.md, ~\/\.claude\/CLAUDE\.md left out\. Read the files themselves if you need the rest\.\]$/);
    assert.ok(!found.text.includes('my own habits'));
    assert.ok(found.text.length < MAX_INSTRUCTION_CHARS + 500);
  });

  it('imports: relative to the file, cycles and repeats once, bounded to the workspace and ~/.claude for a project file', async () => {
    const dirs = tree({
      'CLAUDE.md': 'See @docs/a.md, @~/.claude/personal.md and @../outside.md. Not @this-one in `@docs/code.md`. mail me@example.com\n```\n@docs/fenced.md\n```\n@~/.ssh/id_rsa @docs/missing.md',
      'docs/a.md': 'A imports @b.md',
      'docs/b.md': 'B imports @a.md again (a cycle) and @./a.md',
      'docs/code.md': 'never',
      'docs/fenced.md': 'never',
      '~/.claude/personal.md': 'personal notes',
      '~/.ssh/id_rsa': 'PRIVATE KEY',
      '../outside.md': 'outside',
    });
    const found = await loadProjectInstructions(dirs);
    assert.deepEqual(found.files, ['CLAUDE.md', 'docs/a.md', 'docs/b.md', '~/.claude/personal.md']);
    assert.ok(!found.text.includes('PRIVATE KEY') && !found.text.includes('never') && !found.text.includes('outside\n'));
    assert.deepEqual(found.skipped, [
      `${join(dirname(dirs.workdir), 'outside.md')} (imported by CLAUDE.md): outside the workspace and ~/.claude`,
      '~/.ssh/id_rsa (imported by CLAUDE.md): outside the workspace and ~/.claude',
      'docs/missing.md (imported by CLAUDE.md): not found',
    ]);
    assert.deepEqual(importPaths('a @x.md. b @y/z.md, (@w.md) `@no.md` e@mail.com'), ['x.md', 'y/z.md']);
  });

  it('a link that leads out of the workspace is refused like an import; the user file may import from HOME; depth is limited', async () => {
    const chain: Record<string, string> = {};
    for (let i = 0; i < 8; i++) chain[`docs/l${i}.md`] = `level ${i} @l${i + 1}.md`;
    const dirs = tree({ ...chain, 'CLAUDE.md': '@docs/l0.md', '~/.claude/CLAUDE.md': 'mine: @~/notes/habits.md', '~/notes/habits.md': 'HABITS', '~/secret.txt': 'SECRET' });
    symlinkSync(join(dirs.home, 'secret.txt'), join(dirs.workdir, 'AGENTS.md'));
    const found = await loadProjectInstructions(dirs);
    assert.ok(found.text.includes('HABITS'), 'the user file imports from HOME');
    assert.ok(!found.text.includes('SECRET'));
    assert.ok(found.skipped.includes('~/secret.txt: outside the workspace and ~/.claude'), found.skipped.join('\n'));
    assert.ok(found.text.includes('level 4') && !found.text.includes('level 5'), 'five levels of imports');
    assert.ok(found.skipped.includes('imports in docs/l4.md: more than 5 levels deep'), found.skipped.join('\n'));
  });

  it('CLAUDE.local.md and ~/.claude/CLAUDE.md load; the same text twice is taken once; --setting-sources picks', async () => {
    const dirs = tree({ 'AGENTS.md': 'shared rules', 'CLAUDE.md': 'shared rules\n', 'CLAUDE.local.md': 'my local notes', '~/.claude/CLAUDE.md': 'my habits' });
    const all = await loadProjectInstructions(dirs);
    assert.deepEqual(all.files, ['AGENTS.md', 'CLAUDE.local.md', '~/.claude/CLAUDE.md']);
    assert.deepEqual(all.skipped, ['CLAUDE.md: the same text as AGENTS.md']);
    assert.match(all.text, /## From ~\/\.claude\/CLAUDE\.md \(the user's instructions for every project\)\n\nmy habits/);
    const projectOnly = await loadProjectInstructions({ ...dirs, sources: ['project'] });
    assert.deepEqual(projectOnly.files, ['AGENTS.md']);
    const none = await loadProjectInstructions({ ...dirs, sources: [] });
    assert.equal(none.text, '');
  });
});
