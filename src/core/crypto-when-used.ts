/**
 * node:crypto's few calls the core makes (hashes of contents, random names and ids), loaded on the first call rather
 * than with the module that makes it. Loading node:crypto took ~1.6 ms of the CLI's CPU before its first request,
 * where nothing hashes (docs/benchmarks.md, issue 30); the session's id, which is needed there, comes from the
 * operating system's random source directly (/dev/urandom, the source node:crypto reads too), or from node:crypto
 * where there is none (Windows).
 */
import type { Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

let loaded: typeof import('node:crypto') | undefined;

function crypto(): typeof import('node:crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a built-in module, loaded on first use (see above)
  return (loaded ??= require('node:crypto') as typeof import('node:crypto'));
}

export function createHash(algorithm: string): Hash {
  return crypto().createHash(algorithm);
}

export function randomBytes(size: number): Buffer {
  return crypto().randomBytes(size);
}

/** A random (version 4) UUID. */
export function randomUUID(): string {
  const bytes = systemRandom(16);
  if (!bytes) return crypto().randomUUID();
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `size` bytes of /dev/urandom; undefined where it cannot be read whole. */
function systemRandom(size: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    const bytes = Buffer.alloc(size);
    return readSync(fd, bytes, 0, size, null) === size ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
