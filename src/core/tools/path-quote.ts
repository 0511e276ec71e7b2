/**
 * A file name as one entry of a tool's output. Names may hold any byte but `/` and NUL, so a name with a newline
 * (`a\nb.txt`) would read as two results — or as a line the harness wrote — and a bidi override could make it
 * read backwards. Such names are written as the harness's own lines write them (shown-text.ts): a JSON string,
 * invisible characters as `\u…` — `"a\nb.txt"`, `"tab\there"`, `"say \"hi\""` — the same escapes `git status`
 * uses for the common ones. Other names, non-ASCII and spaces included, are shown as they are.
 */
import { quotedText } from '../shown-text';

/** What would break a line, make the quoting ambiguous or hide itself: controls, `"`, `\`, line separators, format characters. */
const SPECIAL = /[\p{Cc}"\\\u2028\u2029\p{Cf}]/u;

export function quotePath(name: string): string {
  return SPECIAL.test(name) ? quotedText(name) : name;
}
