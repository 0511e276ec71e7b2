/**
 * The change a write_file / edit_file row made, in the row (its "+a −b") and in its detail (the hunks over an
 * Open diff button, the raw input folded away under "Input (JSON)"). A call that changed nothing (failed,
 * refused) keeps the plain Input section.
 */
import type { ToolCallNode } from '../src/view-model/session-view';
import { changeCounts, diffView, openDiffButton } from './diff-view';
import { el, setHidden } from './dom';

type Change = NonNullable<ToolCallNode['change']>;

/** The row's counts, coloured per sign; hidden until the call changed something. */
export function fillCounts(counts: HTMLElement, change: Change | undefined): void {
  const key = change?.added === undefined ? '' : `${change.added}/${change.removed ?? 0}`;
  if (counts.dataset.key === key) return;
  counts.dataset.key = key;
  counts.replaceChildren();
  setHidden(counts, key === '');
  if (!change || change.added === undefined) return;
  const text = changeCounts(change.added, change.removed ?? 0, change.before === undefined ? 'created' : undefined);
  for (const part of text.split(' ')) {
    if (counts.childElementCount) counts.append(' ');
    counts.append(el('span', part.startsWith('+') ? 'is-add' : 'is-del', part));
  }
  counts.title = `${change.added} line${change.added === 1 ? '' : 's'} added, ${change.removed ?? 0} removed`;
  counts.setAttribute('aria-label', counts.title);
}

/**
 * Fills the detail's change section (built once per change); `input` is the Input section, which moves into
 * a closed <details> when there is a change to show instead.
 */
export function fillChange(section: HTMLElement, input: HTMLElement, node: ToolCallNode, openDiff: () => void, openFile: (path: string) => void): void {
  const change = node.change;
  const key = change ? `${change.path}|${change.after ?? ''}|${change.diff?.length ?? -1}` : '';
  if (section.dataset.key === key) return;
  section.dataset.key = key;
  section.replaceChildren();
  setHidden(section, !change);
  if (!change) {
    if (input.parentElement?.tagName === 'DETAILS') input.parentElement.replaceWith(input);
    return;
  }
  const head = el('div', 'diff-head');
  const path = el('span', 'path-link diff-path', change.path);
  path.title = `Open ${change.path}`;
  path.addEventListener('click', (ev) => {
    ev.stopPropagation();
    openFile(change.path);
  });
  head.append(path);
  if (change.added !== undefined) head.append(el('span', 'tone-muted', changeCounts(change.added, change.removed ?? 0, change.before === undefined ? 'created' : undefined)));
  head.append(openDiffButton(openDiff));
  section.append(head);
  if (change.diff) section.append(diffView(change.diff, change.diffTruncated === true));
  else section.append(el('div', 'detail-note', change.added === 0 && change.removed === 0 ? 'No line changed (the same lines were written).' : 'The diff is in the diff editor (Open diff).'));
  if (input.parentElement?.tagName !== 'DETAILS') {
    const raw = el('details', 'detail-raw');
    raw.append(el('summary', '', 'Input (JSON)'));
    input.replaceWith(raw);
    raw.append(input);
  }
}
