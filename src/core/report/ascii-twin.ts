/**
 * Patterns built when first needed, in two sets: as written (any text) and ASCII twins for text of ASCII characters
 * only. V8 builds a `\p{L}` class, and the case folding of every letter under the `iu` flags, when a pattern is
 * constructed and again when it first runs: ~0.4 ms a `\p{L}`, ~10 ms for the report checker's and the guard's
 * patterns in a process's first child report, which delayed the parent's next request by that much
 * (docs/benchmarks.md, issue 30). Most reports are ASCII, and on ASCII text a twin with `[A-Za-z]` for `\p{L}`,
 * `[0-9]` for `\p{N}` and no `u` flag matches exactly the same (no character of the text lies outside ASCII, and no
 * letter of a pattern folds to an ASCII one outside `u` mode). The set as written is built only for a text beyond ASCII.
 *
 *   specs (source + flags, plain strings) ──text is ASCII──▶ twins (built once)
 *                                         └─otherwise──────▶ as written (built once)
 */

/** A pattern's source and flags, not yet compiled. */
export interface PatternSpec {
  source: string;
  flags: string;
}

export const spec = (source: string, flags: string): PatternSpec => ({ source, flags });

/** Whether every character of `text` is ASCII. */
const isAscii = (text: string): boolean => !/\P{ASCII}/u.test(text);

/** `p` for ASCII text: `\p{L}` as A-Z and a-z, `\p{N}` as 0-9, the `u` flag off (its other flags kept). */
function asciiTwin(p: PatternSpec): RegExp {
  const source = p.source.replaceAll('\\p{L}\\p{N}', 'A-Za-z0-9').replaceAll('[\\p{L}]', '[A-Za-z]').replaceAll('\\p{L}', '[A-Za-z]');
  if (source.includes('\\p{') || source.includes('\\u{')) throw new Error(`no ASCII twin for /${p.source}/`);
  return new RegExp(source, p.flags.replace('u', ''));
}

const asWritten = (p: PatternSpec): RegExp => new RegExp(p.source, p.flags);

/**
 * A subject V8 compiles a pattern's machine code for at once: on a first run over a subject of 1,000 characters or
 * more it skips the bytecode it otherwise compiles first (and then compiles again to machine code on the second run):
 * ~1.9 ms instead of ~4.4 for ten of the checker's twins. NULs: no pattern can match among them, and none holds a
 * run of a class NUL is in (`\s+`, `[A-Za-z]+`) that it would backtrack over: each start position fails at once.
 */
const TIER_UP_SUBJECT = '\0'.repeat(1000);

/** `rx` compiled to machine code now (one run over TIER_UP_SUBJECT), its lastIndex as it was. */
function primed(rx: RegExp): RegExp {
  rx.test(TIER_UP_SUBJECT);
  rx.lastIndex = 0;
  return rx;
}

/**
 * The set for a text: `build` makes it from a compiler (asWritten or asciiTwin), once per kind; the ASCII set for
 * ASCII text, the set as written for any other; each pattern compiled to machine code as it is built (primed).
 */
export function twinnedPatterns<T>(build: (compile: (p: PatternSpec) => RegExp) => T): (text: string) => T {
  let ascii: T | undefined;
  let unicode: T | undefined;
  return (text) => (isAscii(text) ? (ascii ??= build((p) => primed(asciiTwin(p)))) : (unicode ??= build((p) => primed(asWritten(p)))));
}
