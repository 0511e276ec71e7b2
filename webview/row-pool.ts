/**
 * The row elements of the virtual list between renders. When rows scroll out and others scroll in (a burst of
 * calls while the panel follows the end moves two dozen rows a frame), a call's element is filled again with
 * the call that came in, where it stands in the DOM: Chromium then restyles and lays out a few changed texts,
 * instead of attaching a new subtree (measured in headless Chromium, 25 rows a frame: 10.8 → 6.3 ms of frame
 * work). What is not taken again by the end of the render leaves the DOM.
 *
 * Elements filled in place, or appended, are not in list order in the DOM; the order is put back once the list
 * has been still for a moment (assistive tech reading the tree in document order finds it in list order).
 */
import type { FlatRow } from '../src/view-model/flat-rows';
import { setAttr } from './dom';
import type { RowView } from './row-views';
import { INDENT_LEVELS } from './styles';

const REORDER_AFTER_MS = 300;

export class RowPool {
  private readonly free = new Map<string, RowView[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly root: HTMLElement) {}

  /** A row left the view: its element waits for a row of the same pool, else goes. */
  release(view: RowView): void {
    if (view.poolKey === undefined || !view.rebind) {
      view.element.remove();
      return;
    }
    const list = this.free.get(view.poolKey) ?? [];
    list.push(view);
    this.free.set(view.poolKey, list);
  }

  /** A released view of the pool `key`, if any (its element is still in the DOM). */
  take(key: string | undefined): RowView | undefined {
    return key === undefined ? undefined : this.free.get(key)?.pop();
  }

  /** A new row's element into the list. */
  attach(view: RowView): void {
    this.root.append(view.element);
  }

  /** The end of a render: released elements nothing took leave the DOM. */
  drain(): void {
    for (const list of this.free.values()) for (const view of list) view.element.remove();
    this.free.clear();
  }

  /** After a render: once nothing has moved for a moment, the elements in list order (`ordered`) in the DOM too. */
  settle(ordered: () => HTMLElement[]): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.reorder(ordered());
    }, REORDER_AFTER_MS);
  }

  private reorder(ordered: HTMLElement[]): void {
    const active = document.activeElement;
    let prev: Element | null = null;
    for (const element of ordered) {
      const at: Element | null = prev ? prev.nextElementSibling : this.root.firstElementChild;
      if (at !== element) this.root.insertBefore(element, at);
      prev = element;
    }
    // Moving an element takes the focus off it: give it back where it was.
    if (active instanceof HTMLElement && active !== document.activeElement && active.isConnected) active.focus({ preventScroll: true });
  }
}

/** What placeRow last wrote on an element: compared in JS, so a row that did not move costs no DOM read or write. */
interface Placed {
  index: number;
  start: number;
  level: number;
  setSize: number;
  posInSet: number;
  /** undefined: never written. */
  expanded: boolean | null | undefined;
  parent: string | null;
  focusable: boolean;
  revealed: boolean;
}
const placed = new WeakMap<HTMLElement, Placed>();

/** A row element's place in the list and its tree semantics (role, level, position, open state, roving focus). */
export function placeRow(element: HTMLElement, row: FlatRow, index: number, start: number, focusable: boolean, revealed: boolean): void {
  const level = Math.min(row.level, INDENT_LEVELS);
  const expanded = row.expandable ? row.expanded : null;
  let was = placed.get(element);
  if (!was) {
    setAttr(element, 'role', 'treeitem');
    // Values no row has: every field below is written the first time (the record is then updated in place).
    was = { index: -1, start: -1, level: 0, setSize: -1, posInSet: -1, expanded: undefined, parent: '', focusable: !focusable, revealed: !revealed };
    placed.set(element, was);
  }
  if (was.index !== index) setAttr(element, 'data-index', String((was.index = index)));
  if (was.start !== start) element.style.transform = `translateY(${(was.start = start)}px)`;
  if (was.level !== level) {
    if (was.level) element.classList.remove(`lv-${was.level}`);
    element.classList.add(`lv-${(was.level = level)}`);
    setAttr(element, 'aria-level', String(row.level));
  }
  if (was.setSize !== row.setSize) setAttr(element, 'aria-setsize', String((was.setSize = row.setSize)));
  if (was.posInSet !== row.posInSet) setAttr(element, 'aria-posinset', String((was.posInSet = row.posInSet)));
  if (was.expanded !== expanded) {
    was.expanded = expanded;
    setAttr(element, 'aria-expanded', expanded === null ? null : String(expanded));
  }
  if (was.parent !== row.parent) setAttr(element, 'data-parent', (was.parent = row.parent));
  if (was.focusable !== focusable) {
    was.focusable = focusable;
    setAttr(element, 'tabindex', focusable ? '0' : '-1');
  }
  if (was.revealed !== revealed) element.classList.toggle('revealed', (was.revealed = revealed));
}
