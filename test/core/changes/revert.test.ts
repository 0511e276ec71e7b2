// Reverting one subagent in the core: a live session (its locks, its guard, its bus), and plans worked out
// from events alone (someone else's change in between, an agent still running, an earlier revert).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore, contentHash } from '../../../src/core/changes/blob-store';
import { applyRevert } from '../../../src/core/changes/apply-revert';
import { planRevert } from '../../../src/core/changes/revert-plan';
import { loadRevertPlan, revertSubagent } from '../../../src/core/session/revert-subagent';
import type { DelegateEvent, EventBody } from '../../../src/core/events';
import { firstUserText, ScriptedModel } from '../../kit/scripted-model';
import { readTranscript } from '../../../src/core/store/transcript-reader';
import { tempDir } from '../../kit/temp-dirs';
import { testSession } from '../../kit/test-session';

const go = (): AbortSignal => new AbortController().signal;

describe('revert one subagent', () => {
  it('in a live session: restores the file under the session\'s locks, records the event, and the guard names the revert', async () => {
    const workdir = tempDir('delegate-rv-ws-');
    writeFileSync(join(workdir, 'a.txt'), 'original\n');
    const model = new ScriptedModel((req) => (firstUserText(req).startsWith('KID') ? 'kid' : 'default'))
      .script('kid', { toolUses: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { toolUses: [{ name: 'edit_file', input: { path: 'a.txt', old_text: 'original', new_text: 'changed' } }] }, { text: 'edited' })
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'KID: edit a.txt', description: 'edit a' } }] }, { toolUses: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { text: 'done' })
      .script('default', { toolUses: [{ name: 'write_file', input: { path: 'a.txt', content: 'mine\n' } }] }, { text: 'refused' });
    const { session, events, transcriptRoot } = await testSession({ workdir, model });
    const first = await session.run('edit via a subagent', go());
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'changed\n');
    const kid = first.subagents[0]?.id ?? '';
    assert.deepEqual(first.subagents[0]?.changes?.files.map((f) => [f.path, f.action, f.added, f.removed]), [['a.txt', 'modified', 1, 1]]);

    const target = { transcriptRoot, sessionId: session.id, agentId: kid };
    const plan = await loadRevertPlan(target);
    assert.ok(!('error' in plan), JSON.stringify(plan));
    assert.equal(plan.workdir, workdir, 'the session knows its workspace');
    const report = await revertSubagent(target, plan, { bus: session.bus, changes: session.changes });
    assert.deepEqual(report.files.map((f) => [f.path, f.outcome]), [['a.txt', 'restored']]);
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'original\n');
    const recorded = events.find((e) => e.type === 'changes_reverted');
    assert.ok(recorded?.type === 'changes_reverted' && recorded.target === kid && recorded.agentId === 'main');
    assert.ok((await readTranscript(transcriptRoot, session.id))?.some((e) => e.type === 'changes_reverted'), 'in the transcript too');

    // The main agent had read the subagent's version: its write is refused, naming the revert.
    await session.run('overwrite a.txt', go());
    const refusal = model.requests.at(-1)?.request.messages.at(-1);
    assert.match(JSON.stringify(refusal), /Refused: a\.txt changed since you last read it: a revert of a subagent's changes changed it/);
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'original\n');
    model.assertDone();
    session.close();
  });

  it('in a live session (the editor\'s path): a subagent\'s sed -i and the file it created are put back through the session', async () => {
    const workdir = tempDir('delegate-rv-ws-');
    writeFileSync(join(workdir, 'a.txt'), 'original\n');
    const model = new ScriptedModel((req) => (firstUserText(req).startsWith('KID') ? 'kid' : 'default'))
      .script('kid', { toolUses: [{ name: 'bash', input: { command: "sed -i 's/original/changed/' a.txt && echo new > b.txt" } }] }, { text: 'edited' })
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'KID: edit a.txt', description: 'edit a' } }] }, { text: 'done' });
    const { session, transcriptRoot } = await testSession({ workdir, model });
    const first = await session.run('edit via a subagent', go());
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'changed\n');
    const kid = first.subagents[0]?.id ?? '';
    assert.deepEqual(first.subagents[0]?.changes?.files.map((f) => [f.path, f.action, f.by?.map((c) => c.command)]), [
      ['a.txt', 'modified', ["sed -i 's/original/changed/' a.txt && echo new > b.txt"]],
      ['b.txt', 'created', ["sed -i 's/original/changed/' a.txt && echo new > b.txt"]],
    ]);
    const target = { transcriptRoot, sessionId: session.id, agentId: kid };
    const plan = await loadRevertPlan(target);
    assert.ok(!('error' in plan), JSON.stringify(plan));
    const report = await revertSubagent(target, plan, { bus: session.bus, changes: session.changes });
    assert.deepEqual(report.files.map((f) => [f.path, f.outcome]), [['a.txt', 'restored'], ['b.txt', 'deleted']]);
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'original\n');
    model.assertDone();
    session.close();
  });

  describe('plans from events', () => {
    const workdir = tempDir('delegate-rv-plan-');
    const blobs = new BlobStore(tempDir('delegate-rv-blobs-'));
    let seq = 0;
    const ev = (agentId: string, parentId: string | null, body: EventBody): DelegateEvent => ({ seq: ++seq, time: seq, sessionId: 's', agentId, parentId, ...body }) as DelegateEvent;
    const started = (id: string, parent: string | null, description?: string): DelegateEvent =>
      ev(id, parent, { type: 'agent_started', prompt: 'p', depth: parent ? 1 : 0, model: 'm', ...(description ? { description } : { cwd: workdir }) });
    const finished = (id: string, parent: string | null): DelegateEvent => ev(id, parent, { type: 'agent_finished', status: 'completed', result: '', turns: 1, toolCalls: 1, usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 1 });
    const changed = (id: string, path: string, before: string | undefined, after: string): DelegateEvent =>
      ev(id, 'main', { type: 'file_changed', toolUseId: `t${seq}`, path, action: before === undefined ? 'created' : 'modified', ...(before !== undefined ? { before: contentHash(Buffer.from(before)) } : {}), after: contentHash(Buffer.from(after)), added: 1, removed: 1 });

    it('refuses a file someone else changed between the subagent\'s changes, and a subagent still running', async () => {
      for (const text of ['v1\n', 'v2\n', 'v3\n', 'v4\n']) await blobs.put(Buffer.from(text));
      writeFileSync(join(workdir, 'f.txt'), 'v4\n');
      const events = [
        started('main', null),
        started('kid', 'main', 'two edits'),
        started('sib', 'main', 'one edit'),
        changed('kid', 'f.txt', 'v1\n', 'v2\n'),
        changed('sib', 'f.txt', 'v2\n', 'v3\n'),
        changed('kid', 'f.txt', 'v3\n', 'v4\n'),
        finished('sib', 'main'),
      ];
      const running = planRevert(events, 'kid');
      assert.ok('error' in running && /has not finished/.test(running.error));
      const plan = planRevert([...events, finished('kid', 'main')], 'kid');
      assert.ok(!('error' in plan));
      const report = await applyRevert(plan, { blobs });
      assert.equal(report.files[0]?.outcome, 'refused');
      assert.equal(report.files[0]?.reason, 'the subagent "one edit" (sib) also changed it in between: reverting would undo that change too');
      assert.equal(report.files[0]?.diff, '--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-v2\n+v3');
      assert.equal(readFileSync(join(workdir, 'f.txt'), 'utf8'), 'v4\n', 'left alone');
      // The sibling alone can be reverted? Not while kid's later change sits on top of it.
      const sib = await applyRevert(planRevert([...events, finished('kid', 'main')], 'sib') as Exclude<ReturnType<typeof planRevert>, { error: string }>, { blobs });
      assert.deepEqual(sib.files.map((f) => [f.outcome, f.reason]), [['refused', 'it was changed since by someone else']]);
    });

    it('a file an earlier revert put back is not reverted twice; a file already as before is unchanged', async () => {
      await blobs.put(Buffer.from('new\n'));
      writeFileSync(join(workdir, 'g.txt'), 'new\n');
      const events = [started('main', null), started('kid', 'main', 'g'), changed('kid', 'g.txt', undefined, 'new\n'), changed('kid', 'h.txt', 'old\n', 'new\n'), finished('kid', 'main')];
      writeFileSync(join(workdir, 'h.txt'), 'old\n');
      const plan = planRevert(events, 'kid');
      assert.ok(!('error' in plan));
      const report = await applyRevert(plan, { blobs });
      assert.deepEqual(report.files.map((f) => [f.path, f.outcome]), [['g.txt', 'deleted'], ['h.txt', 'unchanged']]);
      const after = [...events, ev('main', null, { type: 'changes_reverted', target: 'kid', files: report.files.map(({ diff: _d, ...f }) => f), commands: [] })];
      const again = planRevert(after, 'kid');
      assert.ok(!('error' in again));
      assert.deepEqual(again.files, []);
      assert.deepEqual(again.alreadyReverted.sort(), ['g.txt', 'h.txt']);
    });

    it('a change another subtree\'s call may have made is shared: skipped with who else unless included; one inside the subtree is not', async () => {
      await blobs.put(Buffer.from('s0\n'));
      await blobs.put(Buffer.from('s1\n'));
      writeFileSync(join(workdir, 's.txt'), 's1\n');
      writeFileSync(join(workdir, 'own.txt'), 's1\n');
      const cause = (agentId: string, command: string): { agentId: string; toolUseId: string; tool: string; command: string } => ({ agentId, toolUseId: `tu-${agentId}`, tool: 'bash', command });
      const body = (path: string, causes: ReturnType<typeof cause>[]): EventBody => ({ type: 'file_changed', toolUseId: 'tu-x', path, action: 'modified', before: contentHash(Buffer.from('s0\n')), after: contentHash(Buffer.from('s1\n')), added: 1, removed: 1, causes });
      const events = [
        started('main', null),
        started('kid', 'main', 'one'),
        started('grand', 'kid', 'deeper'),
        started('sib', 'main', 'two'),
        ev('kid', 'main', body('s.txt', [cause('kid', 'make'), cause('sib', 'npm run gen\n  --all')])),
        ev('kid', 'main', body('own.txt', [cause('kid', 'make'), cause('grand', 'make more')])),
        finished('grand', 'kid'),
        finished('kid', 'main'),
        finished('sib', 'main'),
      ];
      const plan = planRevert(events, 'kid');
      assert.ok(!('error' in plan));
      assert.deepEqual(plan.files.map((f) => [f.path, f.shared?.map((x) => x.agentId)]), [['s.txt', ['sib']], ['own.txt', undefined]], 'a call of its own subagent is not another\'s');
      const report = await applyRevert(plan, { blobs });
      assert.deepEqual(report.files.map((f) => [f.path, f.outcome, f.reason]), [
        ['s.txt', 'skipped', 'shared: `npm run gen --all` of the subagent "two" (sib) ran at the same time and may have changed it'],
        ['own.txt', 'restored', undefined],
      ]);
      assert.equal(readFileSync(join(workdir, 's.txt'), 'utf8'), 's1\n', 'left alone');
      const after = [...events, ev('main', null, { type: 'changes_reverted', target: 'kid', files: report.files.map(({ diff: _d, ...f }) => f), commands: [] })];
      const again = planRevert(after, 'kid');
      assert.ok(!('error' in again));
      assert.deepEqual(again.files.map((f) => f.path), ['s.txt'], 'a skipped file can still be reverted');
      const included = await applyRevert(again, { blobs }, { includeShared: ['s.txt'] });
      assert.deepEqual(included.files.map((f) => [f.path, f.outcome]), [['s.txt', 'restored']]);
      assert.equal(readFileSync(join(workdir, 's.txt'), 'utf8'), 's0\n');
    });

    it('a command\'s change counts for every agent among its causes; one whose content before was not kept is refused with the reason', async () => {
      await blobs.put(Buffer.from('before\n'));
      await blobs.put(Buffer.from('after\n'));
      writeFileSync(join(workdir, 'c.txt'), 'after\n');
      writeFileSync(join(workdir, 'big.bin'), 'huge\n');
      const cause = (agentId: string): { agentId: string; toolUseId: string; tool: string; command: string } => ({ agentId, toolUseId: `tu-${agentId}`, tool: 'bash', command: `run ${agentId}` });
      const events = [
        started('main', null),
        started('kid', 'main', 'one'),
        started('sib', 'main', 'two'),
        // Found while both ran: the event is kid's, sib is among its causes.
        ev('kid', 'main', { type: 'file_changed', toolUseId: 'tu-kid', path: 'c.txt', action: 'modified', before: contentHash(Buffer.from('before\n')), after: contentHash(Buffer.from('after\n')), added: 1, removed: 1, causes: [cause('kid'), cause('sib')] }),
        ev('sib', 'main', { type: 'file_changed', toolUseId: 'tu-sib', path: 'big.bin', action: 'modified', after: contentHash(Buffer.from('huge\n')), added: 0, removed: 0, causes: [cause('sib')], lost: 'it is larger than 16 MiB, so its content was not kept' }),
        finished('kid', 'main'),
        finished('sib', 'main'),
      ];
      const plan = planRevert(events, 'sib');
      assert.ok(!('error' in plan));
      assert.deepEqual(plan.files.map((f) => [f.path, f.action]), [['c.txt', 'modified'], ['big.bin', 'modified']], 'a lost before is not taken for a created file');
      // c.txt is shared with kid (skipped by default): included here.
      const report = await applyRevert(plan, { blobs }, { includeShared: true });
      assert.deepEqual(report.files.map((f) => [f.path, f.outcome, f.reason]), [
        ['c.txt', 'restored', undefined],
        ['big.bin', 'refused', 'it is larger than 16 MiB, so its content was not kept: it cannot be put back'],
      ]);
      assert.equal(readFileSync(join(workdir, 'c.txt'), 'utf8'), 'before\n');
      assert.equal(readFileSync(join(workdir, 'big.bin'), 'utf8'), 'huge\n');
    });
  });
});
