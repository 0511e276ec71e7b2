/**
 * `edit_file`: replaces one exact, unique snippet of an existing file. Uniqueness is required so an
 * edit can never land on the wrong one of several look-alike spots; the error says how to fix the call.
 *
 *   lock(path) ─▶ regular, writable file? ─▶ read bytes ─▶ sniff encoding (UTF-8 ± BOM, UTF-16, Windows-1252)
 *             ─▶ encode old/new text in *that* encoding ─▶ find old bytes (exactly once) ─▶ splice ─▶ atomic write
 *
 * The edit is made on bytes: everything outside the replaced span (a BOM, CRLF line endings, Latin-1
 * letters) is written back exactly as it was read. The per-path lock makes parallel edits of one file
 * by several subagents apply one after another instead of losing all but the last; with a tracker, an
 * edit of a file the agent has not read in its current version is refused (changes/stale-guard.ts).
 */
import type { FileTracker } from './file-tracker';
import { checkTarget, describeFsError } from './file-access';
import { resolveInside } from './path-confinement';
import { writePrecheck } from './write-precheck';
import { PathLocks } from './path-locks';
import { decodeAs, encodeAs, sniffText, type TextEncodingName } from './text-encoding';
import { asRecord, type FileOps, type ParseResult, type Tool, type ToolContext, type ToolResult } from './types';

export interface EditFileInput {
  path: string;
  old_text: string;
  new_text: string;
}

/** Byte offsets of `needle` in `haystack` from `from`, overlapping ones included ("aa" in "aaa" is ambiguous). */
function findAll(haystack: Buffer, needle: Buffer, from: number, step: number): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle, from); i !== -1 && found.length < 100; i = haystack.indexOf(needle, i + 1)) {
    // In UTF-16 a match must start on a code-unit boundary.
    if ((i - from) % step === 0) found.push(i);
  }
  return found;
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

export function createEditFileTool(workdir: string, ops: FileOps, locks: PathLocks = new PathLocks(), tracker?: FileTracker): Tool<EditFileInput> {
  return {
    name: 'edit_file',
    description:
      'Replace old_text with new_text in an existing workspace file. old_text must match exactly (whitespace too) ' +
      'and occur once: include enough lines to make it unique. Encoding and line endings are kept. To create a file use write_file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the workspace root.' },
        old_text: { type: 'string' },
        new_text: { type: 'string', description: 'May be empty.' },
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

    describe: (input) => ({ summary: input.path, paths: [input.path] }),

    precheck: writePrecheck(workdir, ops, tracker, 'edit'),

    async execute(input, ctx) {
      if (input.old_text === '') {
        return { content: 'old_text is empty; give the exact text to replace (to create or replace a whole file use write_file)', isError: true };
      }
      if (input.old_text === input.new_text) {
        return { content: 'old_text and new_text are identical; nothing to change', isError: true };
      }
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      return locks.run(where.absPath, () => editLocked(ops, where.absPath, input, ctx, tracker));
    },
  };
}

async function editLocked(ops: FileOps, absPath: string, input: EditFileInput, ctx: ToolContext, tracker: FileTracker | undefined): Promise<ToolResult> {
  const { signal } = ctx;
  const target = await checkTarget(ops, absPath, input.path, 'write');
  if (!target.ok) {
    const hint = target.reason.startsWith('file not found') ? ' (use write_file to create it)' : '';
    return { content: target.reason + hint, isError: true };
  }
  let buf: Buffer;
  try {
    buf = await ops.readFile(absPath, signal);
  } catch (err) {
    return { content: describeFsError(err, input.path), isError: true };
  }
  const stale = await tracker?.checkWrite(ctx.agentId, absPath, input.path, buf, 'edit');
  if (stale) return { content: stale, isError: true };
  const sniffed = sniffText(buf);
  if (sniffed.kind === 'binary') return { content: `${input.path} looks like a binary file; edit_file only edits text`, isError: true };
  const { encoding, bomLength, text } = sniffed;

  let oldText = input.old_text;
  let newText = input.new_text;
  // Models write "\n"; a CRLF file would never match. Retry in the file's own line endings.
  if (!text.includes(oldText) && text.includes('\r\n') && !oldText.includes('\r')) {
    oldText = oldText.replace(/\n/g, '\r\n');
    newText = newText.replace(/\r?\n/g, '\r\n');
  }
  const encoded = encodeBoth(oldText, newText, encoding, input.path);
  if ('error' in encoded) return { content: encoded.error, isError: true };
  const step = encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 1;
  const found = findAll(buf, encoded.old, bomLength, step);
  if (found.length === 0) {
    return { content: `old_text not found in ${input.path}; read the file and copy the text exactly (whitespace included)`, isError: true };
  }
  if (found.length > 1) {
    return { content: `old_text occurs ${found.length} times in ${input.path}; include more surrounding lines to make it unique`, isError: true };
  }
  const at = found[0] as number;
  const updated = Buffer.concat([buf.subarray(0, at), encoded.new, buf.subarray(at + encoded.old.length)]);
  if (signal.aborted) return { content: `Not edited: the run was cancelled before ${input.path} was written`, isError: true };
  const write = (): Promise<void> => ops.writeFileAtomic(absPath, updated);
  try {
    if (tracker) await tracker.recordWrite({ agentId: ctx.agentId, toolUseId: ctx.toolUseId, absPath, before: buf, after: updated }, write);
    else await write();
  } catch (err) {
    return { content: describeFsError(err, input.path), isError: true };
  }
  const startLine = countLines(decodeAs(buf.subarray(bomLength, at), encoding));
  const kept = encoding === 'utf-8' ? '' : ` (kept as ${encoding === 'windows-1252' ? 'Windows-1252' : encoding.toUpperCase()})`;
  return {
    content: `Edited ${input.path} at line ${startLine}: replaced ${countLines(oldText)} line(s) with ${countLines(newText)} line(s)${kept}`,
  };
}

function encodeBoth(oldText: string, newText: string, encoding: TextEncodingName, displayPath: string): { old: Buffer; new: Buffer } | { error: string } {
  const o = encodeAs(oldText, encoding);
  const n = encodeAs(newText, encoding);
  if (!o.ok) return { error: `old_text not found in ${displayPath}: it holds characters a ${encoding} file cannot contain (${o.unencodable.join(' ')})` };
  if (!n.ok) {
    return {
      error: `${displayPath} is encoded as ${encoding} (not UTF-8), which cannot hold ${n.unencodable.join(' ')} from new_text; nothing was changed. Use characters the file's encoding has, or ask the user to convert the file to UTF-8 first.`,
    };
  }
  return { old: o.bytes, new: n.bytes };
}
