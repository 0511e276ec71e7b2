/**
 * What the file tools share about reaching a file: input-record checks, one-line reasons for fs
 * failures, and the "is this a regular file?" check made with stat, before anything is opened — a
 * named pipe, a socket or a device would block an open() (and with it Node's exit) or stream for ever.
 */
import type { FileInfo, FileOps } from './types';

/** Thrown by FileOps.readFile for anything that is not a regular file; nothing was read. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(readonly fileType: FileInfo['type']) {
    super(`not a regular file (${fileType})`);
  }
}

function notRegular(displayPath: string, type: FileInfo['type']): string {
  const what = type === 'fifo' ? 'a named pipe (FIFO)' : type === 'other' ? 'not a regular file' : `a ${type}`;
  return `${displayPath} is ${what}, not a regular file; the file tools only read and write regular files`;
}

/** A one-line reason for a failed fs call, naming the path as the model gave it. */
export function describeFsError(err: unknown, displayPath: string): string {
  if (err instanceof NotRegularFileError) return notRegular(displayPath, err.fileType);
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
    case 'ABORT_ERR':
      return `reading ${displayPath} was cancelled`;
    default:
      return `cannot access ${displayPath}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Checks what is at `absPath` without opening it. `missing` is allowed only when `mayCreate`; a file its
 * owner may not write is refused for writes (a rename would replace a 0444 file without a word).
 */
export async function checkTarget(
  ops: FileOps,
  absPath: string,
  displayPath: string,
  purpose: 'read' | 'write',
  mayCreate = false,
): Promise<{ ok: true; info: FileInfo | undefined } | { ok: false; reason: string }> {
  let info: FileInfo | undefined;
  try {
    info = await ops.stat(absPath);
  } catch (err) {
    return { ok: false, reason: describeFsError(err, displayPath) };
  }
  if (!info) {
    if (mayCreate) return { ok: true, info };
    return { ok: false, reason: `file not found: ${displayPath}` };
  }
  if (info.type === 'directory') return { ok: false, reason: `${displayPath} is a directory, not a file (use glob to list files)` };
  if (info.type !== 'file') return { ok: false, reason: notRegular(displayPath, info.type) };
  if (purpose === 'write' && (info.mode & 0o200) === 0) {
    return {
      ok: false,
      reason: `${displayPath} is read-only (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}): its owner may not write it, so it is left unchanged; ask the user before making it writable`,
    };
  }
  return { ok: true, info };
}
