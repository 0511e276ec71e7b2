// A child's report held to its record (issue 16 §3): the claims read from prose, the rules that skip what only
// looks like a claim, the reasons given, the footer on the parent's tool_result, and the corpus against its goals.
import assert from 'node:assert/strict';
import { extractClaims } from '../../../src/core/agent/report-claims';
import { checkReport, withUnverifiedFooter } from '../../../src/core/agent/report-check';
import { withReportNotes } from '../../../src/core/agent/child-report';
import { bash, callsOnly, create, edit, read, record } from '../../fixtures/report-corpus/record';
import { CORPUS, GOALS, scoreCorpus } from '../../fixtures/report-corpus/score';

const kinds = (report: string) => extractClaims(report).map((c) => (c.kind === 'file' ? `${c.verb} ${c.path}` : c.kind === 'command' ? `${c.outcome} ${c.command ?? c.subject}` : 'done'));

describe('report claims', () => {
  it('reads file, command and done claims, in six languages', () => {
    assert.deepEqual(kinds('I updated `src/config.ts` and ran `npm test`: all tests pass.'), ['changed src/config.ts', 'passed npm test']);
    assert.deepEqual(kinds('Ich habe `src/a.ts` gelesen und `src/b.ts` geändert. Alle Tests bestehen.'), ['read src/a.ts', 'changed src/b.ts', 'passed tests']);
    assert.deepEqual(kinds("J'ai supprimé `src/old.ts`."), ['deleted src/old.ts']);
    assert.deepEqual(kinds('Creé `test/a.test.ts`. Las pruebas fallan.'), ['created test/a.test.ts', 'failed tests']);
    assert.deepEqual(kinds('我修改了 `src/a.ts`，所有测试都通过了。'), ['changed src/a.ts', 'passed tests']);
    assert.deepEqual(kinds('`src/a.ts` を削除しました。ビルドも成功しました。'), ['deleted src/a.ts', 'passed build']);
    assert.deepEqual(kinds('Fixed.'), ['done']);
    assert.deepEqual(kinds('Done.'), [], 'a bare "done" claims the task finished, not a change');
  });

  it('takes removing from / adding to a file as a change to it, and "0 failing" as a pass', () => {
    assert.deepEqual(kinds('Removed the unused import from `src/index.ts`.'), ['changed src/index.ts']);
    assert.deepEqual(kinds('Added a case to `test/a.test.ts`.'), ['changed test/a.test.ts']);
    assert.deepEqual(kinds('42 passing, 0 failing'), ['passed tests']);
    assert.deepEqual(kinds('Tests mostly pass (2 flaky failures).'), ['failed tests']);
  });

  it('makes no claim of negations, advice, plans, questions, conditions, quotes and code', () => {
    for (const text of [
      'I did not change `src/a.ts`.',
      "I haven't run the tests.",
      'You should run `npm test` before merging.',
      'Run `npm test` to reproduce.',
      'Next step: update `src/b.ts`.',
      'Should I also update `src/b.ts`?',
      'If the tests pass on CI, merge it.',
      'You asked me to update `src/a.ts`, but it was right already.',
      '```\nupdated src/x.ts\nTests: 3 passed\n```',
      '> I updated src/x.ts and all tests pass',
      '    modified src/x.ts',
      'Ich habe `src/a.ts` nicht geändert.',
      "Je n'ai pas modifié `src/a.ts`.",
      'No modifiqué `src/a.ts`.',
      '我没有修改 `src/a.ts`。',
      '`src/a.ts` は変更していません。',
      'It uses Node.js and Vue.js; https://example.com/a.ts documents it.',
    ]) {
      assert.deepEqual(kinds(text), [], text);
    }
  });
});

