/**
 * Find in the panel: Ctrl/Cmd+F (the webview has no find widget of its own) opens a filter box over the
 * conversation. In the editor the panel keeps Ctrl/Cmd+F to itself: the keydown stops here, before the webview's
 * host passes it on to the workbench, whose own Ctrl+F (`actions.find`, "editorFocus || editorIsOpen") would
 * open the editor's find widget and take focus. The `delegate.find` keybinding (when `delegate.panelFocus`: the
 * host learns of focus one IPC round trip late, so it cannot be all) and the palette's command send a `find`
 * message instead; opening is idempotent, so what the user types meanwhile is never selected and replaced. What is typed filters every call and task of the session (row-filter.ts: text, tool:, path:,
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

  /** Ctrl/Cmd+F (`find`: this bar, or where else the panel searches) and F8 on the document. */
  install(doc: Document, find: () => void = () => this.open()): void {
    doc.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey && ev.key.toLowerCase() === 'f') {
        ev.preventDefault();
        // Not on to the webview's host (a window listener), which would hand it to the workbench's keybindings.
        ev.stopPropagation();
        find();
      } else if (ev.key === 'F8') {
        ev.preventDefault();
        this.nextError();
      }
    });
  }

  open(): void {
    // Open with the caret in it already: leave the box (and what is being typed) alone.
    if (!this.element.hidden && document.activeElement === this.input) return;
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
    if (!filter || n === 0) setText(this.count, filter ? 'No matches' : '');
    // "2 matches"; a narrow side bar shows the number only (the word stays for screen readers): the box keeps the room.
    else this.count.replaceChildren(n.toLocaleString('en-US'), el('span', 'find-count-word', ` match${n === 1 ? '' : 'es'}`));
    this.element.classList.toggle('no-match', filter !== null && n === 0);
  }

  private nextError(): void {
    if (!this.renderer.nextError()) setText(this.count, 'No errors');
  }
}
