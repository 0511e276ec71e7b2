/**
 * The folders the user said they trust, for the CLI and `delegate acp` (the editor has VS Code's workspace trust):
 *
 *   $XDG_DATA_HOME/delegate/trusted-folders.json  (default ~/.local/share/delegate/…)
 *   { "folders": { "/real/path/of/the/folder": { "trustedAt": "2026-12-01T10:00:00.000Z" } } }
 *
 * Keyed by the folder's real path: a symlink to a folder is that folder, and a link named like a trusted folder
 * is not it. A folder's subfolders are not covered (trust-policy in docs/hooks.md): a vendored package or a
 * fixture under a trusted repository has hooks and servers of its own that the user never looked at. Only a yes
 * is kept: a no is asked again next time, as Claude Code's trust dialog does. Written whole to a temporary file
 * and renamed over the old one, so a reader never sees half a file; two processes trusting two folders at the
 * same moment can lose one of the two entries (the folder is then asked about again).
 */
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

interface TrustFile {
  folders: Record<string, { trustedAt: string }>;
}

export function trustedFoldersFile(env: NodeJS.ProcessEnv, home: string): string {
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(dataHome, 'delegate', 'trusted-folders.json');
}

/** The key a folder is trusted under: its real path (the path as given when it cannot be resolved). */
export async function folderKey(folder: string): Promise<string> {
  return realpath(folder).catch(() => folder);
}

async function read(file: string): Promise<TrustFile> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
    const folders = typeof parsed === 'object' && parsed !== null ? (parsed as { folders?: unknown }).folders : undefined;
    // A file that is not ours (or damaged) trusts nothing: the question is asked again, never skipped.
    return { folders: typeof folders === 'object' && folders !== null && !Array.isArray(folders) ? (folders as TrustFile['folders']) : {} };
  } catch {
    return { folders: {} };
  }
}

export async function isFolderTrusted(file: string, folder: string): Promise<boolean> {
  const key = await folderKey(folder);
  return Object.hasOwn((await read(file)).folders, key);
}

/** Remembers a yes for the folder (its real path). Throws when the file cannot be written (the caller says so). */
export async function rememberTrustedFolder(file: string, folder: string): Promise<void> {
  const key = await folderKey(folder);
  await mkdir(dirname(file), { recursive: true });
  const current = await read(file);
  current.folders[key] = { trustedAt: new Date().toISOString() };
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
}
