/**
 * Static expansion of a parsed command's words for the deny list: what bash would make of `$(echo su)`,
 * `${HOME:?}`, `x=su; $x` — as far as that is knowable without running anything.
 *
 *   word  "s$(echo u)do"  ──substitution k ← what script k prints, if static (echo, printf, which …)──▶ "sudo"
 *   word  "${HOME:?}/"    ──variables: HOME → ~, names assigned earlier on the line → their value ───▶ "~/"
 *
 * What cannot be worked out stays as written ($(…) placeholder, $NAME), so the checker can tell a computed
 * command name (suspicious) from a literal one. Quoting is gone after parsing, so every expanded word is
 * split on blanks: over-splitting can only make a check stricter.
 */
import { SUBSTITUTION, type Script, type SimpleCommand } from './shell-parse';

/** Variables known on this command line: HOME (as `~`) and plain `NAME=value` assignments made earlier. */
export type ShellVars = Map<string, string>;

export function initialVars(): ShellVars {
  return new Map([['HOME', '~']]);
}

const VARIABLE = /\$\{([A-Za-z_]\w*)(?:(:?[-=?+])([^}]*))?\}|\$([A-Za-z_]\w*)/g;

/** `$NAME` and `${NAME…}` forms replaced where the value is known (or the form supplies it). */
function expandVariables(word: string, vars: ShellVars): string {
  return word.replace(VARIABLE, (whole, braced: string | undefined, op: string | undefined, operand: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    const value = vars.get(name);
    if (op?.endsWith('+')) return value === '' ? '' : (operand ?? ''); // ${X:+w}: w when X is set (assumed)
    if (value !== undefined) return value;
    // ${X:-w} / ${X:=w} of an unknown X: w, which is what runs when X is unset (the worse case to assume).
    if (op && (op.endsWith('-') || op.endsWith('='))) return operand ?? '';
    return whole;
  });
}

/** Words a script prints when that is statically known (trailing newlines dropped), else undefined. */
export function staticOutput(script: Script, vars: ShellVars): string | undefined {
  const only = script.length === 1 && script[0]?.length === 1 ? script[0][0] : undefined;
  if (!only || only.redirects.length > 0) return undefined;
  const words = expandCommand(only, vars).words;
  if (words.some((w) => w.includes(SUBSTITUTION))) return undefined;
  const [name, ...args] = words;
  switch (name) {
    case 'echo': {
      while (/^-[neE]+$/.test(args[0] ?? '')) args.shift();
      return args.join(' ');
    }
    case 'printf': {
      const [format = '', ...rest] = args;
      if (/^%s(\\n)?$/.test(format)) return rest.join(format.endsWith('\\n') ? '\n' : '');
      return format.includes('%') ? undefined : format.replace(/\\n/g, '\n').replace(/\n+$/, '');
    }
    // What they print ends in the name asked for, and only the name matters to the checks.
    case 'which':
      return args.filter((a) => !a.startsWith('-')).join('\n');
    case 'command':
    case 'type':
      return args[0] === '-v' || args[0] === '-P' || args[0] === '-p' ? args.slice(1).join('\n') : undefined;
    case 'basename':
      return args[0]?.replace(/\/+$/, '').replace(/^.*\//, '');
    default:
      return undefined;
  }
}

/** A word with its substitutions and variables expanded where known; unknown parts stay as written. */
function expandWord(word: string, subs: Script[] | undefined, vars: ShellVars): string {
  let out = word;
  const parts = word.split(SUBSTITUTION);
  // A literal "$(…)" typed into quotes would break the pairing: then nothing is substituted (stays computed).
  if (subs && subs.length > 0 && subs.length === parts.length - 1) {
    out = parts[0] ?? '';
    subs.forEach((sub, k) => (out += (staticOutput(sub, vars) ?? SUBSTITUTION) + (parts[k + 1] ?? '')));
  }
  return expandVariables(out, vars);
}

export interface ExpandedCommand {
  /** Words as bash would see them where knowable; a `$(…)` left inside means "printed by a command we cannot predict". */
  words: string[];
}

/** Expands every word of a command (substitutions, then variables), splitting the ones that changed. */
export function expandCommand(cmd: SimpleCommand, vars: ShellVars): ExpandedCommand {
  const words: string[] = [];
  cmd.words.forEach((word, i) => {
    const expanded = expandWord(word, cmd.substitutions?.[i], vars);
    if (expanded === word) words.push(word);
    else words.push(...expanded.split(/\s+/).filter((w) => w !== ''));
  });
  return { words };
}

/**
 * Records `NAME=value` words of a command made only of assignments (`x=su; $x …`), so later commands of the
 * same line see them. Values are expanded first; an unpredictable one keeps its `$(…)` (a computed value).
 */
export function recordAssignments(cmd: SimpleCommand, vars: ShellVars): void {
  if (cmd.words.length === 0 || !cmd.words.every((w) => /^[A-Za-z_]\w*=/.test(w))) return;
  cmd.words.forEach((word, i) => {
    const eq = word.indexOf('=');
    vars.set(word.slice(0, eq), expandWord(word.slice(eq + 1), cmd.substitutions?.[i], vars));
  });
}
