/**
 * The `delegate-change:` documents: a content Delegate kept in the session folder (before or after a change),
 * named by the file it belongs to, so every editor that shows one labels it by the workspace file:
 *
 *   delegate-change:/home/me/proj/src/greet.js?session=<id>&blob=<sha-256 or "none">
 *                   └── the workspace file's path ──┘ └──── where the content is ─────┘
 *
 * The multi-file diff (`vscode.changes`) reads an entry's label from its URIs' paths: a modified side and an
 * original side with different paths is a rename ("R"), an entry with no original an addition ("A"), with no
 * modified side a deletion ("D"); the name and folder come from the path (VS Code 1.139, multiDiffEditorItem-
 * Template setItem). Keeping the blob id out of the path is what makes `src/greet.js` read as itself, not as
 * `/<session>/<hash>/greet.js` renamed from `/<session>/none/greet.js`. Free of `vscode` (units test it).
 */
import { isAbsolute, join } from 'node:path';

export const CHANGE_SCHEME = 'delegate-change';

/** What a `delegate-change:` URI is made of: the file's path (absolute when a folder is open) and its query. */
export interface KeptContentParts {
  scheme: typeof CHANGE_SCHEME;
  path: string;
  query: string;
}

/** A kept content of `sessionId` (`hash` undefined: the side where the file did not exist) of the file at `path`. */
export function keptContentParts(folder: string | undefined, sessionId: string, hash: string | undefined, path: string): KeptContentParts {
  const abs = isAbsolute(path) ? path : folder ? join(folder, path) : `/${path}`;
  return { scheme: CHANGE_SCHEME, path: abs, query: new URLSearchParams({ session: sessionId, blob: hash ?? 'none' }).toString() };
}

/** The session and blob a `delegate-change:` URI's query names (undefined when it names none or is malformed). */
export function keptContentOf(query: string): { sessionId: string; hash: string } | undefined {
  const params = new URLSearchParams(query);
  const sessionId = params.get('session');
  const hash = params.get('blob');
  if (!sessionId || !hash || sessionId.includes('/') || sessionId.includes('\\') || sessionId.includes('..')) return undefined;
  return { sessionId, hash };
}

/**
 * One entry of the multi-file diff, as `[resource, original, modified]`: the workspace file (its "open file"),
 * the content before (none for a file the run created: Added) and the file as it is now (none for one it
 * deleted: Deleted). `exists` says whether the workspace file is there: when it is gone the kept content after
 * the run stands in, under the same path.
 */
export function reviewEntry<U>(
  file: { path: string; before?: string; after?: string },
  uris: { workspaceFile: (path: string) => U; kept: (hash: string, path: string) => U },
  exists: boolean,
): [U, U | undefined, U | undefined] {
  const original = file.before === undefined ? undefined : uris.kept(file.before, file.path);
  const modified = file.after === undefined ? undefined : exists ? uris.workspaceFile(file.path) : uris.kept(file.after, file.path);
  return [uris.workspaceFile(file.path), original, modified];
}
