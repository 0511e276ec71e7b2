/**
 * The list's scroll position as the renderer knows it without reading layout: the viewport's height (a
 * ResizeObserver), the offset (scroll events, and what the renderer itself asked for), and whether the panel
 * follows the newest row. A render places its rows for `target()`, writes the DOM, and only then writes the
 * offset (`flush`): the one layout Chromium must do for that write is the frame's own, not a second one.
 *
 *   following  the user is at the end: new rows scroll into view
 *   stops      only when the user scrolls away (wheel, touch, keys, the scroll bar) — rows growing under a
 *              programmatic scroll do not count
 *   resumes    at the end again (scrolled there, Jump to latest, a new snapshot, a prompt sent)
 *
 * `arrivedBelow` remembers that rows came below the view since the user stopped following (Jump to latest
 * shows for them, also once the run has ended).
 */
const FOLLOW_SLACK = 40;
const USER_INPUT_MS = 1000;

export class FollowScroll {
  /** The scroller's inner height (0 until first read). */
  private height = 0;
  /** The offset the rows are placed for: the last one read from a scroll event or asked for. */
  offset = 0;
  private follows = true;
  /** Rows arrived below the view while the user was not following. */
  arrivedBelow = false;
  private pending: number | null = null;
  private userAt = 0;

  constructor(
    private readonly scroller: HTMLElement,
    /** The list's full height (the renderer's layout). */
    private readonly total: () => number,
    /** Something moved: render again. */
    private readonly changed: () => void,
  ) {
    for (const type of ['wheel', 'pointerdown', 'touchstart', 'keydown']) {
      scroller.addEventListener(type, () => (this.userAt = performance.now()), { passive: true, capture: true });
    }
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    new ResizeObserver((entries) => {
      const h = entries[entries.length - 1]?.contentRect.height ?? 0;
      if (h === this.height) return;
      this.height = h;
      this.changed();
    }).observe(scroller);
  }

  get following(): boolean {
    return this.follows;
  }

  set following(on: boolean) {
    this.follows = on;
    if (on) this.arrivedBelow = false;
  }

  get viewport(): number {
    // Before the observer's first report (the first render of a page): one read.
    if (this.height === 0) this.height = this.scroller.clientHeight;
    return this.height;
  }

  /** The largest offset the list allows. */
  get max(): number {
    return Math.max(0, Math.round(this.total() - this.viewport));
  }

  /** Where this render places the rows for: the end while following, else the offset (within the list). */
  target(): number {
    const to = this.following ? this.max : Math.min(this.offset, this.max);
    if (Math.abs(to - this.offset) > 1) this.scrollTo(to);
    return this.offset;
  }

  /** Asks for an offset: rows are placed for it now, the scroller is moved at the end of the render. */
  scrollTo(offset: number): void {
    this.offset = Math.max(0, offset);
    this.pending = this.offset;
  }

  /** Moves the scroller where the render placed the rows (after every DOM write of the render). */
  flush(): void {
    if (this.pending === null) return;
    const to = this.pending;
    this.pending = null;
    // Written without reading scrollTop first: a read here would force a layout of its own.
    this.scroller.scrollTop = to;
  }

  /** Whether the user moved the list themselves in the last second (a scroll then is theirs). */
  get byUser(): boolean {
    return performance.now() - this.userAt < USER_INPUT_MS;
  }

  private onScroll(): void {
    const top = this.scroller.scrollTop;
    // The scroll the render asked for (Chromium rounds it to whole pixels, and clamps it to its own height).
    if (Math.abs(top - this.offset) <= 2) return;
    this.offset = top;
    if (this.total() - top - this.viewport < FOLLOW_SLACK) this.following = true;
    else if (this.byUser) this.following = false;
    this.changed();
  }
}
