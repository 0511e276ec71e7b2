/**
 * Model-written markdown in the panel: CommonMark + GFM tables, strikethrough, task lists and
 * autolinked URLs, parsed by markdown-it (html: false, so raw HTML stays text) and built as DOM
 * nodes by markdown-dom.ts. Re-rendering while text streams re-parses and rebuilds only from
 * about the first changed line (in practice the tail): earlier top-level blocks keep their DOM.
 */
import MarkdownIt, { type Env } from 'markdown-it';
import { CodeBlock, fenceLanguage } from './code-block';
import { el } from './dom';
import { appendBlocks, type RenderContext } from './markdown-dom';

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
// Only URLs with a scheme become links: fuzzy matching turns "README.md" into http://README.md.
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
// markdown-it drops links it deems unsafe and shows their source ("[x](file:///…)"); link-target.ts
// decides instead, and a refused link keeps only its text.
md.validateLink = () => true;

const context: { roots: readonly string[] } = { roots: [] };

/** Workspace folders (from the host): absolute file links must lie inside one. */
export function setWorkspaceFolders(folders: readonly string[]): void {
  context.roots = [...folders];
}

interface Block {
  /** Token type + source lines: equal keys render equally (given equal link definitions). */
  key: string;
  /** First source line. */
  line: number;
  nodes: Node[];
  /** A top-level fenced block: updated in place while it grows (streaming). */
  code?: CodeBlock;
}

/** A line that may hold a link reference definition ("[x]: url"), also inside a quote or list item. */
const DEFINITION = /^[ \t>*+\-\d.)]*\[[^\]\n]+\]:/m;

export class MarkdownView {
  readonly element: HTMLElement;
  private blocks: Block[] = [];
  private definitions = '';
  private roots: readonly string[] = [];
  private source: string | null = null;
  private text = '';

  constructor(className = '') {
    this.element = el('div', `md${className ? ` ${className}` : ''}`);
  }

  render(source: string): void {
    if (source === this.source && this.roots === context.roots) return;
    this.source = source;
    // markdown-it's own normalisation, done first so token line maps index these lines.
    const text = source.replace(/\r\n?/g, '\n');
    const previous = this.text;
    this.text = text;
    const lineStarts = lineOffsets(text);
    // A link definition changes links anywhere before it: such text is parsed whole, every time.
    const whole = this.roots !== context.roots || this.definitions !== '' || DEFINITION.test(text);
    const from = whole ? 0 : this.firstStale(previous, text, lineStarts);
    const cutLine = from === 0 ? 0 : (this.blocks[from]?.line ?? 0);
    const env: Env = {};
    const tokens = md.parse(text.slice(lineStarts[cutLine] ?? 0), env);
    if (whole) {
      const definitions = env.references === undefined ? '' : JSON.stringify(env.references);
      if (definitions !== this.definitions || this.roots !== context.roots) {
        this.definitions = definitions;
        this.roots = context.roots;
        this.removeFrom(0);
        this.blocks = [];
      }
    }
    const ctx: RenderContext = { roots: this.roots };
    const fresh = this.blocks.slice(0, from);
    let kept = from;
    let index = 0;
    while (index < tokens.length) {
      const end = blockEnd(tokens, index);
      const first = tokens[index];
      const line = cutLine + (first?.map?.[0] ?? 0);
      const next = cutLine + (first?.map?.[1] ?? 0);
      const key = `${first?.type ?? ''}\n${text.slice(lineStarts[line] ?? text.length, lineStarts[next] ?? text.length)}`;
      const old = this.blocks[fresh.length];
      const fence = first?.type === 'fence' && end === index + 1 ? first : undefined;
      const inPlace = old !== undefined && kept === fresh.length && old.line === line;
      if (inPlace && old.key === key) {
        kept++;
        fresh.push(old);
      } else if (inPlace && fence && old.code?.language === fenceLanguage(fence.info)) {
        old.code.update(fence.content);
        kept++;
        fresh.push({ ...old, key });
      } else {
        const fragment = document.createDocumentFragment();
        let code: CodeBlock | undefined;
        if (fence) fragment.append((code = new CodeBlock(fence.content, fenceLanguage(fence.info))).element);
        else appendBlocks(tokens, index, end, fragment, ctx);
        if (kept === fresh.length) this.removeFrom(kept);
        fresh.push({ key, line, nodes: [...fragment.childNodes], ...(code ? { code } : {}) });
        this.element.append(fragment);
      }
      index = end;
    }
    if (kept === fresh.length) this.removeFrom(kept);
    this.blocks = fresh;
  }

  /**
   * The first block that the change from `previous` may have touched: text is appended while it
   * streams, so blocks ending before the first changed line keep their parse. One more block back,
   * because a block's end depends on the first line of the next (a list goes on over blank lines).
   */
  private firstStale(previous: string, text: string, lineStarts: readonly number[]): number {
    let d = 0;
    if (text.startsWith(previous)) d = previous.length;
    else while (d < previous.length && d < text.length && previous.charCodeAt(d) === text.charCodeAt(d)) d++;
    let changedLine = 0;
    while (changedLine + 1 < lineStarts.length && (lineStarts[changedLine + 1] ?? Infinity) <= d) changedLine++;
    let k = 0;
    while (k + 1 < this.blocks.length && (this.blocks[k + 1]?.line ?? Infinity) <= changedLine) k++;
    return Math.max(0, k - 1);
  }

  /** Removes the DOM of this.blocks[from…]. */
  private removeFrom(from: number): void {
    for (const block of this.blocks.slice(from)) for (const node of block.nodes) node.parentNode?.removeChild(node);
  }
}

/** Index after the top-level block starting at `start` (its closing token, or the leaf itself). */
function blockEnd(tokens: readonly { nesting: number }[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    depth += tokens[i]?.nesting ?? 0;
    if (depth <= 0) return i + 1;
  }
  return tokens.length;
}

/** Offset of each line start, plus text.length as the end of the last line. */
function lineOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  starts.push(text.length);
  return starts;
}