describe('report check', () => {
  it('flags a pass claim after a failed run, naming the command and its exit code', () => {
    const flags = checkReport('Edited `src/a.ts`. All tests pass.', record(edit('src/a.ts'), bash('npm test', 1, '1 failing')));
    assert.deepEqual(flags, [{ claim: 'All tests pass.', reason: '`npm test` exited 1' }]);
  });

  it('flags untouched, differently touched and unread files, runs that never happened and a done with no change', () => {
    const r = record(read('src/a.ts'), edit('README.md'));
    assert.deepEqual(checkReport('Updated `src/b.ts`.', r)[0]?.reason, 'no write or edit of src/b.ts in the record, and no command that could change files names it');
    assert.deepEqual(checkReport('Created `README.md`.', r)[0]?.reason, 'README.md was modified, not created');
    assert.deepEqual(checkReport('Deleted `README.md`.', r)[0]?.reason, 'README.md was modified, not deleted');
    assert.deepEqual(checkReport('I read `src/c.ts`.', r)[0]?.reason, 'no tool call read or named src/c.ts');
    assert.deepEqual(checkReport('Ran `npm run lint`: clean.', r)[0]?.reason, 'no `npm run lint` in the record');
    assert.match(checkReport('Implemented it.', record(read('src/a.ts'), bash('npm test', 0)))[0]?.reason ?? '', /^nothing was changed/);
  });

  it('supports what the record shows: the last run passing, a change made by a command naming the file, a grep hit, an absolute path', () => {
    const r = record(bash('npm test', 1), edit('src/date.ts'), bash('npm test', 0), bash("sed -i 's/a/b/' src/b.ts"), { call: { name: 'grep', input: { pattern: 'x' }, isError: false, output: 'src/c.ts:1: x' } }, create('docs/new.md'));
    assert.deepEqual(checkReport('Fixed `src/date.ts`; now all tests pass. Updated `src/b.ts`. I looked at `src/c.ts`. Created /home/dev/project/docs/new.md. Done.', r), []);
  });

  it('without change tracking, successful write and edit calls stand in for the manifest', () => {
    assert.deepEqual(checkReport('Edited `src/a.ts`.', callsOnly(edit('src/a.ts'))), []);
    assert.equal(checkReport('Edited `src/b.ts`.', callsOnly(edit('src/a.ts'))).length, 1);
  });

  it('writes one [unverified] line per claim after the result (and after [changes])', () => {
    const result = withUnverifiedFooter({ content: 'All tests pass.\n\n[changes] none' }, [{ claim: 'All tests pass.', reason: '`npm test` exited 1' }]);
    assert.equal(result.content, 'All tests pass.\n\n[changes] none\n[unverified] "All tests pass.": `npm test` exited 1');
    assert.deepEqual(withUnverifiedFooter({ content: 'x' }, []), { content: 'x' });
  });

  it('puts the defang line first and the unverified lines last', () => {
    const result = withReportNotes({ content: 'report\n\n[changes] none' }, { defanged: ['a system-reminder tag'], unverified: [{ claim: 'c', reason: 'r' }] });
    assert.match(result.content, /^\[harness\] This subagent's report contained instruction-shaped text \(a system-reminder tag\)\. .*\nreport\n\n\[changes\] none\n\[unverified\] "c": r$/);
  });

  it(`meets the corpus goals: ≥ ${GOALS.inventedFlagged * 100} % of invented claims flagged, ≤ ${GOALS.truthfulFlagged * 100} % of the rest`, () => {
    const s = scoreCorpus();
    assert.ok(CORPUS.length >= 80 && s.invented >= 50 && s.truthful >= 100, `corpus too small: ${JSON.stringify(s)}`);
    assert.ok(s.inventedFlagged / s.invented >= GOALS.inventedFlagged, `invented claims flagged ${s.inventedFlagged}/${s.invented}; missed:\n${s.missed.join('\n')}`);
    assert.ok(s.truthfulFlagged / s.truthful <= GOALS.truthfulFlagged, `truthful text flagged ${s.truthfulFlagged}/${s.truthful}:\n${s.wrong.join('\n')}`);
  });
});
