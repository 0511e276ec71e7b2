/**
 * What the user does to a session in the History list besides opening it: rename it (the name is kept beside
 * the transcript in `<id>.meta.json`, so the transcript stays as it was written) and delete it (its transcript,
 * its folder — subagent transcripts, tool outputs, kept contents — and its summary cache). A session another
 * Delegate is writing (its lock is held) is not deleted.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireSessionLock } from './session-lock';
import { isValidSessionId, sessionFileOf } from './transcript-reader';

const metaFileOf = (root: string, id: string): string => join(root, `${id}.meta.json`);

/** The name the user gave the session, if any. */
export async function sessionName(root: string, id: string): Promise<string | undefined> {
  try {
    const meta = JSON.parse(await readFile(metaFileOf(root, id), 'utf8')) as { title?: unknown };
    return typeof meta.title === 'string' && meta.title.trim() ? meta.title : undefined;
  } catch {
    return undefined;
  }
}

/** Names the session (an empty name goes back to its first prompt). */
export async function renameSession(root: string, id: string, title: string): Promise<void> {
  if (!isValidSessionId(id)) throw new Error(`not a session id: "${id}"`);
  const name = (title.trim().split('\n')[0] ?? '').trim().slice(0, 200);
  const file = metaFileOf(root, id);
  if (!name) {
    await rm(file, { force: true });
    return;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ title: name }));
  await rename(tmp, file);
}

/** Deletes the session's files; throws SessionBusyError while another Delegate writes it. */
export async function deleteSession(root: string, id: string): Promise<void> {
  if (!isValidSessionId(id)) throw new Error(`not a session id: "${id}"`);
  const lock = acquireSessionLock(root, id);
  try {
    await rm(join(root, id), { recursive: true, force: true });
    await rm(join(root, `${id}.summary.json`), { force: true });
    await rm(metaFileOf(root, id), { force: true });
    await rm(sessionFileOf(root, id), { force: true });
  } finally {
    lock.release();
  }
}
