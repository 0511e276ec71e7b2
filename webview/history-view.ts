/**
 * The history list: this workspace's sessions, newest first — first prompt (or the name given) as title, when,
 * turns, tokens, how it ended with its subagents that did not complete ("completed · 1 failed · 1 stopped").
 * A search box filters by title; each row can be renamed (in place: Enter keeps, Escape cancels) and deleted
 * (the host asks first). Opening one asks the host, which rebuilds the whole view from its transcript.
 */
import type { SessionListItem } from '../src/protocol';
import { codicon, el } from './dom';

export interface HistoryCallbacks {
  open(id: string): void;
  newSession(): void;
  close(): void;
  rename(id: string, title: string): void;
  delete(id: string, title: string): void;
}

const STATUS: Record<SessionListItem['status'], { icon: string; tone: string; word: string }> = {
  running: { icon: 'loading codicon-modifier-spin', tone: 'tone-running', word: 'running' },
  completed: { icon: 'pass', tone: 'tone-ok', word: 'completed' },
  max_turns: { icon: 'warning', tone: 'tone-warn', word: 'turn limit' },
  budget_exceeded: { icon: 'warning', tone: 'tone-warn', word: 'budget reached' },
  error: { icon: 'error', tone: 'tone-error', word: 'failed' },
  cancelled: { icon: 'circle-slash', tone: 'tone-muted', word: 'stopped' },
  interrupted: { icon: 'debug-disconnect', tone: 'tone-warn', word: 'interrupted' },
};

function relativeTime(time: number, now: number): string {
  const s = Math.max(0, Math.round((now - time) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)} d ago`;
  return new Date(time).toLocaleDateString();
}

function tokens(n: number): string {
  return n < 1000 ? `${n} tokens` : n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k tokens` : `${(n / 1_000_000).toFixed(1)}M tokens`;
}

/** "completed · 1 failed · 1 stopped": how the last prompt ended, and its subagents that did not complete. */
function statusLine(s: Pick<SessionListItem, 'status' | 'subagents'>): string {
  const parts = [STATUS[s.status].word];
  const sub = s.subagents;
  if (sub?.failed) parts.push(`${sub.failed} failed`);
  if (sub?.stopped) parts.push(`${sub.stopped} stopped`);
  if (sub?.limited) parts.push(`${sub.limited} at a limit`);
  return parts.join(' · ');
}

