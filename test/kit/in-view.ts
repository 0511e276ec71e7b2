/**
 * Whether a user sees and can click elements of the panel without scrolling anything: each one has a size, lies
 * inside the document's viewport (the panel's, also inside the real editor's webview frame), is not cut by any
 * scrolling (or clipping) ancestor, and is what the pointer hits at its centre. Returns what is wrong, one line per
 * problem (empty: all fine), so a failure names the control. `within`: any element of that document (its body).
 */
import type { Locator } from 'playwright-core';

interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}
interface Node {
  className: string;
  textContent: string | null;
  parentElement: Node | null;
  clientTop: number;
  clientLeft: number;
  clientWidth: number;
  clientHeight: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Rect;
  contains(other: unknown): boolean;
}
interface Win {
  innerWidth: number;
  innerHeight: number;
  document: { querySelectorAll(selector: string): ArrayLike<Node>; elementFromPoint(x: number, y: number): Node | null };
  getComputedStyle(node: Node): { overflowX: string; overflowY: string };
}

export async function notInView(within: Locator, selector: string): Promise<string[]> {
  // No named functions in page code (tsx's keepNames would wrap them in `__name`, absent in the page).
  return within.evaluate((body, sel) => {
    const w = (body as unknown as { ownerDocument: { defaultView: Win } }).ownerDocument.defaultView;
    const problems: string[] = [];
    const nodes = Array.from(w.document.querySelectorAll(sel));
    if (nodes.length === 0) problems.push(`nothing matches ${sel}`);
    for (const node of nodes) {
      const name = `${node.className} "${(node.textContent || node.getAttribute('placeholder') || '').trim().slice(0, 40)}"`;
      const r = node.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) {
        problems.push(`${name}: not shown (${r.width}×${r.height})`);
        continue;
      }
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > w.innerHeight + 0.5 || r.right > w.innerWidth + 0.5) {
        problems.push(`${name}: outside the ${w.innerWidth}×${w.innerHeight} panel (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)})`);
      }
      for (let a = node.parentElement; a; a = a.parentElement) {
        const style = w.getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        const top = b.top + a.clientTop;
        const left = b.left + a.clientLeft;
        if (r.top < top - 0.5 || r.bottom > top + a.clientHeight + 0.5 || r.left < left - 0.5 || r.right > left + a.clientWidth + 0.5) {
          problems.push(`${name}: cut by the scroll box .${a.className.split(' ').join('.')} (${Math.round(a.clientHeight)} px high)`);
        }
      }
      const hit = w.document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === node || node.contains(hit))) problems.push(`${name}: covered by ${hit ? hit.className : 'nothing'}`);
    }
    return problems;
  }, selector);
}
