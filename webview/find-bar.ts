/**
 * Find in the panel: Ctrl/Cmd+F (the webview has no find widget of its own) opens a filter box over the
 * conversation. What is typed filters every call and task of the session (row-filter.ts: text, tool:, path:,
 * status:), the tasks around the matches shown open; Enter moves to the next match, Escape closes the box
 * and shows everything again. "Next error" (and F8) goes to the next failed call or task, filtered or not.
 *
 *   [⌕ status:error tool:bash          ] 3 matches  [↓ Next error] [×]
 */
import { parseFilter } from '../src/view-model/row-filter';
import { codicon, el, setHidden, setText } from './dom';
import type { ConversationRenderer } from './renderer';

export class FindBar {
  readonly element: HTMLDivElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLSpanElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly renderer: ConversationRenderer) {
    this.element = el('div', 'find-bar');
    this.element.hidden = true;
    this.element.setAttribute('role', 'search');
    this.input = el('input', 'find-input');
    this.input.type = 'text';
    this.input.placeholder = 'Filter: text, tool:bash, path:src/, status:error';
    this.input.setAttribute('aria-label', 'Filter the calls and tasks of this session');
    this.count = el('span', 'find-count');
    this.count.setAttribute('aria-live', 'polite');
    const nextError = el('button', 'find-next-error');
    nextError.type = 'button';
    nextError.title = 'Next error (F8): the next failed call or task';
    // Not the error glyph: a circled × beside the close button read as a second close.
    nextError.append(codicon('arrow-down'), el('span', '', 'Next error'));
    nextError.addEventListener('click', () => this.nextError());
    const close = el('button', 'find-close codicon codicon-close');
    close.type = 'button';
    close.title = 'Close (Escape)';
    close.setAttribute('aria-label', 'Close the filter');
    close.addEventListener('click', () => this.close());
    const box = el('div', 'find-box');
    box.append(codicon('filter', 'find-icon'), this.input);
    this.element.append(box, this.count, nextError, close);
    this.input.addEventListener('input', () => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      // A 50,000-call session filters in a few ms; a short pause still saves work while typing.
      this.timer = setTimeout(() => this.apply(), 80);
    });
    this.input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        this.close();
      } else if (ev.key === 'Enter') {
        ev.preventDefault();
        this.apply();
        this.renderer.focusFirstMatch();
      }
    });
  }

  /** Ctrl/Cmd+F and F8 on the document. */
  install(doc: Document): void {
    doc.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === 'f') {
        ev.preventDefault();
        this.open();
      } else if (ev.key === 'F8') {
        ev.preventDefault();
        this.nextError();
      }
    });
  }

  open(): void {
    setHidden(this.element, false);
    this.input.focus();
    this.input.select();
  }

  close(): void {
    this.input.value = '';
    this.apply();
    setHidden(this.element, true);
  }

  private apply(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const filter = parseFilter(this.input.value);
    const n = this.renderer.setFilter(filter);
    setText(this.count, filter ? (n === 0 ? 'No matches' : `${n.toLocaleString('en-US')} match${n === 1 ? '' : 'es'}`) : '');
    this.element.classList.toggle('no-match', filter !== null && n === 0);
  }

  private nextError(): void {
    if (!this.renderer.nextError()) setText(this.count, 'No errors');
  }
}
