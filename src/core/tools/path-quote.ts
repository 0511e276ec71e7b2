/**
 * A file name as one entry of a tool's output. Names may hold any byte but `/` and NUL, so a name with a newline
 * (`a\nb.txt`) would read as two results — or as a line the harness wrote. Such names are written as git writes
 * them (core.quotePath): in double quotes, with C escapes — `"a\nb.txt"`, `"tab\there"`, `"say \"hi\""` — which
 * models already know from `git status`. Other names, non-ASCII ones included, are shown as they are.
 */

/** Characters that would break a line or make the quoting ambiguous: C0 controls, DEL, `"`, `\`, NEL, U+2028/9. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const SPECIAL = /[\u0000-\u001f\u007f"\\\u0085\u2028\u2029]/;
const SPECIALS = new RegExp(SPECIAL.source, 'g');

const C_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\',
};

export function quotePath(name: string): string {
  if (!SPECIAL.test(name)) return name;
  const escaped = name.replace(SPECIALS, (c) => {
    const code = c.charCodeAt(0);
    return C_ESCAPES[c] ?? (code < 0x80 ? `\\${code.toString(8).padStart(3, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
  return `"${escaped}"`;
}
