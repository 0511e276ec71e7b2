/**
 * `read_file`: returns a text file's lines (a window of them with offset/limit), confined to the
 * workspace. Only regular files are opened (a FIFO would block); binary files are refused rather than
 * dumped as mojibake into the model's context; a file that is not UTF-8 is decoded and the model told so.
 */
import type { FileTracker } from './file-tracker';
import { checkTarget, describeFsError } from './file-access';
import { resolveInside } from './path-confinement';
import { encodingNote, sniffText } from './text-encoding';
import { asRecord, type FileOps, type ParseResult, type Tool } from './types';

export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}

/** Without a limit a huge file would flood the context; the model can page on with offset. */
const DEFAULT_LIMIT = 2000;

function optionalPositiveInt(rec: Record<string, unknown>, key: string): number | undefined | string {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return `${key} must be a positive integer`;
  return v;
}

/** Splits text into lines without inventing an empty last line for a trailing newline. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `tracker`: stamps what each agent read, for the stale-write guard (changes/stale-guard.ts). */
export function createReadFileTool(workdir: string, ops: FileOps, tracker?: FileTracker): Tool<ReadFileInput> {
  return {
    name: 'read_file',
    description:
      'Read a text file in the workspace: its lines as-is (no line numbers); a cut output ends with a note on what remains. ' +
      'Binary files are refused.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the workspace root.' },
        offset: { type: 'integer', minimum: 1, description: 'First line (1-based).' },
        limit: { type: 'integer', minimum: 1, description: `Lines (default ${DEFAULT_LIMIT}).` },
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

    describe: (input) => ({ summary: input.path, paths: [input.path] }),

    async execute(input, ctx) {
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      const target = await checkTarget(ops, where.absPath, input.path, 'read');
      if (!target.ok) return { content: target.reason, isError: true };
      let buf: Buffer;
      try {
        buf = await ops.readFile(where.absPath, ctx.signal);
      } catch (err) {
        return { content: describeFsError(err, input.path), isError: true };
      }
      // The whole file is stamped, whatever window of it is shown: the agent has seen this version.
      await tracker?.noteRead(ctx.agentId, where.absPath, buf);
      const sniffed = sniffText(buf);
      if (sniffed.kind === 'binary') {
        return { content: `${input.path} looks like a binary file (${buf.length} bytes); read_file only returns text`, isError: true };
      }
      const note = encodingNote(sniffed);
      const noted = (content: string): string => (note ? `${content}\n[${input.path} is ${note}; edit_file keeps its encoding]` : content);
      const lines = splitLines(sniffed.text);
      if (lines.length === 0) return { content: `(${input.path} is empty)` };

      const offset = input.offset ?? 1;
      if (offset > lines.length) {
        return { content: `offset ${offset} is past the end of ${input.path} (${lines.length} lines)`, isError: true };
      }
      const limit = input.limit ?? DEFAULT_LIMIT;
      const end = Math.min(lines.length, offset - 1 + limit);
      const shown = lines.slice(offset - 1, end).join('\n');
      const remaining = lines.length - end;
      if (remaining <= 0) return { content: noted(shown) };
      return {
        content: noted(`${shown}\n[showed lines ${offset}-${end} of ${lines.length}; ${remaining} more lines, continue with offset=${end + 1}]`),
      };
    },
  };
}
