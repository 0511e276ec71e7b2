/**
 * While the user scrolls inside an open task, its header (description, live counters, Stop) stays pinned at
 * the top of the panel — the innermost task whose own row has scrolled out of view; a click on it goes back
 * to the row. And when the user has scrolled away from the end while something runs, or rows have arrived
 * below the view since (the final answer of a run that ended meanwhile), a "Jump to latest" button brings the
 * newest row back and follows it again.
 */
import { el, setHidden } from './dom';
import type { ConversationRenderer } from './renderer';
import { TaskRow, type TaskRowHost } from './task-row';

/** Below this list height (three one-line rows) nothing is pinned. */
const MIN_LIST_FOR_PIN = 66;

export class StickyHeader {
  readonly element: HTMLDivElement;
  readonly jump: HTMLButtonElement;
  private view: TaskRow | null = null;
  private taskId: string | null = null;

  constructor(private readonly renderer: ConversationRenderer, private readonly host: TaskRowHost) {
    this.element = el('div', 'sticky-task');
    this.element.hidden = true;
    this.element.setAttribute('role', 'group');
    this.element.addEventListener('click', (ev) => {
      if ((ev.target as HTMLElement).closest('button, .row-action')) return;
      const i = this.taskId === null ? -1 : renderer.indexOf(this.taskId);
      if (i >= 0) renderer.scrollToIndex(i, 'start');
    });
    this.jump = el('button', 'jump-latest');
    this.jump.type = 'button';
    this.jump.hidden = true;
    this.jump.title = 'Scroll to the newest row and follow it';
    this.jump.append(el('span', 'codicon codicon-arrow-down'), el('span', '', 'Jump to latest'));
    this.jump.addEventListener('click', () => renderer.jumpToLatest());
  }

  /** After each render: which task to pin, and whether the jump button shows. */
  update(): void {
    const state = this.renderer.viewState;
    // The virtualizer's offset: reading the element's would force a layout on every frame.
    const scrollTop = this.renderer.scrollOffset;
    const top = this.renderer.visibleItems().find((item) => item.end > scrollTop + 1);
    let pinned: string | null = null;
    // A list the inbox squeezed to a few rows shows them rather than a pinned header over all of them.
    const roomy = this.renderer.viewportHeight >= MIN_LIST_FOR_PIN;
    // Up the parents by index (no key lookups: this runs on every frame).
    for (let i = top && roomy ? this.renderer.rowAtIndex(top.index)?.parentIndex ?? -1 : -1, guard = 0; i >= 0 && guard < 64; guard++) {
      const row = this.renderer.rowAtIndex(i);
      if (!row) break;
      // The innermost open task whose header has scrolled above the top.
      if (row.kind === 'task' && (this.renderer.startAt(i) ?? 0) < scrollTop) {
        pinned = row.key;
        break;
      }
      i = row.parentIndex;
    }
    const node = pinned === null ? undefined : state?.nodes[pinned];
    if (node?.kind !== 'task' || !state) {
      this.taskId = null;
      setHidden(this.element, true);
    } else {
      if (this.taskId !== node.id || !this.view) {
        this.view = new TaskRow(node, this.host);
        delete this.view.item.dataset.id;
        this.view.item.dataset.pinnedOf = node.id;
        this.view.item.classList.add('is-pinned');
        this.element.replaceChildren(this.view.item);
        this.element.setAttribute('aria-label', `Inside: ${node.description}`);
        this.taskId = node.id;
      }
      this.view.update(node, Date.now(), state, true);
      setHidden(this.element, false);
    }
    // While it runs, or once rows came below the view: a user scrolled up sees the final answer arrive through it.
    setHidden(this.jump, this.renderer.following || this.renderer.rowCount === 0 || !((state?.running ?? false) || this.renderer.arrivedBelow));
  }

  tick(now: number): void {
    if (this.view && !this.element.hidden) this.view.updateMeta(now);
  }
}
