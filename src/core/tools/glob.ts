/**
 * `glob`: lists workspace files matching a pattern, honouring .gitignore files (nested ones too) and
 * never showing node_modules or .git, so the model sees the project rather than its build debris.
 *
 *   rg --files (ignore rules applied by ripgrep, links not followed) ─▶ picomatch(pattern, no dotfiles
 *   unless named) ─▶ only entries whose real folder is inside the workspace ─▶ sorted, capped
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { quotePath } from './path-quote';
import { ALWAYS_EXCLUDED, ripgrepAt, runRipgrep, type RipgrepPath } from './ripgrep';
import { asRecord, type ParseResult, type Tool } from './types';

export interface GlobInput {
  pattern: string;
}

const MAX_ENTRIES = 1000;

/** A `..` segment anywhere, including inside braces or extglob groups: `{..,src}/x`, `@(..)/x`. */
const PARENT_SEGMENT = /(^|[/\\{,(|])\.\.($|[/\\},)|])/;

function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function patternProblem(pattern: string): string | undefined {
  if (pattern.includes('\0')) return 'pattern contains a NUL byte';
  const bare = pattern.replace(/^!/, '');
  if (bare.startsWith('~')) return `pattern must be relative to the workspace, not the home folder: ${pattern}`;
  if (path.isAbsolute(bare) || /^[A-Za-z]:[/\\]/.test(bare)) {
    return `pattern must be relative to the workspace root, not absolute: ${pattern}`;
  }
  if (PARENT_SEGMENT.test(bare)) return `pattern escapes the workspace with "..": ${pattern}`;
  return undefined;
}

export function createGlobTool(workdir: string, ripgrep: RipgrepPath): Tool<GlobInput> {
  return {
    name: 'glob',
    description:
      'List workspace files matching a glob pattern (e.g. "src/**/*.ts", "**/package.json"), sorted, one per line; an odd name is C-quoted as git does. ' +
      `.gitignored files, node_modules and .git are skipped; dotfiles match only when named. At most ${MAX_ENTRIES} entries.`,
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' } },
      required: ['pattern'],
    },
    kind: 'read',

    parse(raw): ParseResult<GlobInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'glob input must be an object with a "pattern" string' };
      if (typeof rec.pattern !== 'string' || rec.pattern.trim() === '') return { ok: false, error: 'glob needs "pattern" (a non-empty string)' };
      return { ok: true, input: { pattern: rec.pattern } };
    },

    // The pattern is not a path; the tool confines itself (pattern checks + result filtering).
    describe: (input) => ({ summary: input.pattern, paths: [] }),

    async execute(input, ctx) {
      const problem = patternProblem(input.pattern);
      if (problem) return { content: problem, isError: true };
      let root: string;
      try {
        root = await fs.realpath(workdir);
      } catch {
        return { content: `workspace folder is not accessible: ${workdir}`, isError: true };
      }

      const rgPath = ripgrepAt(ripgrep);
      if (!rgPath) return { content: 'glob is not available: ripgrep (rg) was not found on this machine', isError: true };
      // --null: each name ends with a NUL, so a name holding a newline stays one name.
      const listed = await runRipgrep(rgPath, ['--files', '--null', '--hidden', ...ALWAYS_EXCLUDED.flatMap((g) => ['--glob', g])], { cwd: root, signal: ctx.signal });
      if (listed.code !== 0 && listed.code !== 1) {
        return { content: `glob failed for ${input.pattern}: ${listed.stderr.trim().split('\n')[0] || `ripgrep exited ${listed.code}`}`, isError: true };
      }
      const matches = picomatch(input.pattern.replace(/^\.\//, ''), { dot: false });
      const found = listed.stdout
        .split('\0')
        .filter((p) => p !== '')
        .map((p) => p.replace(/^\.\//, ''))
        .filter((p) => matches(p));

      // Symlinks are not descended while walking, but a pattern whose fixed prefix names a linked
      // folder (`linked/**`) is read through the link: keep only entries whose real folder is inside.
      const realDirs = new Map<string, Promise<boolean>>();
      const dirInside = (dir: string): Promise<boolean> => {
        let known = realDirs.get(dir);
        if (!known) {
          known = fs.realpath(path.join(root, dir)).then(
            (real) => isInside(root, real),
            () => false,
          );
          realDirs.set(dir, known);
        }
        return known;
      };
      const checked = await Promise.all(
        found.map(async (p) => isInside(root, path.resolve(root, p)) && !/(^|\/)(node_modules|\.git)(\/|$)/.test(p) && (await dirInside(path.posix.dirname(p)))),
      );
      const entries = found.filter((_, k) => checked[k]).sort();
      if (entries.length === 0) return { content: `No files match ${input.pattern}` };
      const shown = entries.slice(0, MAX_ENTRIES).map(quotePath).join('\n');
      const more = entries.length - MAX_ENTRIES;
      return { content: more > 0 ? `${shown}\n[${more} more files not shown; use a narrower pattern]` : shown };
    },
  };
}
