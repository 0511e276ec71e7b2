// ProcessGroups.spawn: the watchdog runs before a group is forked (a kill -9 while the watchdog itself was being
// forked left a bash call's processes unwatched), and the group is listed with it once forked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { heldCommand, ProcessGroups } from '../../../src/core/tools/process-groups';

describe('ProcessGroups.spawn', () => {
  it('readies the watchdog before the start function runs, then lists the new group', () => {
    const steps: string[] = [];
    const groups = new ProcessGroups({ ready: () => steps.push('ready'), watch: (g) => steps.push(`watch ${g}`), unwatch: (g) => steps.push(`unwatch ${g}`) });
    const child = groups.spawn('sleep', () => {
      steps.push('fork');
      return { pid: 4242 };
    });
    assert.equal(child.pid, 4242);
    assert.deepEqual(steps, ['ready', 'fork', 'watch 4242']);
    assert.deepEqual(groups.labels(), ['sleep']);
  });

  it('lists nothing when the fork failed (no pid)', () => {
    const groups = new ProcessGroups({ ready: () => undefined, watch: () => assert.fail('nothing to watch'), unwatch: () => undefined });
    groups.spawn('missing', () => ({ pid: undefined }));
    assert.equal(groups.size, 0);
  });

  it('releases a held command only after its group is listed', () => {
    const steps: string[] = [];
    const groups = new ProcessGroups({ ready: () => undefined, watch: (g) => steps.push(`watch ${g}`), unwatch: () => undefined });
    const gate = { on: () => undefined, end: (line: string) => steps.push(`release ${JSON.stringify(line)}`) };
    groups.spawn('held', () => ({ pid: 7, stdio: [null, null, null, gate] }), 3);
    assert.deepEqual(steps, ['watch 7', 'release "\\n"']);
  });
});

describe('heldCommand', () => {
  it('runs the command once released, as the same process, with its exit status', async () => {
    const held = heldCommand('/bin/sh', ['-c', 'echo "ran $1"; exit 3', 'sh', 'x'], 3);
    const child = spawn(held.file, held.args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    (child.stdio[3] as NodeJS.WritableStream).end('\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 3);
    assert.equal(out, 'ran x\n');
  });

  it('runs nothing when its spawner goes first (end of file on the gate)', async () => {
    const held = heldCommand('/bin/sh', ['-c', 'echo ran'], 3);
    const child = spawn(held.file, held.args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    // Closed unwritten: the same end of file a kill -9 of ours gives.
    (child.stdio[3] as NodeJS.WritableStream).end();
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 125);
    assert.equal(out, '');
  });
});
