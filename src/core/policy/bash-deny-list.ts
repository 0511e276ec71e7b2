/**
 * Commands no permission mode may run: privilege escalation, machine shutdown, wiping the root or
 * home folder or a system folder, signalling every process, formatting or raw-writing disks, fork bombs,
 * and downloaded code piped into a shell.
 *
 * Matching is on parsed shell words, not substrings, so `echo sudoku`, `grep reboot notes.txt` and
 * `git rm -rf build/` pass. Every sub-command is checked: lists (; && || &), pipelines, subshells,
 * $( ) and backticks, process substitution, `bash -c '...'`, `eval ...`, `find -exec` and `xargs`.
 * Words are expanded where that is static (shell-expand.ts: `$(echo su)` → su, `${HOME:?}` → ~, `x=su; $x`),
 * and `cd` is followed along the line (deny-targets.ts: `cd ~ && rm -rf .`).
 *
 * A command name computed by a substitution that cannot be worked out (`$(cat name) -c id`) is refused:
 * whatever it prints is what runs, and nothing here can check it. `$(which python3)` and paths whose last
 * part is literal (`"$(git rev-parse --show-toplevel)/scripts/x.sh"`) are worked out or left alone.
 *
 * This is a guard rail against accidents and naive injections, not a sandbox: a determined script can
 * still hide a command (a variable set elsewhere, a loop variable, base64, a script file). Where bubblewrap
 * runs, the sandbox (../sandbox) is what actually confines `bash`.
 */

import { cdTarget, criticalArg, DESTRUCTIVE, findDeletesEverything, findWalksEverything, killsEverything, type Place } from './deny-targets';
import { expandCommand, initialVars, recordAssignments, staticOutput, type ShellVars } from './shell-expand';
import { parseScript, SUBSTITUTION, TooDeep, type Script, type SimpleCommand } from './shell-parse';

export type { Place as CommandContext } from './deny-targets';

export type BashCheck = { denied: false } | { denied: true; reason: string };

const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'time', 'coproc']);
/** Runners whose operand is another command; their own options are skipped. */
const WRAPPERS = new Set(['command', 'builtin', 'exec', 'nohup', 'env', 'nice', 'ionice', 'timeout', 'stdbuf', 'xargs', 'setsid', 'unbuffer', 'busybox', 'strace', 'ltrace']);
/** Wrapper options that take a separate value. */
const OPTION_WITH_VALUE = new Set(['-n', '-c', '-u', '-C', '-I', '-P', '-L', '-d', '-s', '-E', '-a', '-k', '-o', '-e', '-p', '--signal', '--kill-after']);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const INTERPRETERS = new Set(['python', 'python3', 'perl', 'ruby', 'node', 'php']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c']);
const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'run0']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const DISK_TOOLS = new Set(['tee', 'shred', 'blkdiscard', 'fdisk', 'sfdisk', 'cfdisk', 'parted', 'sgdisk', 'wipefs', 'mkswap']);
const DISK_DEVICE = /^\/dev\/(sd[a-z]|nvme\d|vd[a-z]|hd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/)/;

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

interface Effective {
  name: string;
  args: string[];
  /** The name word as written after expansion (a `$(…)` in its last part: computed, unknown). */
  word: string;
  /** Set when the command is run by xargs: its replace string (-I), if any. */
  xargs?: { replace?: string };
}

