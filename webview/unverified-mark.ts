/**
 * A finished task whose report the harness could not back up (issue 16 §3–4) says so on its row, under the
 * status line: how many claims, each with the record's word, and whether the report carried instruction-shaped
 * text that was defanged before the parent read it.
 *
 *   ✓ Raise the retry default
 *     3 turns · 2 tools · 4s
 *     ⚠ 1 claim not backed by the record
 *       "All tests pass." — `npm test` exited 1
 *
 * Self-contained: the task row makes one and calls update(node); the styles install themselves once.
 */
import type { TaskNode } from '../src/view-model/session-view';
import { codicon, el, setHidden, setText } from './dom';

export class UnverifiedMark {
  readonly el: HTMLDivElement;
  private readonly label: HTMLSpanElement;
  private readonly list: HTMLUListElement;
  private shown = '';

  constructor() {
    installStyles();
    this.el = el('div', 'task-unverified');
    this.label = el('span', 'task-unverified-label');
    const head = el('div', 'task-unverified-head');
    head.append(codicon('warning', 'tone-warn'), this.label);
    this.list = el('ul', 'task-unverified-list');
    this.el.append(head, this.list);
    setHidden(this.el, true);
  }

  update(node: TaskNode): void {
    const claims = node.unverified ?? [];
    const defanged = node.defanged ?? [];
    const key = JSON.stringify([claims, defanged]);
    if (key === this.shown) return;
    this.shown = key;
    setHidden(this.el, claims.length === 0 && defanged.length === 0);
    const parts = [
      ...(claims.length ? [`${claims.length} claim${claims.length === 1 ? '' : 's'} not backed by the record`] : []),
      ...(defanged.length ? ['instruction-shaped text defanged'] : []),
    ];
    setText(this.label, ` ${parts.join(' · ')}`);
    this.el.title = [...claims.map((c) => `"${c.claim}": ${c.reason}`), ...(defanged.length ? [`Defanged before the parent read it: ${defanged.join(', ')}`] : [])].join('\n');
    this.list.replaceChildren(
      ...claims.map((c) => {
        const li = el('li', 'task-unverified-claim');
        li.append(el('span', 'task-unverified-text', `"${c.claim}"`), el('span', 'task-unverified-reason', ` — ${c.reason}`));
        return li;
      }),
    );
  }
}

const CSS = `
.task-unverified { font-size: 0.92em; margin-top: 2px; color: var(--vscode-descriptionForeground); white-space: normal; }
.task-unverified-head { display: flex; align-items: center; gap: 2px; color: var(--vscode-editorWarning-foreground, var(--vscode-foreground)); }
.task-unverified-list { margin: 1px 0 0 18px; padding: 0; list-style: none; }
.task-unverified-claim { overflow: hidden; text-overflow: ellipsis; }
.task-unverified-text { color: var(--vscode-foreground); }
`;

let installed = false;

function installStyles(): void {
  if (installed || typeof CSSStyleSheet === 'undefined') return;
  installed = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
