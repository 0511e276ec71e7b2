/**
 * `grep`: searches file contents with ripgrep, as Claude Code's Grep does — a regex, an optional path
 * (file or folder inside the workspace) and glob filter, three output modes, context lines, a cap on
 * the lines returned. .gitignore is respected; node_modules and .git are never searched.
 */
import { realpath } from 'node:fs/promises';
import { relative } from 'node:path';
import { resolveInside } from './path-confinement';
import { quotePath } from './path-quote';
import { ALWAYS_EXCLUDED, ripgrepAt, runRipgrep, type RipgrepPath } from './ripgrep';
import { asRecord, type ParseResult, type Tool } from './types';

export type GrepMode = 'files_with_matches' | 'content' | 'count';

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  output_mode: GrepMode;
  caseInsensitive: boolean;
  lineNumbers: boolean;
  context?: number;
  head_limit?: number;
}

const DEFAULT_HEAD_LIMIT = 500;
const MODES: readonly GrepMode[] = ['files_with_matches', 'content', 'count'];

function optionalInt(rec: Record<string, unknown>, key: string, min: number): number | undefined | string {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) return `"${key}" must be an integer ≥ ${min}`;
  return v;
}

export function createGrepTool(workdir: string, ripgrep: RipgrepPath): Tool<GrepInput> {
  return {
    name: 'grep',
    description:
      'Search workspace files with a ripgrep regular expression (.gitignored files, node_modules and .git skipped). ' +
      'output_mode: files_with_matches (default), content (matching lines; -n, -C) or count. An odd file name is C-quoted as git does.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        path: { type: 'string', description: 'File or folder (default: the workspace).' },
        glob: { type: 'string', description: 'Only files matching it, e.g. "*.ts".' },
        output_mode: { type: 'string', enum: [...MODES] },
        '-i': { type: 'boolean', description: 'Case-insensitive.' },
        '-n': { type: 'boolean', description: 'Line numbers (default true).' },
        '-C': { type: 'integer', minimum: 0, description: 'Context lines.' },
        head_limit: { type: 'integer', minimum: 1, description: `At most this many lines (default ${DEFAULT_HEAD_LIMIT}).` },
      },
      required: ['pattern'],
    },
    kind: 'read',

    parse(raw): ParseResult<GrepInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'grep input must be an object with a "pattern" string' };
      if (typeof rec.pattern !== 'string' || rec.pattern === '') return { ok: false, error: 'grep needs "pattern" (a non-empty string)' };
      for (const key of ['path', 'glob'] as const) {
        if (rec[key] !== undefined && (typeof rec[key] !== 'string' || rec[key] === '')) return { ok: false, error: `"${key}" must be a non-empty string` };
      }
      const mode = rec.output_mode ?? 'files_with_matches';
      if (!MODES.includes(mode as GrepMode)) return { ok: false, error: `"output_mode" must be one of ${MODES.join(', ')}` };
      const context = optionalInt(rec, '-C', 0);
      const head = optionalInt(rec, 'head_limit', 1);
      if (typeof context === 'string') return { ok: false, error: context };
      if (typeof head === 'string') return { ok: false, error: head };
      return {
        ok: true,
        input: {
          pattern: rec.pattern,
          output_mode: mode as GrepMode,
          caseInsensitive: rec['-i'] === true,
          lineNumbers: rec['-n'] !== false,
          ...(typeof rec.path === 'string' ? { path: rec.path } : {}),
          ...(typeof rec.glob === 'string' ? { glob: rec.glob } : {}),
          ...(context !== undefined ? { context } : {}),
          ...(head !== undefined ? { head_limit: head } : {}),
        },
      };
    },

    describe: (input) => ({
      summary: `${input.pattern}${input.path ? ` in ${input.path}` : ''}${input.glob ? ` (${input.glob})` : ''}`,
      paths: input.path ? [input.path] : [],
    }),

    async execute(input, ctx) {
      const rgPath = ripgrepAt(ripgrep);
      if (!rgPath) return { content: 'grep is not available: ripgrep (rg) was not found on this machine', isError: true };
      let root: string;
      try {
        root = await realpath(workdir);
      } catch {
        return { content: `workspace folder is not accessible: ${workdir}`, isError: true };
      }
      let target = '.';
      if (input.path) {
        const where = await resolveInside(workdir, input.path);
        if (!where.ok) return { content: where.reason, isError: true };
        target = relative(root, where.absPath) || '.';
      }
      // --null: a NUL ends each file name, so a name holding a newline is read as one name (outputLines).
      const args = ['--color', 'never', '--null', '--max-columns', '500', '--max-columns-preview', '--hidden'];
      for (const exclude of ALWAYS_EXCLUDED) args.push('--glob', exclude);
      if (input.glob) args.push('--glob', input.glob);
      if (input.caseInsensitive) args.push('--ignore-case');
      if (input.output_mode === 'files_with_matches') args.push('--files-with-matches');
      else if (input.output_mode === 'count') args.push('--count', '--with-filename');
      else {
        args.push('--with-filename', input.lineNumbers ? '--line-number' : '--no-line-number');
        if (input.context !== undefined) args.push('--context', String(input.context));
      }
      args.push('--regexp', input.pattern, '--', target);
      const r = await runRipgrep(rgPath, args, { cwd: root, signal: ctx.signal });
      if (ctx.signal.aborted) return { content: 'grep cancelled', isError: true };
      if (r.code === 1) return { content: `No matches for ${input.pattern}${input.path ? ` in ${input.path}` : ''}` };
      if (r.code !== 0) return { content: `grep failed: ${r.stderr.trim().split('\n')[0] || `ripgrep exited ${r.code}`}`, isError: true };
      const lines = outputLines(r.stdout, input.output_mode, input.lineNumbers);
      const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
      const shown = lines.slice(0, limit).join('\n');
      const more = lines.length - limit;
      return { content: more > 0 || r.truncated ? `${shown}\n[${more > 0 ? `${more} more lines` : 'more'} not shown; narrow the search or raise head_limit]` : shown };
    },
  };
}

