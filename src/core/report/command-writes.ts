/**
 * Does a command write a file it names? The claim check (report-check.ts) asks when a change claim names a file the
 * change manifest does not list: the command watch sees every watched file a command changes, so only a file it
 * does not watch (ignored, outside the workspace) can have been changed unseen — and only by a command that writes
 * it, not one that merely names it:
 *
 *   writes    echo x >> .env   sed -i … a.ts   tee a.log   mv a b   rm a.ts   git checkout -- a.ts   prettier --write a.md
 *   names     cat a.ts   grep foo a.ts   node a.js   pytest tests/test_a.py   wc -l a.ts > /tmp/n
 *
 * Read from the command's text, per simple command (split at `&&`, `||`, `;`, `|`): a guess that errs towards
 * "names" — the manifest, not this, is the record.
 */

/** The programs (after env assignments, `sudo`, `npx`-like runners) that write the files they are given. */
const WRITER = new RegExp(
  '^(?:[A-Za-z_]\\w*=\\S*\\s+)*(?:sudo\\s+)?(?:(?:npx|bunx|uvx|pnpm\\s+(?:exec|dlx)|yarn(?:\\s+dlx)?|python3?\\s+-m)\\s+(?:-\\S+\\s+)*)?' +
    '(?:' +
    [
      // In place, with the flag that says so.
      '(?:sed|perl|ruby)\\s(?:.*\\s)?-[A-Za-z]*i\\S*',
      'sed\\s.*--in-place',
      '(?:gofmt|goimports)\\s(?:.*\\s)?-w',
      'clang-format\\s(?:.*\\s)?-i',
      '(?:prettier|eslint|biome|stylelint|dprint|ruff|standard|xo)\\s(?:.*\\s)?(?:--write|-w|--fix|--apply|format)',
      // Writing is what they do.
      'mv|cp|rm|rmdir|touch|ln|install|truncate|patch|dd|unlink|shred|mkdir|tee|chmod|black|isort|autopep8|yapf|rustfmt',
      'git\\s+(?:rm|mv|checkout|restore|apply|am|stash|reset|clean|cherry-pick|revert|merge|pull|rebase)',
    ].join('|') +
    ')(?:\\s|$)',
);

/** Whether `command` writes `path`: a redirect to it, or a writing program given it. */
export function commandWrites(command: string, path: string, names: (text: string, path: string) => boolean): boolean {
  for (const part of command.split(/&&|\|\||;|\n|\|(?!\|)/)) {
    if (!names(part, path)) continue;
    const simple = part.trim();
    if (WRITER.test(simple) || redirectsTo(simple, path)) return true;
  }
  return false;
}

/** `… > path`, `… >> "path"`, `… 2> path`, `… &> path`. */
function redirectsTo(part: string, path: string): boolean {
  for (let i = part.indexOf(path); i >= 0; i = part.indexOf(path, i + 1)) {
    if (/(?:^|[^<>])>{1,2}\|?\s*["']?$/.test(part.slice(0, i))) return true;
  }
  return false;
}
