// The report checker's ASCII twins (report-claims.ts patternsFor): on ASCII text each twin finds exactly what its
// Unicode pattern finds, over every clause of the report corpus, words glued to the patterns' words, and random text.
import assert from 'node:assert/strict';
import { patternsFor } from '../../../src/core/report/report-claims';
import { CORPUS } from '../../fixtures/report-corpus/score';
import { randomText } from '../../kit/random-text';

const unicode = patternsFor('é');
const ascii = patternsFor('plain');

/** Each pattern of a set, by a name both sets share. */
function flat(set: typeof unicode): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  for (const [key, value] of Object.entries(set)) {
    if (value instanceof RegExp) out.set(key, value);
    else if (Array.isArray(value)) for (const [name, rx] of value as [string, RegExp][]) out.set(`${key}.${name}`, rx);
    else for (const [name, rx] of Object.entries(value as Record<string, RegExp>)) out.set(`${key}.${name}`, rx);
  }
  return out;
}

const found = (rx: RegExp, text: string): string[] => {
  const global = rx.flags.includes('g') ? rx : new RegExp(rx.source, `${rx.flags}g`);
  return [...text.matchAll(global)].map((m) => `${m.index}:${m[0]}`);
};

/** ASCII text for randomText: letters, digits, `_` and the punctuation the patterns read. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ _ .,;:-`()/?!\'"\n';

describe('report claims: ASCII twins of the Unicode patterns', () => {
  const pairs = [...flat(unicode)].map(([name, rx]) => ({ name, rx, twin: flat(ascii).get(name) as RegExp }));

  it('every pattern that reads words has a twin without \\p{…} and without the u flag', () => {
    assert.ok(pairs.length >= 20, `only ${pairs.length} patterns`);
    for (const { name, rx, twin } of pairs) {
      assert.ok(twin, `${name} has no twin`);
      assert.doesNotMatch(twin.source, /\\p\{/, name);
      assert.equal(twin.flags, rx.flags.replace('u', ''), name);
    }
    // A clause with any character beyond ASCII keeps the Unicode patterns.
    assert.equal(patternsFor('Datei `a.ts` geändert'), unicode);
    assert.equal(patternsFor('updated a.ts — done'), unicode);
  });

  it('on ASCII text a twin finds exactly what its pattern finds (the corpus, glued words, random text)', () => {
    const texts = new Set<string>();
    for (const c of CORPUS) for (const line of c.report.split(/\n|(?<=[.!?])\s+/)) if (!/\P{ASCII}/u.test(line)) texts.add(line);
    // Words the patterns hold, glued to letters, digits and underscores on either side: where the boundaries decide.
    for (const w of ['not', 'fixed', 'updated', 'ran', 'tests', 'pass', 'failed', 'lint', 'build', 'read', 'created', 'deleted', 'should', 'no errors', 'without errors', 'I updated', 'from']) {
      for (const side of ['', 'x', 'X', '9', '_', ' ', '-', '.']) texts.add(`${side}${w}${side}`).add(`a ${w}${side} b`).add(`${side}${w} c`);
    }
    for (let i = 1; i <= 300; i++) texts.add(randomText(i, 80, ALPHABET));
    assert.ok(texts.size > 500, `only ${texts.size} texts`);
    for (const text of texts) for (const { name, rx, twin } of pairs) assert.deepEqual(found(twin, text), found(rx, text), `${name} on ${JSON.stringify(text)}`);
  });
});
