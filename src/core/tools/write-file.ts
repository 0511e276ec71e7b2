/**
 * `write_file`: creates or replaces a whole file inside the workspace, atomically, making parent
 * folders as needed. For small changes to an existing file the model should prefer edit_file.
 *
 * Replacing an existing file keeps what the model cannot see: its encoding (a Windows-1252 or UTF-16
 * file stays one, a UTF-8 BOM stays), its CRLF line endings when the new text uses plain "\n", and its
 * mode. Only regular files its owner may write are replaced; the same per-path lock as edit_file
 * orders a write against a parallel edit of the same file. With a tracker, replacing a file the agent has
 * not read (or that changed since) is refused, and the old content is kept for revert (changes/).
 */
import type { FileTracker } from './file-tracker';
import { checkTarget, describeFsError } from './file-access';
import { resolveInside } from './path-confinement';
import { writePrecheck } from './write-precheck';
import { PathLocks } from './path-locks';
import { encodeAs, sniffText, type SniffedText } from './text-encoding';
import { asRecord, type FileOps, type ParseResult, type Tool, type ToolContext, type ToolResult } from './types';

export interface WriteFileInput {
  path: string;
  content: string;
}

export function createWriteFileTool(workdir: string, ops: FileOps, locks: PathLocks = new PathLocks(), tracker?: FileTracker): Tool<WriteFileInput> {
  return {
    name: 'write_file',
    description:
      'Create or overwrite a workspace file (folders are created). For a small change to a file use edit_file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the workspace root.' },
        content: { type: 'string', description: 'The whole new content.' },
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

    describe: (input) => ({ summary: input.path, paths: [input.path] }),

    precheck: writePrecheck(workdir, ops, tracker, 'write'),

    async execute(input, ctx) {
      const where = await resolveInside(workdir, input.path);
      if (!where.ok) return { content: where.reason, isError: true };
      return locks.run(where.absPath, () => writeLocked(ops, where.absPath, input, ctx, tracker));
    },
  };
}

async function writeLocked(ops: FileOps, absPath: string, input: WriteFileInput, ctx: ToolContext, tracker: FileTracker | undefined): Promise<ToolResult> {
  const { signal } = ctx;
  const target = await checkTarget(ops, absPath, input.path, 'write', true);
  if (!target.ok) return { content: target.reason, isError: true };
  const existed = target.info !== undefined;
  let previous: SniffedText | undefined;
  let existing: Buffer | undefined;
  if (existed) {
    try {
      existing = await ops.readFile(absPath, signal);
      const sniffed = sniffText(existing);
      if (sniffed.kind === 'text') previous = sniffed;
    } catch (err) {
      return { content: describeFsError(err, input.path), isError: true };
    }
  }
  const stale = await tracker?.checkWrite(ctx.agentId, absPath, input.path, existing, 'write');
  if (stale) return { content: stale, isError: true };
  const { bytes, notes } = encodeLike(input.content, previous);
  if (signal.aborted) return { content: `Not written: the run was cancelled before ${input.path} was written`, isError: true };
  const write = (): Promise<void> => ops.writeFileAtomic(absPath, bytes);
  try {
    if (tracker) await tracker.recordWrite({ agentId: ctx.agentId, toolUseId: ctx.toolUseId, absPath, before: existing, after: bytes }, write);
    else await write();
  } catch (err) {
    return { content: describeFsError(err, input.path), isError: true };
  }
  const kept = notes.length ? `; ${notes.join(', ')}` : '';
  return { content: `${existed ? 'Overwrote' : 'Created'} ${input.path} (${bytes.length} bytes written${kept})` };
}

/** The new content in the old file's encoding, BOM and line endings, where the new text allows it. */
function encodeLike(content: string, previous: SniffedText | undefined): { bytes: Buffer; notes: string[] } {
  if (!previous) return { bytes: Buffer.from(content, 'utf8'), notes: [] };
  const notes: string[] = [];
  let text = content;
  const crlf = (previous.text.match(/\r\n/g)?.length ?? 0) > (previous.text.match(/(?<!\r)\n/g)?.length ?? 0);
  if (crlf && !text.includes('\r') && text.includes('\n')) {
    text = text.replace(/\n/g, '\r\n');
    notes.push('kept CRLF line endings');
  }
  const encoded = encodeAs(text, previous.encoding);
  if (!encoded.ok) {
    notes.push(`written as UTF-8: the file was ${previous.encoding}, which cannot hold ${encoded.unencodable.slice(0, 5).join(' ')}`);
    return { bytes: Buffer.from(text, 'utf8'), notes };
  }
  if (previous.encoding !== 'utf-8') notes.push(`kept its ${previous.encoding} encoding`);
  const bom = previous.bomLength ? bomOf(previous.encoding) : Buffer.alloc(0);
  if (previous.bomLength && previous.encoding === 'utf-8') notes.push('kept its byte-order mark');
  return { bytes: Buffer.concat([bom, encoded.bytes]), notes };
}

function bomOf(encoding: SniffedText['encoding']): Buffer {
  if (encoding === 'utf-16le') return Buffer.from([0xff, 0xfe]);
  if (encoding === 'utf-16be') return Buffer.from([0xfe, 0xff]);
  return Buffer.from([0xef, 0xbb, 0xbf]);
}
