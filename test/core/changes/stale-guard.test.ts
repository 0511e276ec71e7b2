// The stale-write guard on the real file tools and node:fs: reads stamp, writes check under the lock, and a
// refusal names who changed the file (an agent, a command, nobody Delegate knows).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BlobStore } from '../../../src/core/changes/blob-store';
import { ChangeTracker } from '../../../src/core/changes/change-tracker';
import { EventBus, type DelegateEvent } from '../../../src/core/events';
import { createBaseTools } from '../../../src/core/tools/base-tools';
import type { ToolRegistry, ToolResult } from '../../../src/core/tools/types';
import { tempDir } from '../../kit/temp-dirs';

describe('stale-write guard', () => {
  let ws: string;
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
  const file = (rel: string): string => path.join(ws, rel);

  beforeEach(async () => {
    const root = await fs.realpath(tempDir('delegate-guard-'));
    ws = path.join(root, 'ws');
    await fs.mkdir(ws);
    const bus = new EventBus('s');
    events = [];
    bus.subscribe((e) => void events.push(e));
    tracker = new ChangeTracker({ workdir: ws, blobs: new BlobStore(path.join(root, 'blobs')), bus });
    tools = createBaseTools(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 10_000, changes: tracker });
    await bus.emit('main', null, { type: 'agent_started', prompt: 'p', depth: 0, model: 'm', cwd: ws });
    await bus.emit('kid-a', 'main', { type: 'agent_started', prompt: 'a', description: 'fix config', depth: 1, model: 'm' });
    await bus.emit('kid-b', 'main', { type: 'agent_started', prompt: 'b', description: 'tidy config', depth: 1, model: 'm' });
    await fs.writeFile(file('config.ts'), 'export const retries = 3;\nexport const delay = 10;\n');
  });

  it('refuses an edit of a file a sibling changed since the read, naming the sibling; the file keeps one change', async () => {
    await call('kid-a', 'read_file', { path: 'config.ts' });
    await call('kid-b', 'read_file', { path: 'config.ts' });
    const a = await call('kid-a', 'edit_file', { path: 'config.ts', old_text: 'retries = 3', new_text: 'retries = 5' });
    assert.equal(a.isError, undefined, a.content);
    const b = await call('kid-b', 'edit_file', { path: 'config.ts', old_text: 'delay = 10', new_text: 'delay = 20' });
    assert.equal(b.isError, true);
    assert.equal(b.content, 'Refused: config.ts changed since you last read it: the subagent "fix config" (kid-a) changed it. Read it again with read_file, then redo your edit on the current content.');
    assert.equal(await fs.readFile(file('config.ts'), 'utf8'), 'export const retries = 5;\nexport const delay = 10;\n');
    // Read again: the edit goes through on the current content.
    await call('kid-b', 'read_file', { path: 'config.ts' });
    assert.equal((await call('kid-b', 'edit_file', { path: 'config.ts', old_text: 'delay = 10', new_text: 'delay = 20' })).isError, undefined);
    assert.equal(await fs.readFile(file('config.ts'), 'utf8'), 'export const retries = 5;\nexport const delay = 20;\n');
  });

  it('refuses a write or an edit of an existing file never read, for the main agent too; own writes and created files count as read', async () => {
    const w = await call('main', 'write_file', { path: 'config.ts', content: 'x\n' });
    assert.equal(w.content, 'Refused: config.ts already exists and you have not read it. Read it with read_file first, then write it.');
    const e = await call('kid-a', 'edit_file', { path: 'config.ts', old_text: 'retries', new_text: 'tries' });
    assert.match(e.content, /^Refused: config\.ts already exists and you have not read it\. Read it with read_file first, then make your edit\.$/);
    assert.equal(await fs.readFile(file('config.ts'), 'utf8'), 'export const retries = 3;\nexport const delay = 10;\n');
    // Created by the agent itself: edits and rewrites follow without a read.
    assert.match((await call('kid-a', 'write_file', { path: 'new.ts', content: 'one\n' })).content, /^Created new\.ts/);
    assert.match((await call('kid-a', 'edit_file', { path: 'new.ts', old_text: 'one', new_text: 'two' })).content, /^Edited new\.ts/);
    assert.match((await call('kid-a', 'write_file', { path: 'new.ts', content: 'three\n' })).content, /^Overwrote new\.ts/);
    // Someone else's new file is not read by kid-b: refused, naming who wrote it last.
    const other = await call('kid-b', 'write_file', { path: 'new.ts', content: 'mine\n' });
    assert.match(other.content, /^Refused: new\.ts already exists \(last written by the subagent "fix config" \(kid-a\)\) and you have not read it/);
  });

  it('a read of a window (offset/limit) of a big file stamps the whole file', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    await fs.writeFile(file('big.txt'), lines.join('\n') + '\n');
    const r = await call('kid-a', 'read_file', { path: 'big.txt', offset: 4000, limit: 3 });
    assert.match(r.content, /^line 4000\nline 4001\nline 4002\n\[showed lines 4000-4002 of 5000/);
    assert.match((await call('kid-a', 'edit_file', { path: 'big.txt', old_text: 'line 17\n', new_text: 'line seventeen\n' })).content, /^Edited big\.txt at line 17/);
  });

  it('names "a command" when bash changed the file after the read, and nobody when the user did', async () => {
    await call('kid-a', 'read_file', { path: 'config.ts' });
    const ran = await call('kid-b', 'bash', { command: "sed -i 's/delay = 10/delay = 11/' config.ts" });
    assert.match(ran.content, /\[exit code 0\]/);
    const afterCommand = await call('kid-a', 'edit_file', { path: 'config.ts', old_text: 'retries = 3', new_text: 'retries = 4' });
    assert.equal(
      afterCommand.content,
      'Refused: config.ts changed since you last read it: a command (`sed -i \'s/delay = 10/delay = 11/\' config.ts`, run by the subagent "tidy config" (kid-b)) changed it. Read it again with read_file, then redo your edit on the current content.',
    );
    await call('kid-a', 'read_file', { path: 'config.ts' });
    // The user edits the file in their editor while no command runs.
    await fs.writeFile(file('config.ts'), 'export const retries = 3;\nexport const delay = 99;\n');
    const afterUser = await call('kid-a', 'write_file', { path: 'config.ts', content: 'replaced\n' });
    assert.equal(afterUser.content, 'Refused: config.ts changed since you last read it (not by Delegate: the user or another program changed it). Read it again with read_file, then write it on the current content.');
    assert.equal(await fs.readFile(file('config.ts'), 'utf8'), 'export const retries = 3;\nexport const delay = 99;\n');
  });

  it('journals each change as a file_changed event with the old content kept, and builds the manifest', async () => {
    await call('kid-a', 'read_file', { path: 'config.ts' });
    await call('kid-a', 'edit_file', { path: 'config.ts', old_text: 'retries = 3', new_text: 'retries = 4' });
    await call('kid-a', 'edit_file', { path: 'config.ts', old_text: 'retries = 4', new_text: 'retries = 3;\nexport const extra = 1' });
    await call('kid-a', 'write_file', { path: 'test/config.test.ts', content: 'a\nb\nc\n' });
    await call('kid-a', 'bash', { command: 'exit 3' });
    const changed = events.filter((e) => e.type === 'file_changed');
    assert.deepEqual(changed.map((e) => e.type === 'file_changed' && [e.agentId, e.path, e.action, e.added, e.removed]), [
      ['kid-a', 'config.ts', 'modified', 1, 1],
      ['kid-a', 'config.ts', 'modified', 2, 1],
      ['kid-a', 'test/config.test.ts', 'created', 3, 0],
    ]);
    const first = changed[0];
    assert.ok(first?.type === 'file_changed' && first.before);
    assert.equal((await tracker.blobs?.get(first.before))?.toString(), 'export const retries = 3;\nexport const delay = 10;\n');
    const manifest = await tracker.manifestOf('kid-a');
    // Two linked edits count as one net change: +1 line (the extra export), nothing removed.
    assert.deepEqual(manifest.files.map(({ path: p, action, added, removed }) => ({ p, action, added, removed })), [
      { p: 'config.ts', action: 'modified', added: 1, removed: 0 },
      { p: 'test/config.test.ts', action: 'created', added: 3, removed: 0 },
    ]);
    assert.deepEqual(manifest.commands, [{ command: 'exit 3', exit_code: 3 }]);
    assert.deepEqual(await tracker.manifestOf('kid-b'), { files: [], commands: [] });
    assert.equal((await tracker.manifestOf('main')).files.length, 2, "the main agent's manifest holds its descendants'");
  });
});
