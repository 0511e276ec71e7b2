/**
 * `edit_file`: replaces one exact, unique snippet of an existing file. Uniqueness is required so an
 * edit can never land on the wrong one of several look-alike spots; the error says how to fix the call.
 */
import { resolveInside } from './path-confinement';
import { asRecord, describeFsError, looksBinary } from './read-file';
import type { FileOps, ParseResult, Tool } from './types';

export interface EditFileInput {
  path: string;
  old_text: string;
  new_text: string;
}

/** Counts occurrences, overlapping ones included: "aa" in "aaa" is ambiguous, so it counts twice. */
function countOccurrences(haystack: string, needle: string): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    if (first === -1) first = i;
    count++;
  }
  return { count, first };
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export function createEditFileTool(workdir: string, ops: FileOps): Tool<EditFileInput> {
  return {
    name: 'edit_file',
    description:
      'Replace old_text with new_text in an existing workspace file. old_text must match the file exactly ' +
      '(whitespace included) and occur exactly once; include enough surrounding lines to make it unique. ' +
      'To create a file use write_file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root (or absolute inside it).' },
        old_text: { type: 'string', description: 'Exact text to replace; must occur exactly once in the file.' },
        new_text: { type: 'string', description: 'Replacement text (may be empty to delete old_text).' },
      },
      required: ['path', 'old_text', 'new_text'],
    },
    kind: 'write',

    parse(raw): ParseResult<EditFileInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'edit_file input must be an object with "path", "old_text" and "new_text" strings' };
      if (typeof rec.path !== 'string' || rec.path === '') return { ok: false, error: 'edit_file needs "path" (a non-empty string)' };
      if (typeof rec.old_text !== 'string') return { ok: false, error: 'edit_file needs "old_text" (a string)' };
      if (typeof rec.new_text !== 'string') return { ok: false, error: 'edit_file needs "new_text" (a string; may be empty)' };
      return { ok: true, input: { path: rec.path, old_text: rec.old_text, new_text: rec.new_text } };
    },

    paths: (input) => [input.path],
    summarize: (input) => input.path,

    async execute(input) {
      if (input.old_text === '') {
        return { content: 'old_text is empty; give the exact text to replace (to create or replace a whole file use write_file)', isError: true };
      }
      if (input.old_text === input.new_text) {
        return { content: 'old_text and new_text are identical; nothing to change', isError: true };
      }
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      let buf: Buffer;
      try {
        buf = await ops.readFile(where.absPath);
      } catch (err) {
        const msg = describeFsError(err, input.path);
        return { content: msg.startsWith('file not found') ? `${msg} (use write_file to create it)` : msg, isError: true };
      }
      if (looksBinary(buf)) return { content: `${input.path} looks like a binary file; edit_file only edits text`, isError: true };
      const text = buf.toString('utf8');

      let oldText = input.old_text;
      let newText = input.new_text;
      let found = countOccurrences(text, oldText);
      // Models write "\n"; a CRLF file would never match. Retry in the file's own line endings.
      if (found.count === 0 && text.includes('\r\n') && !oldText.includes('\r')) {
        oldText = oldText.replace(/\n/g, '\r\n');
        newText = newText.replace(/\r?\n/g, '\r\n');
        found = countOccurrences(text, oldText);
      }
      if (found.count === 0) {
        return { content: `old_text not found in ${input.path}; read the file and copy the text exactly (whitespace included)`, isError: true };
      }
      if (found.count > 1) {
        return {
          content: `old_text occurs ${found.count} times in ${input.path}; include more surrounding lines to make it unique`,
          isError: true,
        };
      }

      const updated = text.slice(0, found.first) + newText + text.slice(found.first + oldText.length);
      try {
        await ops.writeFileAtomic(where.absPath, updated);
      } catch (err) {
        return { content: describeFsError(err, input.path), isError: true };
      }
      const startLine = lineOf(text, found.first);
      const removed = oldText.split('\n').length;
      const added = newText.split('\n').length;
      return { content: `Edited ${input.path} at line ${startLine}: replaced ${removed} line(s) with ${added} line(s)` };
    },
  };
}
