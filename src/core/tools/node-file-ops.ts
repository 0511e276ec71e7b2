/**
 * The FileOps port over node:fs, used by the CLI and the extension host alike. Writes are atomic
 * (temp file beside the target, then rename) so a crash or a cancel never leaves a half-written file.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FileOps } from './types';

export function createNodeFileOps(): FileOps {
  return {
    readFile: (absPath) => fs.readFile(absPath),

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
        await fs.writeFile(tmp, content, { encoding: 'utf8', flag: 'wx' });
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