/** The command actually run once reserved words, VAR=x prefixes and wrappers are peeled off. */
function effective(words: string[]): Effective | undefined {
  let i = 0;
  let xargs: Effective['xargs'];
  while (i < words.length) {
    const w = words[i] ?? '';
    if (RESERVED.has(w) || /^[A-Za-z_]\w*=/.test(w)) {
      i++;
      continue;
    }
    const name = basename(w);
    if (!WRAPPERS.has(name)) return { name, args: words.slice(i + 1), word: w, ...(xargs ? { xargs } : {}) };
    if (name === 'xargs') xargs = {};
    i++;
    while (i < words.length) {
      const opt = words[i] ?? '';
      if (name === 'xargs' && xargs) {
        const replace = opt === '-I' ? words[i + 1] : /^-I./.test(opt) ? opt.slice(2) : /^(-i|--replace)$/.test(opt) ? '{}' : /^(-i|--replace=)./.test(opt) ? opt.replace(/^(-i|--replace=)/, '') : undefined;
        if (replace !== undefined) xargs.replace = replace;
      }
      // `command -v sudo` only looks the name up.
      if (name === 'command' && /^-[vV]+$/.test(opt)) return undefined;
      if (opt === '--') {
        i++;
        break;
      }
      if (opt.startsWith('-')) i += OPTION_WITH_VALUE.has(opt) ? 2 : 1;
      else if (/^[A-Za-z_]\w*=/.test(opt) || (name === 'timeout' && /^\d/.test(opt))) i++;
      else break;
    }
  }
  return undefined;
}

function isRecursiveFlag(arg: string): boolean {
  return arg === '--recursive' || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(arg);
}

function operands(args: string[]): string[] {
  const dd = args.indexOf('--');
  if (dd === -1) return args.filter((a) => !a.startsWith('-'));
  return [...args.slice(0, dd).filter((a) => !a.startsWith('-')), ...args.slice(dd + 1)];
}

function usesDownloader(script: Script): boolean {
  return script.some((p) => p.some((c) => DOWNLOADERS.has(effective(c.words)?.name ?? '') || c.nested.some(usesDownloader)));
}

/** What a command line knows as it goes: variables assigned so far and the folder it has cd'd to. */
interface LineState {
  vars: ShellVars;
  place: Place;
}

const copyState = (state: LineState): LineState => ({ vars: new Map(state.vars), place: { ...state.place } });

/** What flows into a command's stdin, where known: words (echo, printf, <<<), or a walk of everything under a folder (find). */
type Input = { words: string[] } | { everything: string } | undefined;

/** What a command writes to the next one in its pipeline, where known. */
function outputOf(cmd: SimpleCommand, eff: Effective | undefined, state: LineState): Input {
  if (!eff) return undefined;
  if (eff.name === 'find') {
    const root = findWalksEverything(eff.args, state.place);
    return root === undefined ? undefined : { everything: root };
  }
  if (eff.name !== 'echo' && eff.name !== 'printf') return undefined;
  const printed = staticOutput([[cmd]], state.vars);
  return printed === undefined ? undefined : { words: printed.split(/\s+/).filter((w) => w !== '') };
}

/** Why xargs running `eff` on `input` is denied: the command it really runs, checked as such. */
function checkXargs(eff: Effective, input: Input, state: LineState, depth: number): string | undefined {
  if (!input) return undefined;
  if ('everything' in input) {
    return DESTRUCTIVE.has(eff.name) ? `find ${input.everything} | xargs ${eff.name} deletes everything under ${input.everything}` : undefined;
  }
  const replace = eff.xargs?.replace;
  const runs = replace === undefined
    ? [[eff.word, ...eff.args, ...input.words]]
    : input.words.map((w) => [eff.word, ...eff.args].map((a) => a.split(replace).join(w)));
  for (const words of runs) {
    const why = checkCommand({ words, redirects: [], nested: [] }, depth, state, undefined);
    if (why) return why;
  }
  return undefined;
}

