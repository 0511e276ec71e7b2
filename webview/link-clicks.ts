/**
 * Follows links in rendered markdown (`a.md-link`, see markdown-dom.ts): one capturing listener
 * for the whole panel, so links inside tree rows work too (their detail stops click bubbling).
 * The link's target was classified when it was rendered; the host opens it.
 */

export interface LinkActions {
  openFile(path: string, line?: number): void;
  openExternal(url: string): void;
}

export function installLinkClicks(root: Document, actions: LinkActions): void {
  const follow = (ev: Event): void => {
    const link = ev.target instanceof Element ? ev.target.closest('a.md-link') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    ev.preventDefault();
    ev.stopPropagation();
    const { url, path, line } = link.dataset;
    if (url !== undefined) actions.openExternal(url);
    else if (path !== undefined) actions.openFile(path, line === undefined ? undefined : Number(line));
  };
  root.addEventListener('click', follow, { capture: true });
  root.addEventListener(
    'keydown',
    (ev) => {
      if (ev.key === 'Enter') follow(ev);
    },
    { capture: true },
  );
}
