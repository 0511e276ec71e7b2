/**
 * Which bash commands only look: `ls`, `wc -l`, `git status`, `grep -rn x src | head`. A manifest (the Changes
 * row, the task result's footer, a revert's "commands are not undone") lists the commands that may have
 * changed something; a look is not a change. Parsed with the bash deny list's parser (every command of a
 * list, pipeline, subshell or substitution must be a look, and no output may go to a file), else it counts:
 * an unknown program, `sed -i`, `find -delete`, `git commit`, `> out.txt`… When in doubt, a command counts.
 */
import { parseScript, type SimpleCommand } from '../policy/shell-parse';

/** Programs that read and print, whatever their arguments (output redirection is checked apart). */
const LOOKS = new Set([
  'ls', 'll', 'wc', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'stat', 'file',
  'du', 'df', 'which', 'type', 'tree', 'test', '[', 'true', 'false', 'date', 'whoami', 'uname', 'id', 'hostname', 'cut',
  'tr', 'nl', 'diff', 'cmp', 'basename', 'dirname', 'realpath', 'readlink', 'cd', 'jq', 'less', 'more', 'column', 'md5sum',
  'sha1sum', 'sha256sum', 'od', 'hexdump', 'xxd', 'strings', 'env', 'printenv', 'ps', 'sleep', 'tac', 'rev', 'fold', 'expand',
]);

/** git subcommands that only read the repository. */
const GIT_LOOKS = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'grep', 'describe', 'shortlog', 'cat-file', 'reflog']);

/** `find` actions that change or write files. */
const FIND_WRITES = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;

export function isReadOnlyCommand(command: string): boolean {
  let script;
  try {
    script = parseScript(command, 0);
  } catch {
    return false;
  }
  const commands = script.flat();
  return commands.length > 0 && commands.every(looks);
}

function looks(cmd: SimpleCommand): boolean {
  if (cmd.redirects.some((r) => r.out && r.target !== '/dev/null')) return false;
  if (!cmd.nested.every((s) => s.flat().every(looks))) return false;
  return programLooks(cmd.words);
}

/** The program and its arguments only read and print (redirections and substitutions aside). */
export function programLooks(words: readonly string[]): boolean {
  // Leading assignments (FOO=1 ls) set the command's environment only.
  const start = words.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w));
  if (start === -1) return false; // a bare assignment: a shell variable, harmless, but nothing to call a look either
  const [program = '', ...args] = words.slice(start);
  const name = program.split('/').pop() ?? program;
  if (name === 'git') return gitLooks(args);
  if (name === 'find') return !args.some((a) => FIND_WRITES.test(a));
  if (name === 'sort') return !args.some((a) => a === '-o' || a.startsWith('--output'));
  if (name === 'env' || name === 'sleep') return args.every((a) => a.startsWith('-') || /^\d/.test(a));
  return LOOKS.has(name);
}

function gitLooks(args: string[]): boolean {
  // Global options before the subcommand (-C dir, --no-pager, -c k=v).
  let i = 0;
  while (i < args.length && (args[i] ?? '').startsWith('-')) i += args[i] === '-C' || args[i] === '-c' ? 2 : 1;
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  if (GIT_LOOKS.has(sub)) return !rest.some((a) => a === '--output' || a.startsWith('--output='));
  // `git branch` / `git remote` / `git tag` / `git stash list` only list when given no name to create or delete.
  if (sub === 'branch' || sub === 'tag') return rest.every((a) => ['-a', '-r', '-l', '--list', '-v', '-vv', '--all', '--show-current'].includes(a));
  if (sub === 'remote') return rest.every((a) => a === '-v' || a === '--verbose');
  if (sub === 'stash') return rest[0] === 'list' || rest[0] === 'show';
  if (sub === 'config') return rest.some((a) => a === '--get' || a === '--list' || a === '-l' || a === '--get-all');
  return false;
}
