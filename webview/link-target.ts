/**
 * What a link in model-written markdown may do: open a workspace file (at a line), open an
 * http(s) page through the host, or nothing (the link text stays plain text). The href comes
 * from the model, so everything not positively recognised is refused. Pure (no DOM): the
 * unit tests run it in Node.
 */

export type LinkTarget = { kind: 'file'; path: string; line?: number } | { kind: 'external'; url: string };

/** `:12`, `:12:5` at the end of a path, or `#L12` / `#L12-L20` / `#L12C5` as its fragment. */
const LINE_SUFFIX = /:(\d+)(?::\d+)?$/;
const LINE_FRAGMENT = /^#L(\d+)(?:C\d+)?(?:-L?\d+(?:C\d+)?)?$/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;

/**
 * Classifies an href (as markdown-it normalised it: percent-encoded). `roots` are the workspace
 * folders (absolute); a `file://` URL or an absolute path is a file link only inside one of them,
 * a relative path only if it does not climb out with `..`.
 */
export function linkTarget(href: string, roots: readonly string[]): LinkTarget | null {
  const raw = href.trim();
  if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || raw.startsWith('\\\\')) return null;
  if (/^https?:\/\//i.test(raw)) return external(raw);
  if (/^file:/i.test(raw)) return fileUrl(raw, roots);
  if (WINDOWS_DRIVE.test(raw)) return withLine(decode(raw), (path) => absolute(path, roots));
  const scheme = SCHEME.exec(raw);
  // "README.md:12" reads like a scheme: a dotted "scheme" followed by a line number only is a path.
  if (scheme && !(scheme[1]?.includes('.') && /^\d+(?::\d+)?$/.test(raw.slice(scheme[0].length)))) return null;
  const decoded = decode(raw);
  if (decoded === null) return null;
  if (decoded.startsWith('/')) return withLine(decoded, (path) => absolute(path, roots));
  return withLine(decoded, relative);
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function external(raw: string): LinkTarget | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return { kind: 'external', url: url.href };
  } catch {
    return null;
  }
}

function fileUrl(raw: string, roots: readonly string[]): LinkTarget | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.host !== '' && url.host !== 'localhost') return null;
  const pathname = decode(url.pathname);
  if (pathname === null) return null;
  // file:///C:/x → C:/x
  const path = /^\/[a-z]:\//i.test(pathname) ? pathname.slice(1) : pathname;
  const line = lineFromFragment(url.hash);
  const inner = withLine(path, (p) => absolute(p, roots));
  if (!inner || inner.kind !== 'file') return null;
  return line === undefined ? inner : { kind: 'file', path: inner.path, line };
}

/** Splits a `#L12` fragment or a `:12` suffix off the path, then checks the path. */
function withLine(text: string | null, check: (path: string) => string | null): LinkTarget | null {
  if (text === null) return null;
  let path = text;
  let line: number | undefined;
  const hash = path.indexOf('#');
  if (hash >= 0) {
    line = lineFromFragment(path.slice(hash));
    path = path.slice(0, hash);
  }
  const suffix = LINE_SUFFIX.exec(path);
  if (suffix) {
    line ??= Number(suffix[1]);
    path = path.slice(0, suffix.index);
  }
  if (path.includes('?')) return null;
  const checked = check(path);
  if (checked === null || checked === '') return null;
  return line !== undefined && line > 0 ? { kind: 'file', path: checked, line } : { kind: 'file', path: checked };
}

function lineFromFragment(fragment: string): number | undefined {
  const m = LINE_FRAGMENT.exec(fragment);
  return m ? Number(m[1]) : undefined;
}

/** A workspace-relative path without `.` and `..` segments; null if it climbs above the root. */
function relative(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out.join('/');
}

/** The normalised absolute path if it lies inside one of the roots, else null. */
function absolute(path: string, roots: readonly string[]): string | null {
  const drive = /^[a-z]:/i.exec(path)?.[0] ?? '';
  const rest = relative(path.slice(drive.length));
  if (rest === null) return null;
  const normalised = `${drive}/${rest}`;
  const key = comparable(normalised);
  for (const root of roots) {
    const r = comparable(root).replace(/\/+$/, '');
    if (key === r || key.startsWith(`${r}/`)) return normalised;
  }
  return null;
}

/** Forward slashes; Windows paths compare case-insensitively. */
function comparable(path: string): string {
  const slashed = path.replace(/\\/g, '/');
  return /^[a-z]:/i.test(slashed) ? slashed.toLowerCase() : slashed;
}
