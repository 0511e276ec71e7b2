// ProcessGroups.spawn: the watchdog runs before a group is forked (a kill -9 while the watchdog itself was being
// forked left a bash call's processes unwatched), and the group is listed with it once forked.
import assert from 'node:assert/strict';
import { ProcessGroups } from '../../../src/core/tools/process-groups';

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
});
