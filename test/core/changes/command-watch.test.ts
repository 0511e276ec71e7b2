// The files bash commands change, found around each call by the change tracker's command watch, on the real
// bash tool and node:fs: in a git work tree (a clean file's before is its index blob; a dirty one's a copy)
// and in a plain folder; a touch is no change, a look is not scanned, overlapping calls are all named, write_file
// running beside a command is not blamed on it, and the plan a revert makes puts every file back.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BlobStore } from '../../../src/core/changes/blob-store';
import { ChangeTracker } from '../../../src/core/changes/change-tracker';
import { formatManifest } from '../../../src/core/changes/change-manifest';
import { applyRevert } from '../../../src/core/changes/apply-revert';
import { planRevert } from '../../../src/core/changes/revert-plan';
import { EventBus, type DelegateEvent, type EventOf } from '../../../src/core/events';
import { createBaseTools } from '../../../src/core/tools/base-tools';
import type { ToolRegistry, ToolResult } from '../../../src/core/tools/types';
import { tempDir } from '../../kit/temp-dirs';

const CONFIG = 'export const retries = 3;\nexport const delay = 10;\n';

for (const kind of ['git', 'plain'] as const) {
  describe(`command watch (${kind} folder)`, () => {
    let ws: string;
    let blobs: BlobStore;
    let tools: ToolRegistry;
    let tracker: ChangeTracker;
    let events: DelegateEvent[];
    let n = 0;
    const call = async (agentId: string, name: string, input: Record<string, unknown>): Promise<ToolResult> => {
      const tool = tools.get(name);
      assert.ok(tool);
      const parsed = tool.parse(input);
      assert.ok(parsed.ok, 'valid input');
      return tool.execute(parsed.input, { signal: new AbortController().signal, agentId, toolUseId: `tu_${++n}` });
    };
    const bash = (agentId: string, command: string): Promise<ToolResult> => call(agentId, 'bash', { command });
    const file = (rel: string): string => path.join(ws, rel);
    const changed = (): EventOf<'file_changed'>[] => events.filter((e): e is EventOf<'file_changed'> => e.type === 'file_changed');

    beforeEach(async () => {
      const root = await fs.realpath(tempDir('delegate-watch-'));
      ws = path.join(root, 'ws');
      await fs.mkdir(path.join(ws, 'src'), { recursive: true });
      await fs.writeFile(file('config.ts'), CONFIG);
      await fs.writeFile(file('src/a.ts'), 'one\ntwo\nthree\n');
      if (kind === 'git') {
        await fs.writeFile(file('.gitignore'), 'dist/\n');
        const git = (...args: string[]): void => void execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
        git('init', '-q');
        git('add', '.');
        git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
        // Dirty before any command: its before is a copy, not the index.
        await fs.writeFile(file('src/a.ts'), 'one\ntwo\nthree\nfour\n');
      }
      const bus = new EventBus('s');
      events = [];
      bus.subscribe((e) => void events.push(e));
      blobs = new BlobStore(path.join(root, 'data', 's', 'changes'));
      tracker = new ChangeTracker({ workdir: ws, blobs, bus });
      tools = createBaseTools(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 10_000, changes: tracker });
      await bus.emit('main', null, { type: 'agent_started', prompt: 'p', depth: 0, model: 'm', cwd: ws });
      await bus.emit('kid-a', 'main', { type: 'agent_started', prompt: 'a', description: 'fix config', depth: 1, model: 'm' });
      await bus.emit('kid-b', 'main', { type: 'agent_started', prompt: 'b', description: 'tidy', depth: 1, model: 'm' });
    });

    it('journals what a command modified, created and deleted, with line counts and the command as cause; a revert plan puts it all back', async () => {
      const r = await bash('kid-a', "sed -i 's/retries = 3/retries = 5/' config.ts && printf 'x\\ny\\n' > src/new.ts && rm src/a.ts && mkdir -p gen/deep && echo hi > gen/deep/g.txt");
      assert.equal(r.exitCode, 0, r.content);
      const got = changed().map((e) => `${e.action} ${e.path} +${e.added} -${e.removed} ${e.causes?.map((c) => `${c.agentId}:${c.command.slice(0, 6)}`).join(',')}`);
      assert.deepEqual(got.sort(), [
        'created gen/deep/g.txt +1 -0 kid-a:sed -i',
        'created src/new.ts +2 -0 kid-a:sed -i',
        `deleted src/a.ts +0 -${kind === 'git' ? 4 : 3} kid-a:sed -i`,
        'modified config.ts +1 -1 kid-a:sed -i',
      ]);
      const manifest = await tracker.manifestOf('kid-a');
      assert.equal(
        formatManifest(manifest),
        `[changes] modified config.ts (+1 -1), deleted src/a.ts (-${kind === 'git' ? 4 : 3}), created gen/deep/g.txt (+1), created src/new.ts (+2) by \`sed -i 's/retries = 3/retries = 5/' config.ts && printf 'x\\…\`; ` +
          "ran `sed -i 's/retries = 3/retries = 5/' config.ts && printf 'x\\ny\\n' > src/new.ts &…` (exit 0)",
      );
      assert.equal(manifest.files.length, 4);
      assert.deepEqual(await tracker.manifestOf('kid-b'), { files: [], commands: [] });

      await bus('kid-a');
      const plan = planRevert(events, 'kid-a');
      assert.ok(!('error' in plan), JSON.stringify(plan));
      const report = await applyRevert(plan, { blobs });
      assert.deepEqual(report.files.map((f) => `${f.outcome} ${f.path}`).sort(), ['deleted gen/deep/g.txt', 'deleted src/new.ts', 'recreated src/a.ts', 'restored config.ts']);
      assert.equal(await fs.readFile(file('config.ts'), 'utf8'), CONFIG);
      assert.equal(await fs.readFile(file('src/a.ts'), 'utf8'), kind === 'git' ? 'one\ntwo\nthree\nfour\n' : 'one\ntwo\nthree\n', 'the dirty content, not the committed one');
    });

    it('a touch, a look and a change made between calls (the user) are not a command\'s changes', async () => {
      await bash('kid-a', 'touch config.ts');
      await bash('kid-a', 'ls && cat config.ts | wc -l');
      await fs.writeFile(file('config.ts'), 'user edit\n');
      await bash('kid-a', 'true');
      assert.deepEqual(changed(), []);
      // The next command's before is the user's content.
      await bash('kid-a', 'echo more >> config.ts');
      const [e] = changed();
      assert.equal(e?.path, 'config.ts');
      assert.equal((await blobs.get(String(e?.before)))?.toString(), 'user edit\n');
    });

    it('calls that overlap: a change goes to the one call that names the file, else names each (shared); write_file meanwhile is not blamed', async () => {
      await call('kid-b', 'read_file', { path: 'config.ts' });
      const slow = bash('kid-a', 'sleep 0.4; echo a >> src/a.ts # not b.txt');
      await new Promise((r) => setTimeout(r, 100));
      // b.txt is named by B's command alone; c.txt by neither (written by a script in a string): shared.
      const [, , w] = await Promise.all([slow, bash('kid-b', "sleep 0.1; echo b > b.txt; sh -c 'echo c > c.txt'"), call('kid-b', 'write_file', { path: 'config.ts', content: 'written\n' })]);
      assert.equal(w.isError, undefined, w.content);
      const byPath = new Map(changed().map((e) => [e.path, e]));
      assert.deepEqual(byPath.get('config.ts')?.causes, undefined, 'write_file\'s own change');
      assert.deepEqual(byPath.get('b.txt')?.causes?.map((c) => c.agentId), ['kid-b']);
      // Either order: found as B ended (A running) or, on a loaded machine, as A ended with B's command still exiting.
      assert.deepEqual(byPath.get('c.txt')?.causes?.map((c) => c.agentId).sort(), ['kid-a', 'kid-b']);
      assert.deepEqual(byPath.get('src/a.ts')?.causes?.map((c) => c.agentId), ['kid-a']);
      const a = await tracker.manifestOf('kid-a');
      assert.deepEqual(a.files.map((f) => `${f.path} ${f.sharedWith?.map((c) => c.agentId).join() ?? '-'}`).sort(), ['c.txt kid-b', 'src/a.ts -']);
      assert.match(formatManifest(a), /created c\.txt \(\+1\) by `.*` or `.*` \(calls overlapped\)/);
      const b = await tracker.manifestOf('kid-b');
      assert.deepEqual(b.files.map((f) => `${f.path} ${f.sharedWith?.map((c) => c.agentId).join() ?? '-'}`).sort(), ['b.txt -', 'c.txt kid-a', 'config.ts -']);
    });

    it('overlapping calls: a write through a symlink goes to the call naming the link; a rename to the call naming both names', async () => {
      await fs.writeFile(file('real.txt'), 'r\n');
      await fs.symlink('real.txt', file('link.txt'));
      await fs.writeFile(file('old.txt'), 'o\n');
      const slow = bash('kid-a', 'sleep 0.4; mv old.txt new.txt');
      await new Promise((r) => setTimeout(r, 100));
      await Promise.all([slow, bash('kid-b', 'sleep 0.1; echo b >> link.txt')]);
      const by = new Map(changed().map((e) => [e.path, e.causes?.map((c) => c.agentId).join()]));
      assert.deepEqual(Object.fromEntries(by), { 'real.txt': 'kid-b', 'old.txt': 'kid-a', 'new.txt': 'kid-a' });
    });

    if (kind === 'git') {
      it('ignored files are not watched', async () => {
        await bash('kid-a', 'mkdir -p dist && echo x > dist/out.js && echo y > kept.txt');
        assert.deepEqual(changed().map((e) => e.path), ['kept.txt']);
      });
    }

    // The agent's end, which a revert plan needs.
    async function bus(agentId: string): Promise<void> {
      const last = events.at(-1);
      events.push({ seq: (last?.seq ?? 0) + 1, time: Date.now(), sessionId: 's', agentId, parentId: 'main', type: 'agent_finished', status: 'completed', result: 'ok', turns: 1, usage: { input_tokens: 0, output_tokens: 0 } } as DelegateEvent);
    }
  });
}

