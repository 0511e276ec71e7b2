/**
 * File contents kept for revert and diffs, named by their SHA-256, in the session's own folder:
 *
 *   <transcripts>/<session>/changes/<sha256>     one file per distinct content (an edit chain shares them:
 *                                                 one change's "after" is the next one's "before")
 *
 * Written atomically (temp file, then rename) and never rewritten: a name is its content.
 */
import { createHash, randomBytes } from '../crypto-when-used';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentHash } from './types';

export function contentHash(bytes: Uint8Array): ContentHash {
  return createHash('sha256').update(bytes).digest('hex');
}

export function isContentHash(value: unknown): value is ContentHash {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** Where a session's blobs live. */
export function blobDirOf(sessionDir: string): string {
  return join(sessionDir, 'changes');
}

export class BlobStore {
  private made: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  pathOf(hash: ContentHash): string {
    if (!isContentHash(hash)) throw new Error(`not a content hash: ${String(hash)}`);
    return join(this.dir, hash);
  }

  /** Keeps `bytes`; returns their hash. */
  async put(bytes: Uint8Array, hash = contentHash(bytes)): Promise<ContentHash> {
    const file = this.pathOf(hash);
    if (await stat(file).then((s) => s.isFile(), () => false)) return hash;
    this.made ??= mkdir(this.dir, { recursive: true });
    await this.made;
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    return hash;
  }

  /** The bytes of `hash`, or undefined when they were never kept (or the folder was cleaned). */
  async get(hash: ContentHash): Promise<Buffer | undefined> {
    if (!isContentHash(hash)) return undefined;
    return readFile(this.pathOf(hash)).catch(() => undefined);
  }
}
