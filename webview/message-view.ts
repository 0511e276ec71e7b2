/**
 * Conversation blocks that are not tree rows: the user's prompts, the parent agent's text
 * (light markdown: fenced code blocks and `inline code`, built as DOM nodes — never innerHTML)
 * and root-level notices (errors, stops, retries).
 */
import type { NoticeNode, TextNode, UserPromptNode } from '../src/view-model/session-view';
import { codicon, el, setText } from './dom';

const NOTICE_ICON: Record<NoticeNode['level'], string> = { error: 'error', warning: 'warning', info: 'info' };

export function userBlock(node: UserPromptNode): HTMLElement {
  const block = el('div', 'msg msg-user');
  block.dataset.id = node.id;
  const who = el('div', 'msg-who');
  who.append(codicon('account'), el('span', '', 'You'));
  block.append(who, el('div', 'msg-text', node.text));
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
  private readonly body: HTMLElement;
  private rendered = '';

  constructor(node: TextNode) {
    this.element = el('div', 'msg msg-assistant');
    this.element.dataset.id = node.id;
    this.body = el('div', 'msg-text');
    this.element.append(this.body);
    this.update(node);
  }

  update(node: TextNode): void {
    this.element.classList.toggle('is-streaming', !node.final);
    if (node.text === this.rendered) return;
    this.rendered = node.text;
    renderMarkdownLite(this.body, node.text);
  }
}

function renderInline(target: HTMLElement, text: string): void {
  const parts = text.split('`');
  parts.forEach((part, i) => {
    if (i % 2 === 1 && i < parts.length - 1) target.append(el('code', '', part));
    else target.append(document.createTextNode(i % 2 === 1 ? `\`${part}` : part));
  });
}

function renderMarkdownLite(target: HTMLElement, text: string): void {
  target.replaceChildren();
  const chunks = text.split(/^```[^\n]*\n?/m);
  chunks.forEach((chunk, i) => {
    if (i % 2 === 1) {
      const pre = el('pre', 'msg-code');
      setText(pre, chunk.replace(/\n$/, ''));
      target.append(pre);
    } else if (chunk !== '') {
      const para = el('div', 'msg-para');
      renderInline(para, chunk.replace(/^\n+|\n+$/g, ''));
      target.append(para);
    }
  });
}
