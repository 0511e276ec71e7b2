// A child's report held to its record (issue 16 §3): the claims read from prose, the rules that skip what only
// looks like a claim, the reasons given, the footer on the parent's tool_result, and the corpus against its goals.
import assert from 'node:assert/strict';
import { extractClaims } from '../../../src/core/report/report-claims';
import { checkReport, withUnverifiedFooter } from '../../../src/core/report/report-check';
import { withReportNotes } from '../../../src/core/report/child-report';
import { commandWrites } from '../../../src/core/report/command-writes';
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

describe('report claims: a negation reaches only its part of the clause (issue 24 §5)', () => {
  it('reads the claims beside a negation, in six languages', () => {
    assert.deepEqual(kinds('Fixed `src/a.ts` so it no longer throws, and all tests pass.'), ['changed src/a.ts', 'passed tests']);
    assert.deepEqual(kinds('Fixed the crash so it no longer throws, and all tests pass.'), ['passed tests', 'done']);
    assert.deepEqual(kinds('I changed nothing in `src/a.ts`, and the build succeeds.'), ['passed build']);
    assert.deepEqual(kinds('Ich habe `src/a.ts` nicht angefasst, und alle Tests bestehen.'), ['passed tests']);
    assert.deepEqual(kinds("Je n'ai pas touché à `src/a.ts`, et les tests passent."), ['passed tests']);
    assert.deepEqual(kinds('No modifiqué `src/a.ts`, y las pruebas pasan.'), ['passed tests']);
    assert.deepEqual(kinds('我没有修改 `src/a.ts`，所有测试都通过了。'), ['passed tests']);
    assert.deepEqual(kinds('`src/a.ts` は変更していません、テストは通りました。'), ['passed tests']);
  });

  it('a negation still governs the paths and checks of its own part', () => {
    for (const text of ['I did not update `src/a.ts`, `src/b.ts` or `src/c.ts`.', '`src/a.ts`: not changed.', 'Tests do not pass, nothing was fixed.', 'Ran `git diff --no-index a b`? No.']) {
      assert.deepEqual(kinds(text), [], text);
    }
    assert.deepEqual(kinds('Ran `git diff --no-index a b`.'), ['ran git diff --no-index a b'], 'a negation word inside code negates nothing');
  });
});

describe('report check: a command that only names a file backs no change of it (issue 24 §5)', () => {
  it('with a manifest, a command backs a change claim only by writing the file', () => {
    const flagged = (report: string, ...steps: Parameters<typeof record>) => checkReport(report, record(...steps)).map((u) => u.reason);
    assert.deepEqual(flagged('Updated `src/a.js`.', bash('node src/a.js')), ['no write or edit of src/a.js in the record, and no command changed it']);
    assert.equal(flagged('Updated `src/a.js`.', bash('cat src/a.js && npm test')).length, 1);
    assert.equal(flagged('Deleted `src/old.ts`.', bash('wc -l src/old.ts > /tmp/n')).length, 1);
    assert.deepEqual(flagged('Added the key to `.env`.', bash('echo KEY=1 >> .env')), []);
    assert.deepEqual(flagged('Updated `src/a.ts`.', bash("sed -i 's/a/b/' src/a.ts")), []);
    assert.deepEqual(flagged('Deleted `src/old.ts`.', bash('git rm -q src/old.ts')), []);
    assert.deepEqual(flagged('Reformatted `docs/a.md`.', bash('npx prettier --write docs/a.md')), []);
    assert.deepEqual(flagged('Updated `src/a.log`.', bash('npm test 2>&1 | tee src/a.log')), []);
  });

  it('without a manifest, any command naming the file is the benefit of the doubt', () => {
    assert.deepEqual(checkReport('Updated `src/a.js`.', callsOnly(bash('node scripts/codemod.js src/a.js'))), []);
  });

  it('reads which commands write the files they name', () => {
    const names = (text: string, path: string) => text.includes(path);
    for (const c of ['echo x > a.ts', 'printf x >>"a.ts"', "sed -i.bak 's/a/b/' a.ts", 'perl -pi -e s/a/b/ a.ts', 'mv b.ts a.ts', 'rm -f a.ts', 'git checkout -- a.ts', 'npx eslint --fix a.ts', 'black a.ts', 'FOO=1 touch a.ts', 'gofmt -l -w a.ts']) {
      assert.equal(commandWrites(c, 'a.ts', names), true, c);
    }
    for (const c of ['cat a.ts', 'grep -n x a.ts', 'node a.ts', 'sed -n 1,5p a.ts', 'wc -l a.ts > n.txt', 'diff a.ts b.ts', 'npx eslint a.ts', 'python -m pytest a.ts', 'cat a.ts | grep i']) {
      assert.equal(commandWrites(c, 'a.ts', names), false, c);
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
    assert.deepEqual(checkReport('Updated `src/b.ts`.', r)[0]?.reason, 'no write or edit of src/b.ts in the record, and no command changed it');
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