/**
 * ripgrep's --null output as the lines the model reads, each file name quoted when it must be (path-quote.ts):
 *
 *   files_with_matches   name\0name\0…                      →  name
 *   count                name\0N\n…                          →  name:N
 *   content              name\0L:text\n, name\0L-text\n, --\n  →  name:L:text, name-L-text, --
 *
 * Files and counts are sorted by name (as written, before quoting); a record cut off at the end (output over the
 * cap) is dropped.
 */
function outputLines(stdout: string, mode: GrepMode, lineNumbers = true): string[] {
  const name = (raw: string): string => quotePath(raw.replace(/^\.\//, ''));
  if (mode === 'files_with_matches') return stdout.split('\0').filter((n) => n !== '').sort().map(name);
  const records: [string, string][] = [];
  let at = 0;
  while (at < stdout.length) {
    // Context groups are parted by a `--` line; a name is never one (ripgrep prints them from the target down).
    if (stdout.startsWith('--\n', at)) {
      records.push(['--', '']);
      at += 3;
      continue;
    }
    const nul = stdout.indexOf('\0', at);
    const end = nul === -1 ? -1 : stdout.indexOf('\n', nul);
    if (end === -1) break;
    const rest = stdout.slice(nul + 1, end);
    // With line numbers, ripgrep's `L:` (a match) or `L-` (context) follows the name; the name takes the same mark.
    const sep = mode === 'content' && lineNumbers && /^\d+-/.test(rest) ? '-' : ':';
    records.push([stdout.slice(at, nul), `${sep}${rest}`]);
    at = end + 1;
  }
  if (mode === 'count') records.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return records.map(([file, rest]) => (file === '--' && rest === '' ? '--' : `${name(file)}${rest}`));
}