/** Why one simple command is denied, or undefined. `words`: its words expanded, when the caller has them. */
function checkCommand(cmd: SimpleCommand, depth: number, state: LineState, input: Input, words = expandCommand(cmd, state.vars).words): string | undefined {
  for (const r of cmd.redirects) if (r.out && DISK_DEVICE.test(r.target)) return `writes directly to the disk device ${r.target}`;
  const eff = effective(words);
  if (!eff) return undefined;
  const { name, args } = eff;

  if (name.includes(SUBSTITUTION)) {
    return `the command to run is computed by a command substitution (${eff.word}) whose output cannot be checked before it runs; run that part on its own first, then call the program by name`;
  }
  if (eff.xargs) {
    const herestring = cmd.redirects.find((r) => r.herestring);
    const fed: Input = herestring ? { words: expandCommand({ words: [herestring.target], redirects: [], nested: [] }, state.vars).words } : input;
    const why = checkXargs(eff, fed, state, depth);
    if (why) return why;
  }

  if (PRIVILEGE.has(name)) return `privilege escalation (${name}) is never allowed; the agent runs with your own rights only`;
  if (POWER.has(name)) return `${name} would shut down or restart the machine`;
  if ((name === 'init' || name === 'telinit') && /^[06]$/.test(operands(args)[0] ?? '')) return `${name} ${args.join(' ')} would shut down or restart the machine`;
  if (name === 'systemctl' && args.some((a) => ['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot'].includes(a))) {
    return 'systemctl would shut down or restart the machine';
  }
  if (/^mkfs(\..+)?$/.test(name) || name === 'mke2fs') return `${name} formats a filesystem`;
  if (name === 'rm' || name === 'chmod' || name === 'chown' || name === 'chgrp') {
    if (args.includes('--no-preserve-root')) return `${name} --no-preserve-root is never allowed`;
    const recursive = args.some((a) => (name === 'rm' ? isRecursiveFlag(a) : a === '-R' || a === '--recursive' || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(a)));
    const critical = criticalArg(operands(args), state.place);
    if (recursive && critical !== undefined) {
      return name === 'rm' ? `recursive delete of ${critical} would wipe the system or your home folder` : `recursive ${name} of ${critical} would break the system or your home folder`;
    }
  }
  if (name === 'dd') {
    const of = args.find((a) => a.startsWith('of=') && DISK_DEVICE.test(a.slice(3)));
    if (of) return `dd writes directly to the disk device ${of.slice(3)}`;
  }
  if (DISK_TOOLS.has(name)) {
    const dev = args.find((a) => DISK_DEVICE.test(a));
    if (dev) return `${name} would write to the disk device ${dev}`;
  }
  if (name === 'cp' && DISK_DEVICE.test(operands(args).at(-1) ?? '')) return 'cp would write directly to a disk device';
  const kills = killsEverything(name, args);
  if (kills) return kills;

  // Code handed to another shell is checked as its own script.
  const inner: string[] = [];
  if (SHELLS.has(name)) {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
    // Expansion may have split the code word: everything after -c is checked as the code (stricter, never looser).
    if (c !== -1 && c + 1 < args.length) inner.push(args.slice(c + 1).join(' '));
  }
  if (name === 'eval') inner.push(args.join(' '));
  if (name === 'find') {
    const everything = findDeletesEverything(args, state.place);
    if (everything) return everything;
    for (let k = 0; k < args.length; k++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k] ?? '')) continue;
      const end = args.findIndex((a, j) => j > k && (a === ';' || a === '+'));
      const sub = checkCommand({ words: args.slice(k + 1, end === -1 ? undefined : end), redirects: [], nested: [] }, depth, state, undefined);
      if (sub) return sub;
    }
  }
  // `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`, `. <(curl …)`.
  if ((SHELLS.has(name) || name === 'eval' || name === 'source' || name === '.') && cmd.nested.some(usesDownloader)) {
    return DOWNLOAD_TO_SHELL;
  }
  for (const code of inner) {
    const why = checkScript(code, depth + 1, copyState(state));
    if (why) return why;
  }
  // A substitution runs in a subshell: its cd and assignments stay there.
  for (const script of cmd.nested) {
    const why = checkParsed(script, depth + 1, copyState(state));
    if (why) return why;
  }
  return undefined;
}