describe('command watch: large folders', () => {
  it('watches the first files up to the cap and says once, as a warning, that the rest is not covered', async () => {
    const root = await fs.realpath(tempDir('delegate-watch-big-'));
    const ws = path.join(root, 'ws');
    await fs.mkdir(ws);
    for (let i = 0; i < 6; i++) await fs.writeFile(path.join(ws, `f${i}.txt`), `${i}\n`);
    const bus = new EventBus('s');
    const events: DelegateEvent[] = [];
    bus.subscribe((e) => void events.push(e));
    const tracker = new ChangeTracker({ workdir: ws, blobs: new BlobStore(path.join(root, 'data', 's', 'changes')), bus, maxPlainFiles: 4 });
    const tools = createBaseTools(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 10_000, changes: tracker });
    await bus.emit('main', null, { type: 'agent_started', prompt: 'p', depth: 0, model: 'm', cwd: ws });
    const bash = tools.get('bash');
    assert.ok(bash);
    for (let i = 0; i < 2; i++) await bash.execute({ command: 'for f in f*.txt; do echo x >> "$f"; done' }, { signal: new AbortController().signal, agentId: 'main', toolUseId: `tu_${i}` });
    const notices = events.filter((e): e is EventOf<'notice'> => e.type === 'notice');
    assert.deepEqual(notices.map((e) => `${e.level}: ${e.text}`), ['warning: This folder is not a git work tree and has more than 4 files: changes commands make to the others are not found, listed or reverted.']);
    assert.equal(events.filter((e) => e.type === 'file_changed').length, 8, '4 files watched, changed twice each');
  });

  it('a git work tree past its cap is not watched at all, and says so once', async () => {
    const root = await fs.realpath(tempDir('delegate-watch-bigit-'));
    const ws = path.join(root, 'ws');
    await fs.mkdir(ws);
    for (let i = 0; i < 3; i++) await fs.writeFile(path.join(ws, `f${i}.txt`), `${i}\n`);
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const bus = new EventBus('s');
    const events: DelegateEvent[] = [];
    bus.subscribe((e) => void events.push(e));
    const tracker = new ChangeTracker({ workdir: ws, blobs: new BlobStore(path.join(root, 'data', 's', 'changes')), bus, maxGitFiles: 2 });
    const bash = createBaseTools(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 10_000, changes: tracker }).get('bash');
    assert.ok(bash);
    await bus.emit('main', null, { type: 'agent_started', prompt: 'p', depth: 0, model: 'm', cwd: ws });
    for (let i = 0; i < 2; i++) await bash.execute({ command: 'echo x >> f0.txt' }, { signal: new AbortController().signal, agentId: 'main', toolUseId: `tu_${i}` });
    assert.deepEqual(
      events.filter((e): e is EventOf<'notice'> => e.type === 'notice').map((e) => e.text),
      ['This work tree has 3 files, too many to watch at every bash call: files changed by commands and MCP tools are not listed or reverted in this session (write_file and edit_file are).'],
    );
    assert.equal(events.filter((e) => e.type === 'file_changed').length, 0);
  });
});
