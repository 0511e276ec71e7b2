/**
 * When the panel's document gains or loses the focus. The window's `focus`/`blur` events alone are not enough in
 * VS Code's webview (the page is a frame inside the webview's own frame): focus that comes back through the outer
 * frame can arrive with no `focus` event in ours (e2e: after "Focus on Delegate View" the frame had the focus,
 * nothing in it did, and no handler had run). VS Code's pre/index.html polls `document.hasFocus()` every 250 ms
 * for the same reason; the events still act at once, the poll catches what they miss.
 */
export interface FocusHandlers {
  focus(): void;
  blur(): void;
}

export function trackPanelFocus(on: FocusHandlers, everyMs = 250): void {
  let focused = document.hasFocus();
  const set = (now: boolean, fromEvent: boolean): void => {
    if (now === focused && !fromEvent) return;
    focused = now;
    if (now) on.focus();
    else on.blur();
  };
  window.addEventListener('focus', () => set(true, true));
  window.addEventListener('blur', () => set(false, true));
  setInterval(() => set(document.hasFocus(), false), everyMs);
}
