/**
 * markdown-it tokens → DOM nodes. Every element is created here (and in code-block.ts) from a
 * fixed allow-list of tag names and gets only class, data-*, title, role, tabindex and aria
 * attributes (plus an <ol>'s start); all model text goes in as
 * text nodes. No HTML string is ever built or parsed, so no sanitizer is needed.
 */
import type { Token } from 'markdown-it';
import { CodeBlock, fenceLanguage } from './code-block';
import { codicon, el } from './dom';
import { scrollableTable } from './table-scroll';
import { appendTextWithRefs, codeRefLink } from './file-refs';
import { linkTarget, type LinkTarget } from './link-target';

/** Block tags markdown-it opens; anything else (a future token type) becomes a plain div. */
const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
const INLINE_TAGS: Record<string, 'em' | 'strong' | 's'> = { em_open: 'em', strong_open: 'strong', s_open: 's' };
const TASK_MARK = /^\[([ xX])\] /;

export interface RenderContext {
  /** Workspace folders: absolute file links must lie inside one. */
  roots: readonly string[];
}

/** Appends the DOM of block tokens [from, to) to `target`. */
export function appendBlocks(tokens: readonly Token[], from: number, to: number, target: Node, ctx: RenderContext): void {
  const stack: Node[] = [target];
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    const top = stack[stack.length - 1];
    if (!t || !top) continue;
    switch (t.type) {
      case 'inline':
        appendInline(t.children ?? [], top, ctx);
        break;
      case 'fence':
        top.appendChild(new CodeBlock(t.content, fenceLanguage(t.info)).element);
        break;
      case 'code_block':
        top.appendChild(new CodeBlock(t.content, '').element);
        break;
      case 'hr':
        top.appendChild(el('hr', 'md-hr'));
        break;
      default:
        if (t.nesting === 1) {
          // Tight lists hide their paragraphs: the text goes straight into the <li>.
          if (t.hidden) stack.push(top);
          else stack.push(openBlock(t, top));
        } else if (t.nesting === -1) {
          stack.pop();
        } else if (t.content !== '') {
          // html_block cannot occur with html: false; any other leaf shows as text.
          top.appendChild(el('p', '', t.content));
        }
    }
  }
}

/** Creates the element of an opening block token inside `parent`; returns where its children go. */
function openBlock(t: Token, parent: Node): Node {
  const tag = BLOCK_TAGS.has(t.tag) ? (t.tag as keyof HTMLElementTagNameMap) : 'div';
  const node = el(tag, `md-${tag}`);
  if (node instanceof HTMLOListElement) {
    const start = Number(t.attrGet('start') ?? 1);
    if (Number.isSafeInteger(start) && start !== 1) node.start = start;
  } else if (node instanceof HTMLTableCellElement) {
    const align = /text-align:\s*(left|center|right)/.exec(String(t.attrGet('style') ?? ''))?.[1];
    if (align) node.classList.add(`md-align-${align}`);
  }
  if (node instanceof HTMLTableElement) {
    // A wide table scrolls inside its own box instead of widening the side bar, with a bar that shows it does.
    parent.appendChild(scrollableTable(node));
  } else {
    parent.appendChild(node);
  }
  return node;
}

function appendInline(tokens: readonly Token[], target: Node, ctx: RenderContext): void {
  const stack: Node[] = [target];
  tokens.forEach((t, i) => {
    const top = stack[stack.length - 1];
    if (!top) return;
    const tag = INLINE_TAGS[t.type];
    if (tag) {
      stack.push(top.appendChild(el(tag, `md-${tag}`)));
      return;
    }
    switch (t.type) {
      case 'text':
        if (i === 0 && startsListItem(target) && TASK_MARK.test(t.content)) appendTaskText(t.content, top);
        else if (stack.length > 1 && top instanceof HTMLAnchorElement) top.appendChild(document.createTextNode(t.content));
        else appendTextWithRefs(t.content, top, ctx.roots);
        break;
      case 'code_inline':
        top.appendChild((top instanceof HTMLAnchorElement ? null : codeRefLink(t.content, ctx.roots)) ?? el('code', 'md-code-inline', t.content));
        break;
      case 'softbreak':
      case 'hardbreak':
        // Models mean a line break when they write one: soft breaks render as breaks too.
        top.appendChild(el('br'));
        break;
      case 'link_open':
        stack.push(top.appendChild(linkElement(String(t.attrGet('href') ?? ''), String(t.attrGet('title') ?? ''), ctx)));
        break;
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        if (stack.length > 1) stack.pop();
        break;
      case 'image':
        // No images from model text (remote loads, tracking pixels): the alt text stands in.
        top.appendChild(el('span', 'md-image-alt', plainText(t.children ?? []) || t.content));
        break;
      default:
        // html_inline cannot occur with html: false; text_special is merged into text.
        if (t.content !== '') top.appendChild(document.createTextNode(t.content));
    }
  });
}

/** The text of a list item starts here: straight in the <li> (tight list) or in its first <p>. */
function startsListItem(target: Node): boolean {
  if (target instanceof HTMLLIElement) return target.childNodes.length === 0;
  const li = target.parentNode;
  return target instanceof HTMLParagraphElement && li instanceof HTMLLIElement && li.firstChild === target;
}

/**
 * A GFM task-list item's "[ ] " / "[x] " as a read-only check mark (a codicon: a disabled native
 * checkbox is greyed out to near invisibility in light themes).
 */
function appendTaskText(text: string, target: Node): void {
  const done = text[1] !== ' ';
  const mark = codicon(done ? 'pass-filled' : 'circle-large-outline', `md-task ${done ? 'md-task-done' : ''}`.trim());
  mark.removeAttribute('aria-hidden');
  mark.setAttribute('role', 'checkbox');
  mark.setAttribute('aria-checked', String(done));
  mark.setAttribute('aria-readonly', 'true');
  target.appendChild(mark);
  target.appendChild(document.createTextNode(text.slice(4)));
}

function plainText(tokens: readonly Token[]): string {
  return tokens.map((t) => (t.children ? plainText(t.children) : t.type === 'softbreak' || t.type === 'hardbreak' ? ' ' : t.content)).join('');
}

/**
 * A link the panel can follow is an `<a>` without href (the webview never navigates; a click is
 * posted to the host by link-clicks.ts); any other href leaves its text plain.
 */
function linkElement(href: string, title: string, ctx: RenderContext): HTMLElement {
  const target = linkTarget(href, ctx.roots);
  if (!target) return el('span', 'md-link-plain');
  const a = el('a', 'md-link');
  a.tabIndex = 0;
  a.setAttribute('role', 'link');
  setTarget(a, target);
  a.title = title || describe(target);
  return a;
}

function setTarget(a: HTMLAnchorElement, target: LinkTarget): void {
  if (target.kind === 'external') {
    a.dataset.url = target.url;
  } else {
    a.dataset.path = target.path;
    if (target.line !== undefined) a.dataset.line = String(target.line);
  }
}

function describe(target: LinkTarget): string {
  if (target.kind === 'external') return target.url;
  return target.line === undefined ? `Open ${target.path}` : `Open ${target.path} at line ${target.line}`;
}
