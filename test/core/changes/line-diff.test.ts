// Line diffs: the manifest's counts and a revert refusal's unified diff.
import assert from 'node:assert/strict';
import { changeDiff, diffCounts, textLines, unifiedDiff } from '../../../src/core/changes/line-diff';

describe('line diff', () => {
  it('counts added and removed lines of an edit, a creation and a deletion', () => {
    assert.deepEqual(diffCounts('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1 });
    assert.deepEqual(diffCounts('', 'x\ny\n'), { added: 2, removed: 0 });
    assert.deepEqual(diffCounts('x\ny\n', ''), { added: 0, removed: 2 });
    assert.deepEqual(diffCounts('same\n', 'same\n'), { added: 0, removed: 0 });
    // A moved line is one removal and one addition, not a rewrite of everything between.
    const before = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const after = [...before.slice(1), 'line 0'];
    assert.deepEqual(diffCounts(before.join('\n'), after.join('\n')), { added: 1, removed: 1 });
  });

  it('falls back to an upper bound for a rewrite too large to diff line by line', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const started = Date.now();
    assert.deepEqual(diffCounts(a, b), { added: 3000, removed: 3000 });
    assert.ok(Date.now() - started < 2000, 'bounded time');
  });

  it('writes a unified diff with context and line numbers', () => {
    const before = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].join('\n') + '\n';
    const after = before.replace('two', 'TWO').replace('nine', 'nine\nnine and a half');
    assert.equal(
      unifiedDiff(before, after, { from: 'a/n.txt', to: 'b/n.txt' }),
      ['--- a/n.txt', '+++ b/n.txt', '@@ -1,5 +1,5 @@', ' one', '-two', '+TWO', ' three', ' four', ' five', '@@ -7,4 +7,5 @@', ' seven', ' eight', ' nine', '+nine and a half', ' ten'].join('\n'),
    );
    assert.equal(unifiedDiff('x\n', 'x\n', { from: 'a', to: 'b' }), '');
    assert.equal(unifiedDiff('', 'new\n', { from: 'a', to: 'b' }), '--- a\n+++ b\n@@ -0,0 +1,1 @@\n+new');
    assert.deepEqual(textLines('a\nb\n'), ['a', 'b']);
  });

  it('a change\'s diff for the panel: its counts and hunks in one pass, cut after maxLines with the rest counted', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 1\n', 'line one\n').replace('line 30\n', 'line thirty\n');
    const d = changeDiff(before, after);
    assert.deepEqual([d.added, d.removed], [2, 2]);
    assert.equal(d.hunks.split('\n')[0], '@@ -1,5 +1,5 @@');
    assert.equal(d.hunks.split('\n').length, (1 + 1 + 2 + 3) + (1 + 3 + 2 + 3), 'two hunks: header, context, -, +, context (one line of context before line 2)');
    const cut = changeDiff(before, after, 5);
    assert.deepEqual(cut.hunks.split('\n').slice(-2), [' line 2', '… 11 more diff lines']);
    assert.equal(changeDiff('same\n', 'same\n').hunks, '', 'no hunks when the lines are the same');
    const long = changeDiff('', `${'x'.repeat(1000)}\n`);
    assert.equal(long.hunks.split('\n')[1]?.length, 401, 'a very long line is cut (400 chars with its sign, then …)');
  });
});
