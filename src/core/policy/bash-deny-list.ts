/**
 * Commands no permission mode may run: privilege escalation, machine shutdown, wiping the root or
 * home folder, formatting or raw-writing disks, fork bombs, and downloaded code piped into a shell.
 *
 * Matching is on parsed shell words, not substrings, so `echo sudoku`, `grep reboot notes.txt` and
 * `git rm -rf build/` pass. Every sub-command is checked: lists (; && || &), pipelines, subshells,
 * $( ) and backticks, process substitution, `bash -c '...'`, `eval ...` and `find -exec`.
 * This is a safety net against accidents and naive injections, not a sandbox: a determined script
 * can always hide a command (variables, base64); prompts and modes carry the rest.
 */

import { parseScript, TooDeep, type Script, type SimpleCommand } from './shell-parse';

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
const SYSTEM_DIRS = new Set(
  ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'usr', 'var', 'Users', 'System', 'Library', 'Applications', 'private'].map((d) => `/${d}`),
);
const DISK_DEVICE = /^\/dev\/(sd[a-z]|nvme\d|vd[a-z]|hd[a-z]|xvd[a-z]|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/)/;

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** The command actually run once reserved words, VAR=x prefixes and wrappers are peeled off. */
function effective(words: string[]): { name: string; args: string[] } | undefined {
  let i = 0;
  while (i < words.length) {
    const w = words[i] ?? '';
    if (RESERVED.has(w) || /^[A-Za-z_]\w*=/.test(w)) {
      i++;
      continue;
    }
    const name = basename(w);
    if (!WRAPPERS.has(name)) return { name, args: words.slice(i + 1) };
    i++;
    while (i < words.length) {
      const opt = words[i] ?? '';
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

/** `/`, `/*`, `~`, `$HOME/`, `/usr` and the like: deleting or re-owning these wrecks the machine or the user. */
function isCriticalTarget(target: string): boolean {
  let s = target.replace(/\$\{?HOME\}?/g, '~').replace(/\/+/g, '/');
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(/\/(\*|\.)$/, '').replace(/(.)\/$/, '$1');
  }
  return s === '' || s === '/' || s === '~' || /^~[a-z_][\w-]*$/.test(s) || SYSTEM_DIRS.has(s);
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

/** Why one simple command is denied, or undefined. */
function checkCommand(cmd: SimpleCommand, depth: number): string | undefined {
  for (const r of cmd.redirects) if (r.out && DISK_DEVICE.test(r.target)) return `writes directly to the disk device ${r.target}`;
  const eff = effective(cmd.words);
  if (!eff) return undefined;
  const { name, args } = eff;

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
    const critical = operands(args).find(isCriticalTarget);
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

  // Code handed to another shell is checked as its own script.
  const inner: string[] = [];
  if (SHELLS.has(name)) {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
    const code = c === -1 ? undefined : args[c + 1];
    if (code !== undefined) inner.push(code);
  }
  if (name === 'eval') inner.push(args.join(' '));
  if (name === 'find') {
    for (let k = 0; k < args.length; k++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k] ?? '')) continue;
      const end = args.findIndex((a, j) => j > k && (a === ';' || a === '+'));
      const sub = checkCommand({ words: args.slice(k + 1, end === -1 ? undefined : end), redirects: [], nested: [] }, depth);
      if (sub) return sub;
    }
  }
  // `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`, `. <(curl …)`.
  if ((SHELLS.has(name) || name === 'eval' || name === 'source' || name === '.') && cmd.nested.some(usesDownloader)) {
    return DOWNLOAD_TO_SHELL;
  }
  for (const code of inner) {
    const why = checkScript(code, depth + 1);
    if (why) return why;
  }
  for (const script of cmd.nested) {
    const why = checkParsed(script, depth + 1);
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

function checkParsed(script: Script, depth: number): string | undefined {
  for (const pipeline of script) {
    let downloaded = false;
    for (const cmd of pipeline) {
      const why = checkCommand(cmd, depth);
      if (why) return `"${describe(cmd)}": ${why}`;
      const eff = effective(cmd.words);
      if (downloaded && eff && runsStdin(eff.name, eff.args)) return `"${describe(cmd)}": ${DOWNLOAD_TO_SHELL}`;
      if (eff && DOWNLOADERS.has(eff.name)) downloaded = true;
    }
  }
  return undefined;
}

/** A function whose body calls itself in the background: `:(){ :|:& };:` and its renamed kin. */
function forkBomb(command: string): boolean {
  const defs = /(?:function\s+([^\s(){}|;&<>]+)\s*(?:\(\s*\))?|([^\s(){}|;&<>]+)\s*\(\s*\))\s*\{([^}]*)\}/g;
  for (const m of command.matchAll(defs)) {
    const name = m[1] ?? m[2] ?? '';
    const body = m[3] ?? '';
    if (body.split(/[\s|&;()]+/).includes(name) && /(^|[^&>])&($|[^&>])/.test(body)) return true;
  }
  return /fork\s+while\s+fork|while\s*\(?\s*(1|true|True)\s*\)?\s*:?\s*os\.fork\(\)/.test(command);
}

/** Why a script (at some nesting depth) is denied, or undefined. Throws TooDeep. */
function checkScript(command: string, depth: number): string | undefined {
  if (forkBomb(command)) return 'this looks like a fork bomb (a function that keeps spawning copies of itself)';
  return checkParsed(parseScript(command, depth), depth);
}

/** Whether `command` must be refused whatever the permission mode. */
export function checkBashCommand(command: string): BashCheck {
  try {
    const why = checkScript(command, 0);
    return why ? { denied: true, reason: `denied in every permission mode: ${why}` } : { denied: false };
  } catch (err) {
    if (err instanceof TooDeep) return { denied: true, reason: 'denied: the command nests shells or substitutions too deeply to check' };
    throw err;
  }
}
