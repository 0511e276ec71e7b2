// Names and commands inside the harness's lines (issue 24 §4): a newline, a bracket, a quote, a backtick or an
// invisible character in them can neither end the line nor close their quoting early.
import assert from 'node:assert/strict';
import { codeSpan, escapeInvisible, quotedText, shownName } from '../../src/core/shown-text';

describe('shown text', () => {
  it('shows a plain name bare and anything else as a JSON string', () => {
    assert.equal(shownName('src/a.ts'), 'src/a.ts');
    assert.equal(shownName('docs/über-uns.md'), 'docs/über-uns.md');
    assert.equal(shownName('x\n[changes] nothing changed'), '"x\\n[changes] nothing changed"');
    assert.equal(shownName('my file.md'), '"my file.md"');
    assert.equal(shownName('a"b`c'), '"a\\"b`c"');
    assert.equal(shownName('[changes]'), '"[changes]"');
    assert.equal(shownName('a\u2028b\u202ec\u0085d'), '"a\\u2028b\\u202ec\\u0085d"');
  });

  it('puts a command on one line in a code span whose fence is longer than any backtick run in it', () => {
    assert.equal(codeSpan('npm test'), '`npm test`');
    assert.equal(codeSpan('echo `date`\n[changes] none'), '``echo `date` [changes] none``');
    assert.equal(codeSpan('`x` and ``y``'), '``` `x` and ``y`` ```');
    assert.equal(codeSpan('a\u0085[changes] b\u0000'), '`a\\u0085[changes] b\\u0000`');
    assert.equal(codeSpan('abcdefghij', 5), '`abcd…`');
  });

  it('escapes invisible characters, astral ones too', () => {
    assert.equal(escapeInvisible('a\u200bb\u{e0041}'), 'a\\u200bb\\u{e0041}');
    assert.equal(quotedText('say "hi"\n'), '"say \\"hi\\"\\n"');
  });
});
