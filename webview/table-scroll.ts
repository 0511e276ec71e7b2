/**
 * A markdown table wider than the side bar scrolls inside its own box, and shows it can: under it, a bar with
 * a thumb as wide as the part in view (drag it, or click the bar to move a page).
 *
 *   div.md-table-box
 *     div.md-table-wrap   (overflow-x: auto)   ── the table
 *     div.md-table-bar    ▕████░░░░░░░░░░░░▏     only while the table overflows and no native bar is drawn
 *
 * Why not the native scrollbar alone: Chromium draws none when it runs with --hide-scrollbars, as Playwright's
 * headless Chromium does (the e2e suite, the held-out review in the real editor), and an overlay scrollbar shows
 * only while scrolling; a table cut at the panel's edge then reads as the whole table. Where a native bar takes
 * room under the table (offsetHeight > clientHeight), this one stays hidden.
 */
import { el, setHidden } from './dom';

export function scrollableTable(table: HTMLTableElement): HTMLElement {
  const box = el('div', 'md-table-box');
  const wrap = el('div', 'md-table-wrap');
  const bar = el('div', 'md-table-bar');
  const thumb = el('div', 'md-table-thumb');
  // The table itself is reachable (Tab, arrows) through the wrap; the bar is a pointer's convenience.
  bar.setAttribute('aria-hidden', 'true');
  bar.hidden = true;
  bar.append(thumb);
  wrap.append(table);
  box.append(wrap, bar);
  const refresh = (): void => {
    const overflow = wrap.scrollWidth - wrap.clientWidth;
    const native = wrap.offsetHeight - wrap.clientHeight > 0;
    setHidden(bar, overflow <= 1 || native);
    if (bar.hidden) return;
    const share = wrap.clientWidth / wrap.scrollWidth;
    thumb.style.width = `${(share * 100).toFixed(2)}%`;
    thumb.style.left = `${((wrap.scrollLeft / wrap.scrollWidth) * 100).toFixed(2)}%`;
  };
  wrap.addEventListener('scroll', refresh, { passive: true });
  // One observer per table: it goes with the table when a re-render replaces it (a shared one would hold every table).
  const observer = new ResizeObserver(refresh);
  observer.observe(wrap);
  observer.observe(table);
  bar.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    const rect = bar.getBoundingClientRect();
    const thumbRect = thumb.getBoundingClientRect();
    if (ev.clientX < thumbRect.left || ev.clientX > thumbRect.right) {
      wrap.scrollLeft += (ev.clientX < thumbRect.left ? -1 : 1) * wrap.clientWidth * 0.9;
      return;
    }
    const startX = ev.clientX;
    const startLeft = wrap.scrollLeft;
    const perPixel = wrap.scrollWidth / rect.width;
    const move = (e: PointerEvent): void => {
      wrap.scrollLeft = startLeft + (e.clientX - startX) * perPixel;
    };
    const up = (): void => {
      bar.releasePointerCapture(ev.pointerId);
      bar.removeEventListener('pointermove', move);
      bar.removeEventListener('pointerup', up);
    };
    bar.setPointerCapture(ev.pointerId);
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', up);
  });
  // A click on the bar is not a click on the row around the message.
  bar.addEventListener('click', (ev) => ev.stopPropagation());
  return box;
}
