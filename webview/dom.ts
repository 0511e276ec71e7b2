/**
 * Minimal DOM helpers for incremental updates: every setter writes only when the value
 * differs, so re-applying an unchanged node costs a few comparisons and no layout.
 */

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function setText(node: HTMLElement, text: string): void {
  const only = node.firstChild;
  // One text child: change its data in place (textContent would put a new text node in, which Chromium attaches anew).
  if (only !== null && only === node.lastChild && only.nodeType === 3) {
    if ((only as Text).data !== text) (only as Text).data = text;
  } else if (node.textContent !== text) {
    node.textContent = text;
  }
}

export function setAttr(node: HTMLElement, name: string, value: string | null): void {
  if (value === null) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== value) {
    node.setAttribute(name, value);
  }
}

export function setClassName(node: HTMLElement, className: string): void {
  if (node.className !== className) node.className = className;
}

export function setHidden(node: HTMLElement, hidden: boolean): void {
  if (node.hidden !== hidden) node.hidden = hidden;
}

/** A codicon span (`codicon codicon-<name>`); the document's codicon.css styles it. */
export function codicon(name: string, extra = ''): HTMLSpanElement {
  const span = el('span', `codicon codicon-${name}${extra ? ` ${extra}` : ''}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

export function setCodicon(node: HTMLElement, name: string, extra = ''): void {
  setClassName(node, `codicon codicon-${name}${extra ? ` ${extra}` : ''}`);
}

/**
 * A status icon that screen readers read (`label`), or hide (null: a visible word beside it says it). Codicons are
 * glyphs of a private-use font: without a label they read as nothing, or as a stray character.
 */
export function setIconLabel(node: HTMLElement, label: string | null): void {
  setAttr(node, 'role', label === null ? null : 'img');
  setAttr(node, 'aria-label', label);
  setAttr(node, 'aria-hidden', label === null ? 'true' : null);
}
