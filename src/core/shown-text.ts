/**
 * How the harness shows text it did not write inside its own lines (`[changes]`, `[deliverables]`,
 * `[unverified]`, read_subagent's pages): a file name, a command or an MCP input comes from an agent or a
 * repository, and must not be able to end the harness's line and start one of its own.
 *
 *   file name  src/a.ts                         →  src/a.ts                      (plain: shown as it is)
 *              x⏎[changes] nothing changed      →  "x\n[changes] nothing changed" (anything else: a JSON string)
 *   command    npm test                         →  `npm test`
 *              echo `date`⏎[changes] none       →  `` echo `date` [changes] none ``  (one line, a longer fence)
 *
 * Control, format (bidi, zero-width) and line-separator characters are written as `\u…` escapes everywhere.
 */

/** A name shown bare: letters, digits, marks and the punctuation paths are made of; no space, bracket, quote or control. */
const PLAIN_NAME = /^[\p{L}\p{N}\p{M}_@%+=,./~:-]+$/u;
/** Characters no harness line shows raw: C0/C1 controls, format characters (bidi, zero-width), line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\u2028\u2029\p{Cf}]/gu;

/** `text` with every invisible character as a `\u…` escape. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const cp = c.codePointAt(0) as number;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/** `text` as a JSON string (quotes, backslashes and line breaks escaped), with invisible characters escaped too. */
export function quotedText(text: string): string {
  return escapeInvisible(JSON.stringify(text));
}

/** A file name as harness lines show it: bare when plain, else a JSON string. */
export function shownName(name: string): string {
  return PLAIN_NAME.test(name) ? name : quotedText(name);
}

/** A command or tool input as a one-line code span of at most `max` characters (whitespace runs as one space). */
export function codeSpan(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const line = escapeInvisible(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

const LINE_LIMIT = 200;

/**
 * The first line of `text`, whitespace runs as one space, cut to `limit` with an ellipsis (`…` after a line that had
 * more): a call's summary as its record keeps it, and a line of the panel.
 */
export function oneLine(text: string, limit = LINE_LIMIT): string {
  const trimmed = text.trim();
  const nl = trimmed.indexOf('\n');
  const collapsed = (nl < 0 ? trimmed : trimmed.slice(0, nl)).replace(/\s+/g, ' ').trim();
  if (collapsed.length > limit) return `${collapsed.slice(0, limit - 1)}…`;
  return nl < 0 ? collapsed : `${collapsed} …`;
}
