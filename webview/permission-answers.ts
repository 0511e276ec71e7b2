/**
 * A permission card's answers: Allow (primary) with a ▾ beside it, and Deny, always on one row; the wider answers
 * ("Allow `npm test` for this session", "Allow every bash command for this subagent", …) in a menu the ▾ opens.
 *
 *   [ Allow | ▾ ]  [ Deny ]          ▾ (click, Enter, Space, ↓) or Alt+↓ on Allow ─▶ the menu, its first item focused
 *   ┌───────────────────────────┐    ↑ ↓ Home End move · Enter/Space answer · Escape/Tab close (focus back on ▾)
 *   │ Allow `npm test` for this │    a click outside closes it
 *   │ session                   │
 *   │ Allow every bash command  │
 *   └───────────────────────────┘
 *
 * Nothing here takes focus by itself: a card that arrives while the user types in the prompt box never catches an
 * Enter meant for it (Copilot's Continue needs a deliberate key too). The menu lives at the end of <body>, placed by
 * the ▾ each frame while open, so no scrolling box of the inbox cuts it and a card that moves carries it along.
 */
import type { InboxChoice } from '../src/protocol';
import type { PermissionDecision } from '../src/core/vocabulary';
import { codicon, el } from './dom';

let menus = 0;

/** The row of answers for `choices` (Allow, wider ones, Deny); `answer` gets the chosen decision. */
export function permissionAnswers(choices: readonly InboxChoice[], answer: (decision: PermissionDecision) => void): HTMLElement {
  const row = el('div', 'inbox-buttons permission-answers');
  const allow = choices.find((c) => c.decision === 'allow');
  const deny = choices.find((c) => c.decision === 'deny');
  const wider = choices.filter((c) => c.decision !== 'allow' && c.decision !== 'deny');
  if (allow) {
    const group = el('div', 'allow-group');
    const primary = answerButton(allow, 'inbox-button inbox-primary', answer);
    primary.title = 'Allow this call only';
    group.append(primary);
    if (wider.length) {
      const toggle = el('button', 'inbox-button inbox-primary allow-more');
      toggle.type = 'button';
      toggle.title = 'More ways to allow (Alt+Down)';
      toggle.setAttribute('aria-label', 'More ways to allow');
      toggle.append(codicon('chevron-down'));
      const menu = new ScopeMenu(toggle, wider, answer);
      primary.addEventListener('keydown', (ev) => {
        if (ev.altKey && ev.key === 'ArrowDown') {
          ev.preventDefault();
          menu.open('first');
        }
      });
      group.append(toggle);
    }
    row.append(group);
  }
  if (deny) row.append(answerButton(deny, 'inbox-button inbox-deny', answer));
  return row;
}

function answerButton(choice: InboxChoice, className: string, answer: (decision: PermissionDecision) => void): HTMLButtonElement {
  const b = el('button', className);
  b.type = 'button';
  b.dataset.decision = choice.decision;
  appendLabel(b, choice.label);
  b.addEventListener('click', () => answer(choice.decision));
  return b;
}

/** The label's text, with what is in backticks (a command) as code. */
function appendLabel(node: HTMLElement, label: string): void {
  label.split('`').forEach((part, i) => {
    if (part) node.append(i % 2 ? el('code', '', part) : document.createTextNode(part));
  });
}

class ScopeMenu {
  private readonly menu = el('div', 'scope-menu');
  private readonly items: HTMLButtonElement[];
  private frame = 0;
  private placedAt = '';
  private readonly onOutside = (ev: PointerEvent): void => {
    const target = ev.target as Node | null;
    if (target && !this.menu.contains(target) && !this.toggle.contains(target)) this.close(false);
  };

  constructor(
    private readonly toggle: HTMLButtonElement,
    choices: readonly InboxChoice[],
    answer: (decision: PermissionDecision) => void,
  ) {
    const id = `scope-menu-${++menus}`;
    this.menu.id = id;
    this.menu.setAttribute('role', 'menu');
    this.menu.setAttribute('aria-label', 'More ways to allow');
    this.menu.hidden = true;
    toggle.setAttribute('aria-haspopup', 'menu');
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', id);
    this.items = choices.map((choice) => {
      const item = el('button', 'scope-item');
      item.type = 'button';
      item.tabIndex = -1;
      item.setAttribute('role', 'menuitem');
      item.dataset.decision = choice.decision;
      appendLabel(item, choice.label);
      item.addEventListener('click', () => {
        this.close(false);
        answer(choice.decision);
      });
      return item;
    });
    this.menu.append(...this.items);
    this.menu.addEventListener('keydown', (ev) => this.key(ev));
    toggle.addEventListener('click', () => (this.isOpen ? this.close(true) : this.open('first')));
    toggle.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        this.open(ev.key === 'ArrowUp' ? 'last' : 'first');
      }
    });
  }

  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  open(at: 'first' | 'last'): void {
    if (!this.menu.isConnected) document.body.append(this.menu);
    this.menu.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    this.placedAt = '';
    cancelAnimationFrame(this.frame);
    this.place();
    document.addEventListener('pointerdown', this.onOutside, true);
    (at === 'first' ? this.items[0] : this.items.at(-1))?.focus();
  }

  close(refocus: boolean): void {
    if (!this.isOpen) return;
    cancelAnimationFrame(this.frame);
    this.menu.hidden = true;
    this.menu.remove();
    this.toggle.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', this.onOutside, true);
    if (refocus && this.toggle.isConnected && !this.toggle.disabled) this.toggle.focus();
  }

  /** Below the ▾ (its right edge on the Allow group's), above it when there is no room below; again each frame. */
  private place(): void {
    if (!this.toggle.isConnected || this.toggle.disabled) return this.close(false);
    const anchor = (this.toggle.parentElement ?? this.toggle).getBoundingClientRect();
    this.frame = requestAnimationFrame(() => this.place());
    // Written again only when the ▾ or the panel moved (one rect read a frame while open, no layout written).
    const at = `${anchor.left},${anchor.top},${anchor.width},${anchor.height},${window.innerWidth},${window.innerHeight}`;
    if (at === this.placedAt) return;
    this.placedAt = at;
    // As wide as the card (fewer wrapped lines), never narrower than 200 px or wider than the panel.
    const card = this.toggle.closest('.inbox-card')?.getBoundingClientRect().width ?? 0;
    const width = Math.min(Math.max(anchor.width, card, 200), window.innerWidth - 8);
    this.menu.style.width = `${width}px`;
    this.menu.style.maxHeight = '';
    const height = this.menu.offsetHeight;
    const below = window.innerHeight - anchor.bottom - 4;
    const above = anchor.top - 4;
    const left = Math.max(4, Math.min(anchor.left, window.innerWidth - width - 4));
    let top: number;
    if (height <= below || below >= above) {
      top = anchor.bottom + 2;
      if (height > below) this.menu.style.maxHeight = `${Math.max(40, below)}px`;
    } else {
      top = Math.max(4, anchor.top - 2 - height);
      if (height > above) this.menu.style.maxHeight = `${Math.max(40, above)}px`;
    }
    this.menu.style.left = `${left}px`;
    this.menu.style.top = `${top}px`;
  }

  private key(ev: KeyboardEvent): void {
    const at = this.items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number): void => {
      ev.preventDefault();
      this.items[(to + this.items.length) % this.items.length]?.focus();
    };
    switch (ev.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(this.items.length - 1);
      case 'Escape':
      case 'Tab':
        ev.preventDefault();
        ev.stopPropagation();
        return this.close(true);
    }
  }
}
