/**
 * A fenced code block of model text: a header (language, copy button) over the code, which is
 * highlighted once the lazily loaded highlighter is there. The copy button copies the raw code.
 * While an answer streams, its last block grows every frame: `update` appends the new text as
 * plain text and re-highlights the whole block at most every HIGHLIGHT_EVERY_MS.
 */
import { codicon, el, setCodicon } from './dom';
import type { Highlighter } from './highlight-api';
import { highlighterOr } from './highlighter';

const FEEDBACK_MS = 1500;
const HIGHLIGHT_EVERY_MS = 120;

/** The language of a fence's info string ("ts title=x" → "ts"). */
export function fenceLanguage(info: string): string {
  return info.trim().split(/\s+/, 1)[0] ?? '';
}

export class CodeBlock {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private code: string;
  private timer: number | undefined;

  constructor(
    content: string,
    readonly language: string,
  ) {
    this.code = trimFinalNewline(content);
    this.element = el('div', 'md-code');
    const head = el('div', 'md-code-head');
    head.append(el('span', 'md-code-lang', language), this.copyButton());
    const pre = el('pre', 'md-code-body');
    this.body = el('code', '', this.code);
    pre.append(this.body);
    this.element.append(head, pre);
    this.highlight();
  }

  /** Shows `content` (the same block, grown while streaming). */
  update(content: string): void {
    const code = trimFinalNewline(content);
    if (code === this.code) return;
    if (code.startsWith(this.code)) this.body.append(code.slice(this.code.length));
    else this.body.textContent = code;
    this.code = code;
    if (this.language !== '' && this.timer === undefined) {
      this.timer = window.setTimeout(() => {
        this.timer = undefined;
        if (this.body.isConnected) this.highlight();
      }, HIGHLIGHT_EVERY_MS);
    }
  }

  private highlight(): void {
    if (this.language === '') return;
    const paint = (highlighter: Highlighter): void => {
      const fragment = highlighter.highlight(this.code, this.language.toLowerCase());
      if (fragment) this.body.replaceChildren(fragment);
    };
    const ready = highlighterOr((highlighter) => {
      // A streaming message may have replaced this block before the highlighter arrived.
      if (this.body.isConnected) paint(highlighter);
    });
    if (ready) paint(ready);
  }

  private copyButton(): HTMLButtonElement {
    const button = el('button', 'md-code-copy');
    button.type = 'button';
    const icon = codicon('copy');
    button.append(icon);
    let timer: number | undefined;
    const show = (name: string, label: string): void => {
      setCodicon(icon, name);
      button.title = label;
      button.setAttribute('aria-label', label);
    };
    show('copy', 'Copy code');
    button.addEventListener('click', (ev) => {
      // Inside a tree row's detail the click must not toggle or select the row.
      ev.stopPropagation();
      const done = (name: string, label: string): void => {
        show(name, label);
        window.clearTimeout(timer);
        timer = window.setTimeout(() => show('copy', 'Copy code'), FEEDBACK_MS);
      };
      navigator.clipboard.writeText(this.code).then(
        () => done('check', 'Copied'),
        () => done('error', 'Copy failed'),
      );
    });
    return button;
  }
}

function trimFinalNewline(content: string): string {
  return content.endsWith('\n') ? content.slice(0, -1) : content;
}