export class HistoryView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly none: HTMLElement;

  constructor(private readonly callbacks: HistoryCallbacks) {
    this.element = el('section', 'history');
    this.element.hidden = true;
    const header = el('div', 'history-header');
    const back = el('button', 'history-back');
    back.append(codicon('arrow-left'), el('span', '', 'Back'));
    back.addEventListener('click', () => this.callbacks.close());
    const fresh = el('button', 'history-new');
    fresh.append(codicon('add'), el('span', '', 'New session'));
    fresh.addEventListener('click', () => this.callbacks.newSession());
    header.append(back, el('span', 'history-title', 'Sessions in this workspace'), fresh);
    this.search = el('input', 'history-search');
    this.search.type = 'search';
    this.search.placeholder = 'Search sessions';
    this.search.setAttribute('aria-label', 'Search sessions by title');
    this.search.addEventListener('input', () => this.filter());
    this.list = el('ol', 'history-list');
    this.none = el('div', 'history-none', 'No session matches.');
    this.none.hidden = true;
    this.element.append(header, this.search, this.list, this.none);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  show(sessions: SessionListItem[], currentId: string | undefined, now = Date.now()): void {
    this.list.replaceChildren(...(sessions.length ? sessions.map((s) => this.row(s, s.id === currentId, now)) : [el('li', 'history-empty', 'No sessions yet: ask something to start one.')]));
    this.search.hidden = sessions.length === 0;
    const wasOpen = !this.element.hidden;
    this.element.hidden = false;
    this.filter();
    // A re-sent list (after a rename or delete) keeps the user where they were: in the search box, if there.
    if (!wasOpen || document.activeElement === document.body) (this.list.querySelector('.history-row:not([hidden])') as HTMLElement | null)?.focus();
  }

  private filter(): void {
    const words = this.search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const row of this.list.querySelectorAll<HTMLElement>('.history-row')) {
      const title = (row.dataset.title ?? '').toLowerCase();
      const match = words.every((w) => title.includes(w));
      row.hidden = !match;
      if (match) shown++;
    }
    this.none.hidden = shown > 0 || words.length === 0;
  }

  hide(): void {
    this.element.hidden = true;
  }

  /** Ctrl/Cmd+F while the list shows: its search box. */
  focusSearch(): void {
    if (this.search.hidden) return;
    this.search.focus();
    this.search.select();
  }

  private row(s: SessionListItem, current: boolean, now: number): HTMLElement {
    const status = STATUS[s.status];
    const row = el('li', `history-row${current ? ' is-current' : ''}`);
    row.dataset.sessionId = s.id;
    row.dataset.title = s.title;
    row.tabIndex = 0;
    row.setAttribute('role', 'button');
    row.title = `${s.title}\n${new Date(s.updatedAt).toLocaleString()} · session ${s.id}`;
    const title = el('div', 'history-row-title');
    const text = el('span', 'history-row-text', s.title || '(no prompt)');
    title.append(codicon(status.icon, status.tone), text, this.rowActions(s, row, text));
    const meta = [relativeTime(s.updatedAt, now), `${s.prompts} prompt${s.prompts === 1 ? '' : 's'}`, `${s.turns} turn${s.turns === 1 ? '' : 's'}`, tokens(s.tokens), statusLine(s)];
    if (current) meta.push('open');
    row.append(title, el('div', 'history-row-meta', meta.join(' · ')));
    const open = (): void => this.callbacks.open(s.id);
    row.addEventListener('click', open);
    row.addEventListener('keydown', (ev) => {
      if (ev.target !== row) return;
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        open();
      } else if (ev.key === 'F2') {
        ev.preventDefault();
        this.startRename(s, row, text);
      } else if (ev.key === 'Delete') {
        ev.preventDefault();
        this.callbacks.delete(s.id, s.title);
      }
    });
    return row;
  }

  /** Rename (F2) and Delete (Del) buttons: in the Tab order, shown on hover and focus. */
  private rowActions(s: SessionListItem, row: HTMLElement, text: HTMLElement): HTMLElement {
    const actions = el('span', 'history-row-actions');
    const action = (icon: string, label: string, run: () => void): HTMLButtonElement => {
      const b = el('button', `history-action history-${icon === 'edit' ? 'rename' : 'delete'}`);
      b.type = 'button';
      b.title = label;
      b.setAttribute('aria-label', `${label}: ${s.title}`);
      b.append(codicon(icon));
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        run();
      });
      b.addEventListener('keydown', (ev) => ev.stopPropagation());
      return b;
    };
    actions.append(
      action('edit', 'Rename (F2)', () => this.startRename(s, row, text)),
      action('trash', 'Delete… (Del)', () => this.callbacks.delete(s.id, s.title)),
    );
    return actions;
  }

  private startRename(s: SessionListItem, row: HTMLElement, text: HTMLElement): void {
    const input = el('input', 'history-rename-input');
    input.value = s.title;
    input.setAttribute('aria-label', 'New name (Enter keeps it, Escape cancels; empty: the first prompt)');
    let done = false;
    const finish = (keep: boolean): void => {
      if (done) return;
      done = true;
      input.replaceWith(text);
      row.focus();
      if (keep && input.value.trim() !== s.title) this.callbacks.rename(s.id, input.value);
    };
    input.addEventListener('keydown', (ev) => {
      ev.stopPropagation();
      if (ev.key === 'Enter') finish(true);
      else if (ev.key === 'Escape') finish(false);
    });
    input.addEventListener('click', (ev) => ev.stopPropagation());
    input.addEventListener('blur', () => finish(false));
    text.replaceWith(input);
    input.focus();
    input.select();
  }
}
