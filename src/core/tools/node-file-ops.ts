/**
 * The FileOps port over node:fs, used by the CLI and the extension host alike. Writes are atomic
 * (temp file beside the target, then rename) so a crash or a cancel never leaves a half-written file.
 * Reads open with O_NONBLOCK and check the open file is regular: a FIFO swapped in after the caller's
 * stat still cannot block a thread of Node's pool (which would also block the process's exit).
 */
import { randomBytes } from '../crypto-when-used';
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { NotRegularFileError } from './file-access';
import type { FileInfo, FileOps } from './types';

function typeOf(st: Stats): FileInfo['type'] {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  return 'other';
}

/** The same error fs itself rejects with when its signal fires. */
function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

export function createNodeFileOps(): FileOps {
  return {
    async readFile(absPath, signal) {
      if (signal?.aborted) throw abortError();
      const st = await fs.stat(absPath);
      if (!st.isFile()) throw new NotRegularFileError(typeOf(st));
      const handle = await fs.open(absPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
      try {
        const opened = await handle.stat();
        if (!opened.isFile()) throw new NotRegularFileError(typeOf(opened));
        return await handle.readFile(signal ? { signal } : {});
      } finally {
        await handle.close();
      }
    },

    async stat(absPath) {
      try {
        const st = await fs.stat(absPath);
        return { type: typeOf(st), size: st.size, mode: st.mode & 0o7777 };
      } catch (err) {
        if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return undefined;
        throw err;
      }
    },

    async writeFileAtomic(absPath, content) {
      const dir = path.dirname(absPath);
      await fs.mkdir(dir, { recursive: true });
      // Keep an existing file's permission bits (an edited script stays executable).
      let mode: number | undefined;
      try {
        mode = (await fs.stat(absPath)).mode & 0o7777;
      } catch {
        mode = undefined;
      }
      // Same folder as the target: rename is only atomic within one filesystem.
      const tmp = path.join(dir, `.${path.basename(absPath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await fs.writeFile(tmp, content, typeof content === 'string' ? { encoding: 'utf8', flag: 'wx' } : { flag: 'wx' });
        if (mode !== undefined) await fs.chmod(tmp, mode);
        await fs.rename(tmp, absPath);
      } catch (err) {
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
    },

    async exists(absPath) {
      try {
        await fs.stat(absPath);
        return true;
      } catch {
        return false;
      }
    },
  };
}
