/**
 * The changes bar's host side in words (src/vscode/run-review.ts): the multi-file diff's title, the one
 * confirmation a run's revert asks (each subagent's files), and the message after it.
 */
import assert from 'node:assert/strict';
import type { RevertPlan } from '../../src/core/session/history';
import { describeRunRevert, reviewTitle, runRevertSummary } from '../../src/vscode/run-review';

const plan = (agentId: string, description: string, files: RevertPlan['files'], commands: string[] = []): RevertPlan => ({
  sessionId: 's', rootAgentId: 'root', agentId, description, workdir: '/w', files, alreadyReverted: [], commands,
});

describe('vscode/run-review', () => {
  it('lists each subagent\'s files and what the revert does to them, what it cannot undo, and the main agent\'s own writes', () => {
    const text = describeRunRevert(
      [
        plan('a', 'the subagent "raise retries" (a)', [{ path: 'src/config.ts', action: 'modified', restore: 'h1', expected: 'h2' }, { path: 'test/c.test.ts', action: 'created', expected: 'h3' }], ['npm test']),
        plan('b', 'the subagent "docs" (b)', [
          { path: 'README.md', action: 'modified', restore: 'h4', expected: 'h5', between: { who: 'the main agent' } },
          // Shared with a: both are reverted, so it goes back; shared with c (not in the run): left alone.
          { path: 'gen.ts', action: 'created', expected: 'h6', shared: [{ agentId: 'a', who: 'the subagent "raise retries" (a)', command: 'make' }] },
          { path: 'out.txt', action: 'created', expected: 'h7', shared: [{ agentId: 'c', who: 'the subagent "other" (c)', command: 'node w.js' }] },
        ]),
      ],
      1,
      ['a', 'b'],
    );
    assert.equal(text, [
      'the subagent "raise retries" (a):',
      '  • src/config.ts: put back its previous content (it modified it)',
      '  • test/c.test.ts: delete (it created it)',
      'the subagent "docs" (b):',
      '  ✗ README.md: not reverted — the main agent also changed it in between',
      '  • gen.ts: delete (it created it; shared, included: the subagent "raise retries" (a) may also have changed it)',
      '  – out.txt: left alone — shared: `node w.js` of the subagent "other" (c) ran at the same time and may have changed it (check it in the Changes row to include it)',
      '',
      'A file changed since by someone else is left alone (you get its diff).',
      '1 file the main agent changed itself is not reverted.',
      'The files their commands changed are listed above; nothing else they did is undone: `npm test`.',
    ].join('\n'));
  });

  it('titles the review and sums up the revert', () => {
    assert.equal(reviewTitle({ files: [{ path: 'a', added: 1, removed: 0, key: 'user:1@1\na', agents: [], byMain: true }], runs: 1 }), 'Delegate: 1 file changed by the last run');
    assert.equal(reviewTitle({ files: [], runs: 2 }), 'Delegate: 0 files changed by the last 2 runs');
    assert.equal(runRevertSummary(3, []), 'Delegate: reverted 3 files of the last run.');
    assert.equal(runRevertSummary(1, [{ path: 'a.ts', reason: 'changed since' }]), 'Delegate: reverted 1 file of the last run; 1 not reverted: a.ts (changed since).');
  });
});