const DOWNLOAD_TO_SHELL =
  'piping downloaded content into a shell runs code nobody has reviewed (an approval prompt can only show the URL, ' +
  'and the content can change after review); download it to a file, read it, then run the file';

function runsStdin(name: string, args: string[]): boolean {
  if (SHELLS.has(name)) return !args.some((a) => /^-[a-z]*c[a-z]*$/.test(a));
  if (INTERPRETERS.has(name)) return args.length === 0 || args.includes('-');
  return false;
}

function describe(cmd: SimpleCommand): string {
  const text = cmd.words.join(' ') || cmd.redirects.map((r) => `> ${r.target}`).join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Checks a script in order, carrying the line's state: `x=…` assignments and `cd` apply to what follows.
 * Subshells are not told apart from the main line (the parser flattens them), so a `cd` in `( … )` is taken
 * to last: at worst a later command is judged from the wrong folder, which can only refuse more.
 */
function checkParsed(script: Script, depth: number, state: LineState): string | undefined {
  for (const pipeline of script) {
    let downloaded = false;
    let input: Input;
    for (const cmd of pipeline) {
      const words = expandCommand(cmd, state.vars).words;
      const why = checkCommand(cmd, depth, state, input, words);
      if (why) return `"${describe(cmd)}": ${why}`;
      const eff = effective(words);
      if (downloaded && eff && runsStdin(eff.name, eff.args)) return `"${describe(cmd)}": ${DOWNLOAD_TO_SHELL}`;
      if (eff && DOWNLOADERS.has(eff.name)) downloaded = true;
      input = outputOf(cmd, eff, state);
      recordAssignments(cmd, state.vars);
      if (eff?.name === 'cd' || eff?.name === 'pushd') state.place.cwd = cdTarget(eff.args, state.place);
      else if (eff?.name === 'popd') state.place.cwd = undefined;
    }
  }
  return undefined;
}

/** A function whose body calls itself in the background: `:(){ :|:& };:` and its renamed kin. */
function forkBomb(command: string): boolean {
  // A name may only start where a word starts (the lookbehind): tried at every position of a long word,
  // `[^…]+\s*\(` backtracked over the rest of it each time — a 64 KB heredoc took seconds to check.
  const defs = /(?:function\s+([^\s(){}|;&<>]+)\s*(?:\(\s*\))?|(?<![^\s;&|(){}<>])([^\s(){}|;&<>]+)\s*\(\s*\))\s*\{([^}]*)\}/g;
  for (const m of command.matchAll(defs)) {
    const name = m[1] ?? m[2] ?? '';
    const body = m[3] ?? '';
    if (body.split(/[\s|&;()]+/).includes(name) && /(^|[^&>])&($|[^&>])/.test(body)) return true;
  }
  return /fork\s+while\s+fork|while\s*\(?\s*(1|true|True)\s*\)?\s*:?\s*os\.fork\(\)/.test(command);
}

/** Why a script (at some nesting depth) is denied, or undefined. Throws TooDeep. */
function checkScript(command: string, depth: number, state: LineState): string | undefined {
  if (forkBomb(command)) return 'this looks like a fork bomb (a function that keeps spawning copies of itself)';
  return checkParsed(parseScript(command, depth), depth, state);
}

/**
 * Whether `command` must be refused whatever the permission mode. `context` (the workspace the command starts
 * in, the user's home folder) lets relative paths count: `rm -rf ..` from a workspace directly in HOME.
 */
export function checkBashCommand(command: string, context: Partial<Place> = {}): BashCheck {
  try {
    const why = checkScript(command, 0, { vars: initialVars(), place: { cwd: context.cwd, home: context.home } });
    return why ? { denied: true, reason: `denied in every permission mode: ${why}` } : { denied: false };
  } catch (err) {
    if (err instanceof TooDeep) return { denied: true, reason: 'denied: the command nests shells or substitutions too deeply to check' };
    throw err;
  }
}
