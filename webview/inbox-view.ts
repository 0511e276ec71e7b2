/**
 * The inbox at the top of the panel: every subagent question waiting for the user, side by side
 * ("2 subagents are waiting for you"). A permission card shows who asks (the subagent, its task and
 * agent type), what it wants, the exact command / path / MCP input, and Allow / Deny with the wider answers in
 * a menu beside Allow (permission-answers.ts); a fan-out card its tasks, forecast and Run / Cancel (fanout-card.ts);
 * a question card shows the question, its options as buttons and a text box for another answer.
 * Plain <button>s and an <input>: Tab reaches them, Enter/Space answer. Cards are keyed by id: an
 * update adds and removes cards but leaves a card that still waits untouched (focus and typed text stay).
 *
 * Never squeezed: the inbox is at least as high as its heading and its tallest card (a ResizeObserver keeps
 * `min-height` so), so the first card is whole and every other one is, once scrolled to in the list — as far as
 * the panel's height allows once the prompt box has its room (`room`); beyond that the list scrolls.
 */
import type { FanoutAnswer, InboxItem } from '../src/protocol';
import { waitingOf } from '../src/protocol';
import type { PermissionDecision } from '../src/core/vocabulary';
import { codicon, el, setHidden, setText } from './dom';
import { permissionAnswers } from './permission-answers';
import { fanoutBody } from './fanout-card';

export interface InboxActions {
  answer(id: string, decision: PermissionDecision): void;
  reply(id: string, text: string): void;
  /** A fan-out card's answer, with "Don't ask again" checked or not. */
  fanout(id: string, choice: FanoutAnswer, dontAsk: boolean): void;
  /** Shows the asking subagent's task node in the conversation. */
  show(agentId: string): void;
}

export class InboxView {
  readonly element = el('section', 'inbox');
  private readonly heading = el('div', 'inbox-heading');
  private readonly list = el('div', 'inbox-list');
  private readonly cards = new Map<string, HTMLElement>();
  /** "2 more below": the cards the list has not shown whole yet, one click (or Enter) to the next. */
  private readonly more = el('button', 'inbox-more');
  private readonly moreText = el('span', '');
  private readonly sizes = new ResizeObserver(() => this.keepWhole());

  constructor(
    private readonly actions: InboxActions,
    /** The most the inbox may take: the panel's height less what must stay (the prompt box). */
    private readonly room: () => number = () => Infinity,
  ) {
    this.element.setAttribute('aria-label', 'Subagents waiting for you');
    this.heading.setAttribute('role', 'status');
    this.more.type = 'button';
    this.more.hidden = true;
    this.more.append(codicon('arrow-down'), this.moreText);
    this.more.addEventListener('click', () => this.showNextBelow());
    this.list.addEventListener('scroll', () => this.countBelow(), { passive: true });
    this.element.append(this.heading, this.list, this.more);
    this.element.hidden = true;
    // Not the list: its height follows the min-height written here, and a report of it would come back in the same
    // frame ("ResizeObserver loop completed with undelivered notifications"). The panel's height changes the room.
    this.sizes.observe(this.heading);
    window.addEventListener('resize', () => this.keepWhole());
  }

  /** Reported after layout: the inbox's floor is its heading, padding and "more" line plus its tallest card. */
  private keepWhole(): void {
    let tallest = 0;
    for (const card of this.cards.values()) tallest = Math.max(tallest, card.offsetHeight);
    // Twice at most: the floor changes what is below, and the "more" line that says so changes the chrome.
    for (let pass = 0; pass < 2; pass++) {
      this.countBelow();
      const chrome = this.element.offsetHeight - this.list.clientHeight;
      const floor = tallest === 0 ? '' : `${Math.max(0, Math.floor(Math.min(Math.ceil(chrome + tallest), this.room())))}px`;
      // The most one card may take (a fan-out card's middle scrolls within it, its answers stay whole).
      const room = this.room();
      const cardRoom = Number.isFinite(room) ? `${Math.max(120, Math.floor(room - chrome))}px` : 'none';
      if (this.element.style.getPropertyValue('--inbox-card-room') !== cardRoom) this.element.style.setProperty('--inbox-card-room', cardRoom);
      if (this.element.style.minHeight === floor) return;
      this.element.style.minHeight = floor;
    }
    this.countBelow();
  }

  /** The cards whose end is below the list's visible part. */
  private below(): HTMLElement[] {
    const bottom = this.list.getBoundingClientRect().bottom + 1;
    return [...this.cards.values()].filter((card) => card.getBoundingClientRect().bottom > bottom);
  }

  private countBelow(): void {
    const n = this.element.hidden ? 0 : this.below().length;
    setText(this.moreText, `${n} more below`);
    this.more.title = n === 1 ? 'Show the next question' : `Show the next of ${n} more questions`;
    setHidden(this.more, n === 0);
  }

