/**
 * Confines model-given paths to the workspace (WORKDIR): refuses `~` paths, absolute paths outside,
 * `..` escapes, and symlinks anywhere along the path (even dangling ones) that lead outside.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export type ConfinedPath = { ok: true; absPath: string } | { ok: false; reason: string };

/** Linux allows 40 symlink hops before ELOOP; we stop at the same number. */
const MAX_LINK_HOPS = 40;

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  // `..foo` is a legal name inside; only a leading `..` segment leaves.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function errCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/**
 * The real location `p` names, following every symlink the kernel would follow, including a dangling
 * one (a write would create its target) and a link in a not-yet-existing path's ancestors.
 */
async function resolveReal(p: string, hops: number): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch (err) {
    const code = errCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = await resolveReal(parent, hops);
  const here = path.join(realParent, path.basename(p));
  let isLink = false;
  try {
    isLink = (await fs.lstat(here)).isSymbolicLink();
  } catch {
    // Missing: nothing more to follow; the rest of the path would be created under realParent.
  }
  if (!isLink) return here;
  if (hops >= MAX_LINK_HOPS) throw Object.assign(new Error(`too many symlink levels at ${p}`), { code: 'ELOOP' });
  const target = await fs.readlink(here);
  // Relative link targets are taken from the link's real folder, as the kernel does.
  return resolveReal(path.resolve(realParent, target), hops + 1);
}

/**
 * Resolves `requested` (relative to `workdir`, or absolute inside it) and checks that its real
 * location stays inside the real workspace. `absPath` is the real location, so writes go through
 * in-workspace links to their target instead of replacing the link.
 */
export async function resolveInside(workdir: string, requested: string): Promise<ConfinedPath> {
  if (typeof requested !== 'string' || requested.trim() === '') return { ok: false, reason: 'path is empty' };
  if (requested.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (requested.startsWith('~')) {
    return { ok: false, reason: `home-directory paths are not allowed: ${requested} (give a path inside the workspace)` };
  }

  let realRoot: string;
  try {
    realRoot = await fs.realpath(workdir);
  } catch {
    return { ok: false, reason: `workspace folder is not accessible: ${workdir}` };
  }
  const lexicalRoot = path.resolve(workdir);

  let lexical: string;
  if (path.isAbsolute(requested)) {
    const normalized = path.resolve(requested);
    // The workspace may be named through a link (/tmp vs /private/tmp); accept either spelling.
    if (isInside(lexicalRoot, normalized)) lexical = path.join(realRoot, path.relative(lexicalRoot, normalized));
    else if (isInside(realRoot, normalized)) lexical = normalized;
    else return { ok: false, reason: `absolute path is outside the workspace: ${requested} (workspace is ${realRoot})` };
  } else {
    lexical = path.resolve(realRoot, requested);
    if (!isInside(realRoot, lexical)) {
      return { ok: false, reason: `path escapes the workspace: ${requested} resolves to ${lexical}` };
    }
  }

  let real: string;
  try {
    real = await resolveReal(lexical, 0);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `cannot resolve ${requested}: ${why}` };
  }
  if (!isInside(realRoot, real)) {
    return { ok: false, reason: `path escapes the workspace through a symlink: ${requested} resolves to ${real}` };
  }
  return { ok: true, absPath: real };
}
