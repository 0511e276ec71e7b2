/**
 * What a write_file / edit_file call changed, shown in its row's detail as red/green hunks (the hunk text
 * comes with the `file_changed` event, line-diff.ts changeDiff), with the old and new line numbers:
 *
 *   src/config.ts  +1 −1                                   [Open diff]
 *   @@ -1,3 +1,3 @@
 *    1  1    import { x } from './x';
 *    2     − export const retries = 3;
 *       2  + export const retries = 5;
 *
 * Also the row's "+a −b" and its Open diff button: a real button, so Tab reaches it (not only on hover).
 * Styles at the end; one constructed stylesheet, theme variables only.
 */
import { codicon, el } from './dom';

/** "+3 −1"; a created file "+40", a deleted one "−12". */
export function changeCounts(added: number, removed: number, action?: 'created' | 'modified' | 'deleted'): string {
  if (action === 'created' || (removed === 0 && added > 0)) return `+${added}`;
  if (action === 'deleted' || (added === 0 && removed > 0)) return `−${removed}`;
  return `+${added} −${removed}`;
}

/** A small "Open diff" button; Enter and Space work as on any button, and the row does not toggle. */
export function openDiffButton(open: () => void, className = 'diff-open'): HTMLButtonElement {
  const button = el('button', className);
  button.type = 'button';
  button.title = 'Open diff (in an editor tab)';
  button.setAttribute('aria-label', 'Open diff');
  button.append(codicon('diff'), el('span', 'diff-open-label', 'Open diff'));
  const run = (ev: Event): void => {
    ev.stopPropagation();
    ev.preventDefault();
    open();
  };
  // Capture: the tree-item's own click handler would otherwise toggle the row first.
  button.addEventListener('click', run, { capture: true });
  button.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') run(ev);
    else ev.stopPropagation();
  });
  return button;
}

/** The hunks as a table-like block of lines; `truncated`: a last line says the diff editor has the rest. */
export function diffView(hunks: string, truncated: boolean): HTMLElement {
  const view = el('div', 'diff-view');
  view.setAttribute('role', 'group');
  view.setAttribute('aria-label', 'Change');
  let oldLine = 0;
  let newLine = 0;
  for (const line of hunks.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      view.append(el('div', 'diff-line diff-hunk', line));
      continue;
    }
    const kind = line[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') {
      view.append(el('div', 'diff-line diff-more', line));
      continue;
    }
    const row = el('div', `diff-line ${kind === '+' ? 'diff-add' : kind === '-' ? 'diff-del' : 'diff-ctx'}`);
    const oldNo = kind === '+' ? '' : String(oldLine++);
    const newNo = kind === '-' ? '' : String(newLine++);
    row.append(el('span', 'diff-no', oldNo), el('span', 'diff-no', newNo), el('span', 'diff-sign', kind === ' ' ? ' ' : kind === '-' ? '−' : '+'), el('span', 'diff-text', line.slice(1)));
    if (kind !== ' ') row.setAttribute('aria-label', `${kind === '+' ? 'added' : 'removed'} line ${kind === '+' ? newNo : oldNo}: ${line.slice(1)}`);
    view.append(row);
  }
  if (truncated) view.append(el('div', 'diff-line diff-more', '… more in Open diff'));
  return view;
}

const CSS = String.raw`
.diff-view {
  font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px); line-height: 1.45;
  border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px; max-height: 320px; overflow: auto;
  background: var(--vscode-textCodeBlock-background); user-select: text;
}
.diff-line { display: grid; grid-template-columns: auto auto 1.2em 1fr; white-space: pre-wrap; overflow-wrap: anywhere; }
.diff-line.diff-hunk, .diff-line.diff-more { display: block; padding: 1px 6px; color: var(--vscode-descriptionForeground); }
.diff-hunk { background: var(--vscode-diffEditor-unchangedRegionBackground, transparent); }
.diff-no { min-width: 2.6em; padding: 0 4px; text-align: right; color: var(--vscode-editorLineNumber-foreground, var(--vscode-descriptionForeground)); user-select: none; }
.diff-sign { text-align: center; user-select: none; }
.diff-add { background: var(--vscode-diffEditor-insertedLineBackground, rgba(155, 185, 85, 0.2)); }
.diff-del { background: var(--vscode-diffEditor-removedLineBackground, rgba(255, 0, 0, 0.2)); }
.diff-add .diff-sign { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-charts-green)); }
.diff-del .diff-sign { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-errorForeground)); }
.diff-head { display: flex; align-items: center; gap: 8px; margin: 2px 0 4px; font-size: 12px; }
.diff-head .diff-path { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.diff-open, .row-diff {
  display: inline-flex; align-items: center; gap: 4px; padding: 0 4px; border-radius: 3px; cursor: pointer;
  font: inherit; font-size: 12px; color: var(--vscode-textLink-foreground); background: transparent; border: 1px solid transparent;
}
.diff-open { margin-left: auto; }
.diff-open:hover, .row-diff:hover { background: var(--vscode-toolbar-hoverBackground); }
.diff-open:focus-visible, .row-diff:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.row-diff .diff-open-label { display: none; }
.row-change-counts { font-size: 11px; white-space: nowrap; }
.row-change-counts .is-add { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-charts-green)); }
.row-change-counts .is-del { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-errorForeground)); }
.row-change-counts[hidden], .row-diff[hidden] { display: none; }
.detail-raw .detail-heading { display: none; }
.detail-raw > summary { cursor: pointer; font-size: 11px; font-weight: 600; color: var(--vscode-descriptionForeground); margin: 2px 0; }
`;

export function installDiffStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
