/**
 * `write_file`: creates or replaces a whole file inside the workspace, atomically, making parent
 * folders as needed. For small changes to an existing file the model should prefer edit_file.
 */
import { resolveInside } from './path-confinement';
import { asRecord, describeFsError } from './read-file';
import type { FileOps, ParseResult, Tool } from './types';

export interface WriteFileInput {
  path: string;
  content: string;
}

export function createWriteFileTool(workdir: string, ops: FileOps): Tool<WriteFileInput> {
  return {
    name: 'write_file',
    description:
      'Create or overwrite a file in the workspace with the given content (parent folders are created). ' +
      'Replaces the whole file: for a small change to an existing file use edit_file instead.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root (or absolute inside it).' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
    },
    kind: 'write',

    parse(raw): ParseResult<WriteFileInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'write_file input must be an object with "path" and "content" strings' };
      if (typeof rec.path !== 'string' || rec.path === '') return { ok: false, error: 'write_file needs "path" (a non-empty string)' };
      if (typeof rec.content !== 'string') return { ok: false, error: 'write_file needs "content" (a string; may be empty)' };
      return { ok: true, input: { path: rec.path, content: rec.content } };
    },

    paths: (input) => [input.path],
    summarize: (input) => input.path,

    async execute(input) {
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      const existed = await ops.exists(where.absPath);
      try {
        await ops.writeFileAtomic(where.absPath, input.content);
      } catch (err) {
        return { content: describeFsError(err, input.path), isError: true };
      }
      const bytes = Buffer.byteLength(input.content, 'utf8');
      return { content: `${existed ? 'Overwrote' : 'Created'} ${input.path} (${bytes} bytes written)` };
    },
  };
}
