/**
 * File references in model text as links: `src/config.ts:12` in inline code, or src/config.ts in a sentence,
 * open the file (at the line) like a markdown link does (link-clicks.ts posts open_file). Only what reads as
 * a workspace path is linked: in a sentence, a relative path with a folder and a file name with an extension
 * ("Node.js" is prose, not a file); in inline code also a bare file name with a common source extension.
 * Never a URL, never inside a link the model wrote.
 */
import { el } from './dom';
import { linkTarget } from './link-target';

const EXT = 'ts|tsx|js|jsx|mjs|cjs|json|jsonc|md|mdx|py|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|css|scss|less|html|vue|svelte|yml|yaml|toml|ini|sh|bash|zsh|sql|txt|lock|xml|gradle|proto';
const LINE = '(?::(\\d+)(?::\\d+)?)?';
const IN_FOLDER = '(?:\\.{1,2}/)?(?:[\\w@.-]+/)+[\\w.-]*\\w\\.\\w{1,10}';
/** In a sentence: a path with a folder, then an optional :line[:col]. */
const REF = new RegExp(`(?<![\\w/.:@-])(${IN_FOLDER})${LINE}(?![\\w/-])`, 'g');
/** A whole inline code span: that, or a bare file name with a source extension. */
const CODE_REF = new RegExp(`^(${IN_FOLDER}|[\\w.-]*\\w\\.(?:${EXT}))${LINE}$`);

/** An <a> for the whole of an inline code span that is a file reference, else null. */
export function codeRefLink(code: string, roots: readonly string[]): HTMLAnchorElement | null {
  const m = CODE_REF.exec(code.trim());
  if (!m) return null;
  const a = refLink(m[1] ?? '', m[2], roots);
  a?.append(el('code', 'md-code-inline', code));
  return a;
}

/** Appends `text` with the file references in it as links. */
export function appendTextWithRefs(text: string, target: Node, roots: readonly string[]): void {
  REF.lastIndex = 0;
  let at = 0;
  for (let m = REF.exec(text); m; m = REF.exec(text)) {
    // Not part of a URL ("https://host/a.js") or an e-mail address.
    if (/[a-z]+:\/\/\S*$/i.test(text.slice(0, m.index))) continue;
    const a = refLink(m[1] ?? '', m[2], roots);
    if (!a) continue;
    if (m.index > at) target.appendChild(document.createTextNode(text.slice(at, m.index)));
    a.textContent = m[0];
    target.appendChild(a);
    at = m.index + m[0].length;
  }
  if (at < text.length) target.appendChild(document.createTextNode(at === 0 ? text : text.slice(at)));
}

function refLink(path: string, line: string | undefined, roots: readonly string[]): HTMLAnchorElement | null {
  const target = linkTarget(line ? `${path}:${line}` : path, roots);
  if (target?.kind !== 'file') return null;
  const a = el('a', 'md-link md-file-ref');
  a.tabIndex = 0;
  a.setAttribute('role', 'link');
  a.dataset.path = target.path;
  if (target.line !== undefined) a.dataset.line = String(target.line);
  a.title = target.line === undefined ? `Open ${target.path}` : `Open ${target.path} at line ${target.line}`;
  return a;
}
