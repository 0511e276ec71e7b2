/**
 * `read_file`: returns a text file's lines (a window of them with offset/limit), confined to the
 * workspace. Binary files are refused rather than dumped as mojibake into the model's context.
 */
import { resolveInside } from './path-confinement';
import type { FileOps, ParseResult, Tool } from './types';

export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}

/** Without a limit a huge file would flood the context; the model can page on with offset. */
const DEFAULT_LIMIT = 2000;
/** Git's heuristic: a NUL byte in the first 8 KB means binary. */
const BINARY_SNIFF_BYTES = 8000;

export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** A one-line reason for a failed fs call, naming the path as the model gave it. */
export function describeFsError(err: unknown, displayPath: string): string {
  const code = err instanceof Error && 'code' in err ? String(err.code) : '';
  switch (code) {
    case 'ENOENT':
      return `file not found: ${displayPath}`;
    case 'EISDIR':
      return `${displayPath} is a directory, not a file (use glob to list files)`;
    case 'ENOTDIR':
      return `a parent of ${displayPath} is a file, not a directory`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${displayPath}`;
    default:
      return `cannot access ${displayPath}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Shared input check: a plain object (extra fields are tolerated). */
export function asRecord(raw: unknown): Record<string, unknown> | undefined {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
}

function optionalPositiveInt(rec: Record<string, unknown>, key: string): number | undefined | string {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return `${key} must be a positive integer`;
  return v;
}

/** Splits text into lines without inventing an empty last line for a trailing newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function createReadFileTool(workdir: string, ops: FileOps): Tool<ReadFileInput> {
  return {
    name: 'read_file',
    description:
      'Read a text file in the workspace. Returns its lines as-is (no line numbers). ' +
      `offset is the 1-based first line to return, limit the maximum number of lines (default ${DEFAULT_LIMIT}); ` +
      'when the output is cut, a final bracketed note says how many lines remain. Binary files are refused.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root (or absolute inside it).' },
        offset: { type: 'integer', minimum: 1, description: '1-based line number to start from.' },
        limit: { type: 'integer', minimum: 1, description: 'Maximum number of lines to return.' },
      },
      required: ['path'],
    },
    kind: 'read',

    parse(raw): ParseResult<ReadFileInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'read_file input must be an object with a "path" string' };
      if (typeof rec.path !== 'string' || rec.path === '') return { ok: false, error: 'read_file needs "path" (a non-empty string)' };
      const offset = optionalPositiveInt(rec, 'offset');
      if (typeof offset === 'string') return { ok: false, error: offset };
      const limit = optionalPositiveInt(rec, 'limit');
      if (typeof limit === 'string') return { ok: false, error: limit };
      return { ok: true, input: { path: rec.path, offset, limit } };
    },

    paths: (input) => [input.path],
    summarize: (input) => input.path,

    async execute(input) {
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      let buf: Buffer;
      try {
        buf = await ops.readFile(where.absPath);
      } catch (err) {
        return { content: describeFsError(err, input.path), isError: true };
      }
      if (looksBinary(buf)) {
        return { content: `${input.path} looks like a binary file (${buf.length} bytes); read_file only returns text`, isError: true };
      }
      const lines = splitLines(buf.toString('utf8'));
      if (lines.length === 0) return { content: `(${input.path} is empty)` };

      const offset = input.offset ?? 1;
      if (offset > lines.length) {
        return { content: `offset ${offset} is past the end of ${input.path} (${lines.length} lines)`, isError: true };
      }
      const limit = input.limit ?? DEFAULT_LIMIT;
      const end = Math.min(lines.length, offset - 1 + limit);
      const shown = lines.slice(offset - 1, end).join('\n');
      const remaining = lines.length - end;
      if (remaining <= 0) return { content: shown };
      return {
        content: `${shown}\n[showed lines ${offset}-${end} of ${lines.length}; ${remaining} more lines, continue with offset=${end + 1}]`,
      };
    },
  };
}