  private showNextBelow(): void {
    const next = this.below()[0];
    if (!next) return;
    next.scrollIntoView({ block: 'nearest' });
    next.querySelector<HTMLElement>('button:not(.inbox-show), input')?.focus({ preventScroll: true });
  }

  update(items: InboxItem[]): void {
    const ids = new Set(items.map((i) => i.id));
    for (const [id, card] of this.cards) {
      if (ids.has(id)) continue;
      // The answered card goes; focus moves to the next card's first button rather than to the page.
      const hadFocus = card.contains(document.activeElement) || card.classList.contains('is-answered');
      card.remove();
      this.sizes.unobserve(card);
      this.cards.delete(id);
      if (hadFocus) this.list.querySelector<HTMLElement>('button, input')?.focus();
    }
    for (const item of items) {
      if (this.cards.has(item.id)) continue;
      const card = this.card(item);
      this.cards.set(item.id, card);
      this.list.append(card);
      this.sizes.observe(card);
    }
    const waiting = waitingOf(items);
    setText(this.heading, waiting.count ? waiting.line : '');
    setHidden(this.element, items.length === 0);
    // A card that went may have been the tallest (the observer reports sizes, not removals).
    this.keepWhole();
  }

  private card(item: InboxItem): HTMLElement {
    const card = el('article', `inbox-card inbox-${item.kind}`);
    card.dataset.inboxId = item.id;
    card.dataset.agentId = item.agentId;
    card.setAttribute('aria-label', `${item.who} ${item.kind === 'question' ? 'asks' : item.title}`);

    const who = el('div', 'inbox-who');
    who.append(codicon(item.kind === 'question' ? 'question' : item.kind === 'fanout' ? 'organization' : 'shield'), el('span', 'inbox-who-name', item.who));
    if (item.agentType) who.append(el('span', 'inbox-who-type', item.agentType));
    // The main agent has no node to show (its fan-out's tasks wait in the conversation as pending rows).
    if (!item.main) {
      const show = el('button', 'inbox-show', 'Show');
      show.type = 'button';
      show.title = 'Show this subagent in the conversation';
      show.addEventListener('click', () => this.actions.show(item.agentId));
      who.append(show);
    }

    const title = el('div', 'inbox-title', item.title);
    card.append(who, title);
    if (item.input) card.append(el('pre', 'inbox-input', item.input));
    // Why it is asked (plan mode, an untrusted workspace, a private address): a line or two, never a fold.
    if (item.detail) card.append(el('div', 'inbox-why', item.detail));

    if (item.kind === 'fanout' && item.fanout) {
      card.append(...fanoutBody(item.fanout, (choice, dontAsk) => this.answered(card, () => this.actions.fanout(item.id, choice, dontAsk))));
    } else if (item.kind === 'permission') {
      // Allow and Deny on one row, the wider answers in a menu beside Allow (permission-answers.ts).
      card.append(permissionAnswers(item.choices, (decision) => this.answered(card, () => this.actions.answer(item.id, decision))));
    } else {
      const buttons = el('div', 'inbox-buttons');
      item.options.forEach((option, i) => {
        const b = this.button(option, i === 0 ? 'primary' : 'secondary');
        b.dataset.option = option;
        b.addEventListener('click', () => this.answered(card, () => this.actions.reply(item.id, option)));
        buttons.append(b);
      });
      const form = el('form', 'inbox-reply');
      const input = el('input', 'inbox-text');
      input.type = 'text';
      input.placeholder = item.options.length ? 'Or type another answer' : 'Type your answer';
      input.setAttribute('aria-label', `Answer to ${item.who}`);
      const send = this.button('Send', item.options.length ? 'secondary' : 'primary');
      send.type = 'submit';
      form.append(input, send);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (text) this.answered(card, () => this.actions.reply(item.id, text));
        else input.focus();
      });
      if (item.options.length) card.append(buttons);
      card.append(form);
    }
    return card;
  }

  private button(label: string, tone: 'primary' | 'secondary'): HTMLButtonElement {
    const b = el('button', `inbox-button inbox-${tone}`, label);
    b.type = 'button';
    return b;
  }

  /** One answer per card: its controls go inert at once (the host removes the card when it has the answer). */
  private answered(card: HTMLElement, send: () => void): void {
    if (card.classList.contains('is-answered')) return;
    card.classList.add('is-answered');
    for (const control of card.querySelectorAll<HTMLButtonElement | HTMLInputElement>('.inbox-buttons button, .inbox-reply button, .inbox-reply input, .fanout-never input')) control.disabled = true;
    send();
  }
}
