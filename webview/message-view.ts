/**
 * Conversation blocks that are not tree rows: the user's prompts, the parent agent's text
 * (markdown, built as DOM nodes by markdown.ts — never innerHTML) and root-level notices
 * (errors, stops, retries).
 */
import type { NoticeNode, TextNode, UserPromptNode } from '../src/view-model/session-view';
import { codicon, el } from './dom';
import { MarkdownView } from './markdown';

const NOTICE_ICON: Record<NoticeNode['level'], string> = { error: 'error', warning: 'warning', info: 'info' };

export function userBlock(node: UserPromptNode): HTMLElement {
  if (node.retryOf) return retryBlock(node, node.retryOf);
  const block = el('div', 'msg msg-user');
  block.dataset.id = node.id;
  const who = el('div', 'msg-who');
  who.append(codicon('account'), el('span', '', 'You'));
  block.append(who);
  if (node.handoff) {
    // A handoff: the user's own words and where they went; what the main agent was asked is on hover.
    const h = node.handoff;
    block.title = `You handed this to the ${h.agent} agent (handoff “${h.label}”). The main agent was asked:\n\n${node.text}`;
    if (h.text.trim()) block.append(el('div', 'msg-text', h.text));
    const mark = el('div', 'msg-handoff');
    mark.append(codicon('arrow-right'), el('span', 'msg-handoff-agent', h.agent), ' ', el('span', 'msg-handoff-label', `(handoff: ${h.label})`));
    block.append(mark);
    return block;
  }
  block.append(el('div', 'msg-text', node.text));
  return block;
}

/**
 * A Retry the user pressed: one compact line saying what they did, not the prompt the host wrote for the main
 * agent (that one is on hover).
 */
function retryBlock(node: UserPromptNode, retry: NonNullable<UserPromptNode['retryOf']>): HTMLElement {
  const block = el('div', 'msg msg-user msg-retry');
  block.dataset.id = node.id;
  const what = retry.edited ? 'Re-run with an edited prompt' : 'Retry';
  block.title = `You pressed ${what} on the task "${retry.description}". The main agent was asked:\n\n${node.text}`;
  block.append(codicon('account'), el('span', 'msg-retry-who', 'You'), codicon(retry.edited ? 'edit' : 'refresh'), el('span', 'msg-retry-text', `${what}: ${retry.description}`));
  return block;
}

export function noticeBlock(node: NoticeNode): HTMLElement {
  const block = el('div', `notice notice-${node.level}`);
  block.dataset.id = node.id;
  block.append(codicon(NOTICE_ICON[node.level]), el('span', 'notice-text', node.text));
  return block;
}

/** Assistant text; `update` re-renders it (streaming deltas are coalesced per frame by the caller). */
export class TextBlock {
  readonly element: HTMLElement;
  private readonly body = new MarkdownView('msg-text');
  private rendered = '';

  constructor(node: TextNode) {
    this.element = el('div', 'msg msg-assistant');
    this.element.dataset.id = node.id;
    this.element.append(this.body.element);
    this.update(node);
  }

  update(node: TextNode): void {
    this.element.classList.toggle('is-streaming', !node.final);
    if (node.text === this.rendered) return;
    this.rendered = node.text;
    this.body.render(node.text);
  }
}
