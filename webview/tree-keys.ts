/**
 * The keyboard of the flat tree, as in VS Code's own trees: one row is in the Tab order (roving focus);
 * ↑/↓ move, → opens or goes to the first child, ← closes or goes to the parent, Home/End, PageUp/PageDown,
 * Enter/Space toggle (Enter on an edit row opens its diff), and typing a few letters moves to the next row
 * whose label starts with them (type-to-find). Works on rows not in the DOM: they are scrolled in first.
 */
import type { FlatRow } from '../src/view-model/flat-rows';
import type { SessionViewState } from '../src/view-model/session-view';

export interface TreeHost {
  readonly rowCount: number;
  readonly viewState: SessionViewState | null;
  rowAtIndex(i: number): FlatRow | undefined;
  indexOf(key: string): number;
  rowAt(key: string): FlatRow | undefined;
  elementOf(key: string): HTMLElement | undefined;
  setOpen(key: string, open: boolean): void;
  enter(key: string): void;
  scrollToIndex(i: number, align?: 'auto' | 'center' | 'start' | 'end'): void;
}

const TYPE_AHEAD_MS = 700;

/** What type-to-find compares with: the words a row starts with. */
function rowLabel(state: SessionViewState, row: FlatRow): string {
  const node = state.nodes[row.nodeId];
  switch (row.kind) {
    case 'task':
      return node?.kind === 'task' ? node.description : '';
    case 'tool':
      return node?.kind === 'tool' ? `${node.name} ${node.summary}` : '';
    case 'prompt':
      return 'Prompt';
    case 'message':
      return 'Message';
    case 'outcome':
      return node?.kind === 'task' ? (node.status === 'cancelled' ? 'Stopped' : node.error !== undefined ? 'Error' : 'Result') : '';
    case 'changes':
      return 'Changes';
    case 'thinking':
      return 'Thinking';
    case 'fold':
      return 'Earlier calls';
    case 'change-file':
      return node?.kind === 'task' ? node.changes?.files[row.index ?? 0]?.path ?? '' : '';
    case 'change-command':
      return node?.kind === 'task' ? node.changes?.commands[row.index ?? 0]?.command ?? '' : '';
    case 'user':
      return node?.kind === 'user' ? (node.handoff?.text ?? node.text) : '';
    case 'text':
      return node?.kind === 'text' ? node.text : '';
    case 'notice':
      return node?.kind === 'notice' ? node.text : '';
    default:
      return '';
  }
}

export class TreeKeys {
  focused: string | null = null;
  /** A row to focus once it is rendered (scrolled to, not in the DOM yet). */
  private pending: string | null = null;
  private typed = '';
  private typedAt = 0;

  constructor(private readonly host: TreeHost, root: HTMLElement) {
    root.addEventListener('keydown', (ev) => this.onKey(ev));
    root.addEventListener('focusin', (ev) => {
      const row = (ev.target as HTMLElement).closest<HTMLElement>('.tree-row');
      if (row?.dataset.id !== undefined) this.focused = row.dataset.id;
    });
  }

  /** The row that takes the Tab stop among those in view: the focused one, else the first. */
  focusKey(inView: string[]): string | undefined {
    if (this.focused !== null && inView.includes(this.focused)) return this.focused;
    return inView[0];
  }

  setFocus(key: string): void {
    this.focused = key;
  }

  /** Moves focus to row `i` (scrolled into view first). */
  focusIndex(i: number): void {
    const row = this.host.rowAtIndex(Math.max(0, Math.min(this.host.rowCount - 1, i)));
    if (!row) return;
    this.focused = row.key;
    this.pending = row.key;
    this.host.scrollToIndex(this.host.indexOf(row.key), 'auto');
    this.afterRender();
  }

  /** Focuses the row asked for once the list has rendered it. */
  afterRender(): void {
    if (this.pending === null) return;
    const element = this.host.elementOf(this.pending);
    if (!element) return;
    this.pending = null;
    element.focus({ preventScroll: true });
  }

  private onKey(ev: KeyboardEvent): void {
    const target = ev.target as HTMLElement;
    // Keys in a button, link or text box of a row are theirs; the rows' keys apply on the row itself.
    if (!target.classList.contains('tree-row') && !target.matches('[role=tree]')) return;
    const key = target.dataset.id ?? this.focused ?? this.host.rowAtIndex(0)?.key;
    if (key === undefined) return;
    const i = this.host.indexOf(key);
    const row = this.host.rowAt(key);
    if (!row) return;
    const page = Math.max(1, Math.floor((target.closest('.log')?.clientHeight ?? 400) / 22) - 1);
    let handled = true;
    switch (ev.key) {
      case 'ArrowDown':
        this.focusIndex(i + 1);
        break;
      case 'ArrowUp':
        this.focusIndex(i - 1);
        break;
      case 'Home':
        this.focusIndex(0);
        break;
      case 'End':
        this.focusIndex(this.host.rowCount - 1);
        break;
      case 'PageDown':
        this.focusIndex(i + page);
        break;
      case 'PageUp':
        this.focusIndex(i - page);
        break;
      case 'ArrowRight':
        if (row.expandable && !row.expanded) this.host.setOpen(key, true);
        else if (row.expanded) this.focusIndex(i + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) this.host.setOpen(key, false);
        else if (row.parent !== null) this.focusIndex(this.host.indexOf(row.parent));
        break;
      case 'Enter':
        this.host.enter(key);
        break;
      case ' ':
        if (row.expandable) this.host.setOpen(key, !row.expanded);
        break;
      default:
        handled = ev.key.length === 1 && !ev.ctrlKey && !ev.metaKey && !ev.altKey && this.typeAhead(ev.key, i);
    }
    if (handled) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  }

  /** The next row (after the focused one, wrapping) whose label starts with what was typed. */
  private typeAhead(char: string, from: number): boolean {
    const state = this.host.viewState;
    if (!state) return false;
    const now = performance.now();
    const again = now - this.typedAt < TYPE_AHEAD_MS;
    this.typed = again ? this.typed + char.toLowerCase() : char.toLowerCase();
    this.typedAt = now;
    const n = this.host.rowCount;
    // A new search starts after the focused row; a longer one may still match the focused row.
    const start = again ? from : from + 1;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const row = this.host.rowAtIndex(i);
      if (row && row.kind !== 'detail' && rowLabel(state, row).trimStart().toLowerCase().startsWith(this.typed)) {
        this.focusIndex(i);
        return true;
      }
    }
    return true;
  }
}
