/**
 * Which files a watched call names, so a change found while several calls overlapped (parallel children)
 * can be put down to the one call that names the file:
 *
 *   bash   `sleep 1; echo x > "my a.txt"` ─ parse (policy/shell-parse.ts: quotes, comments, heredocs) ─┐
 *            · a redirection's target (`>`, `>>`, `&>`), in any command                                   │
 *            · the arguments of a command that is not a look (`sed -i … src/a.js`, `touch b`,            ├─▶ words
 *              `mv a b`, `cp`, `tee`), and the value of `--out=x` / `of=x`                                │
 *            · not: what `echo` / `printf` / `cat` / `grep` … read or print, a comment, a word with a glob│
 *              or a substitution, a heredoc's body                                                        ┘
 *   MCP    every string value of its input that could be a path (`{ path: "config.ts" }`)
 *
 *   words ─▶ resolved at the scan that found the change: against the folder the command was in (`cd x &&`
 *            is followed), `..` and `./` normalised, symlinks resolved (the link's own path counts too) ─▶
 *            paths relative to the workspace
 *
 * Only an exact file counts, never a folder or a glob (`rm -rf build`, `prettier --write .` name no file):
 * a call that names nothing leaves the change shared, which a revert then asks about. Naming is a guess
 * at what a command wrote, so it is used only to choose among calls that overlapped, never to blame one alone.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseScript, type Script } from '../policy/shell-parse';
import { programLooks } from './read-only-command';

/** A word that may be a file's path, and the folder (relative to where the call ran) it is relative to. */
export interface NamedWord {
  word: string;
  dir: string;
}

const MAX_WORDS = 256;
const MAX_WORD = 4096;

/** The words of a bash command that may name a file it writes. */
export function commandWords(command: string): NamedWord[] {
  let script: Script;
  try {
    script = parseScript(command, 0);
  } catch {
    return [];
  }
  const found: NamedWord[] = [];
  let dir = '';
  const add = (word: string): void => {
    if (found.length < MAX_WORDS && plausible(word)) found.push({ word, dir });
  };
  const walk = (s: Script): void => {
    for (const pipeline of s) {
      for (const cmd of pipeline) {
        for (const r of cmd.redirects) if (r.out && !r.herestring) add(r.target);
        for (const nested of cmd.nested) walk(nested);
        const start = cmd.words.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w));
        const [program, ...args] = start === -1 ? [] : cmd.words.slice(start);
        // `cd x && echo > a.txt`: the words after it are relative to x.
        if (program === 'cd' && args.length === 1 && args[0] !== '-') dir = join(dir, args[0] as string);
        if (program === undefined || programLooks(cmd.words)) continue;
        for (const arg of args) {
          const eq = arg.indexOf('=');
          if (!arg.startsWith('-')) add(arg);
          if (eq > 0) add(arg.slice(eq + 1));
        }
      }
    }
  };
  walk(script);
  return found;
}

/** The string values of an MCP call's input that may be paths. */
export function inputWords(input: unknown): NamedWord[] {
  const found: NamedWord[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (found.length >= MAX_WORDS || depth > 4) return;
    if (typeof value === 'string') {
      if (plausible(value)) found.push({ word: value, dir: '' });
    } else if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v, depth + 1);
  };
  walk(input, 0);
  return found;
}

/** A word that could be one exact path: no glob, no variable or substitution (the parser's `$(…)`), one line. */
function plausible(word: string): boolean {
  return word.length > 0 && word.length <= MAX_WORD && !/[*?[$\n\0]/.test(word);
}

/** Resolves named words to workspace-relative paths (`/` separators); `cwd` is where the call ran (the root). */
export function resolveWords(words: readonly NamedWord[], root: string, cwd = root): Set<string> {
  const paths = new Set<string>();
  for (const { word, dir } of words) {
    const abs = isAbsolute(word) ? resolve(word) : resolve(cwd, dir, word);
    for (const p of [abs, realPathOf(abs)]) {
      const rel = relative(root, p);
      if (rel && !rel.startsWith('..') && !isAbsolute(rel)) paths.add(rel.split(sep).join('/'));
    }
  }
  return paths;
}

/** The real path of `p`, or of its deepest folder that exists with the rest appended (a file not made yet). */
function realPathOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realPathOf(parent), basename(p));
  }
}

/** Of calls that overlapped, the one that names `path`; undefined when none or several do. */
export function namingCall<C>(calls: readonly C[], path: string, named: (call: C) => ReadonlySet<string>): C | undefined {
  const naming = calls.filter((c) => named(c).has(path));
  return naming.length === 1 ? naming[0] : undefined;
}
