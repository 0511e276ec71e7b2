/**
 * The history list: this workspace's sessions, newest first — first prompt as title, when, turns,
 * tokens, how it ended. Opening one asks the host, which rebuilds the whole view from its transcript.
 */
import type { SessionListItem } from '../src/protocol';
import { codicon, el } from './dom';

export interface HistoryCallbacks {
  open(id: string): void;
  newSession(): void;
  close(): void;
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

export function relativeTime(time: number, now: number): string {
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

export class HistoryView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;

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
    this.list = el('ol', 'history-list');
    this.element.append(header, this.list);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  show(sessions: SessionListItem[], currentId: string | undefined, now = Date.now()): void {
    this.list.replaceChildren(...(sessions.length ? sessions.map((s) => this.row(s, s.id === currentId, now)) : [el('li', 'history-empty', 'No sessions yet: ask something to start one.')]));
    this.element.hidden = false;
    (this.list.querySelector('.history-row') as HTMLElement | null)?.focus();
  }

  hide(): void {
    this.element.hidden = true;
  }

  private row(s: SessionListItem, current: boolean, now: number): HTMLElement {
    const status = STATUS[s.status];
    const row = el('li', `history-row${current ? ' is-current' : ''}`);
    row.dataset.sessionId = s.id;
    row.tabIndex = 0;
    row.setAttribute('role', 'button');
    row.title = `${s.title}\n${new Date(s.updatedAt).toLocaleString()} · session ${s.id}`;
    const title = el('div', 'history-row-title');
    title.append(codicon(status.icon, status.tone), el('span', 'history-row-text', s.title || '(no prompt)'));
    const meta = [relativeTime(s.updatedAt, now), `${s.prompts} prompt${s.prompts === 1 ? '' : 's'}`, `${s.turns} turn${s.turns === 1 ? '' : 's'}`, tokens(s.tokens), status.word];
    if (current) meta.push('open');
    row.append(title, el('div', 'history-row-meta', meta.join(' · ')));
    const open = (): void => this.callbacks.open(s.id);
    row.addEventListener('click', open);
    row.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        open();
      }
    });
    return row;
  }
}
