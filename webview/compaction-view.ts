/**
 * "Context compacted: N → M tokens" — shown where the agent's context was compacted: a line in the
 * conversation for the main agent, a leaf row among a subagent's calls in its task node.
 */
import type { CompactionNode } from '../src/view-model/session-view';
import { codicon, el } from './dom';
import { treeRow } from './tree-rows';

const n = (value: number): string => value.toLocaleString('en-US');

function compactionText(node: CompactionNode): { label: string; detail: string } {
  const how = [
    node.stubbed > 0 ? `${n(node.stubbed)} old tool output${node.stubbed === 1 ? '' : 's'} dropped (kept on disk)` : '',
    node.summarized ? 'the earlier part summarized' : '',
  ].filter(Boolean);
  const why = node.trigger === 'manual' ? 'on request' : node.trigger === 'overflow' ? 'after the API said the prompt was too long' : 'near the context limit';
  return {
    label: `compacted: ${n(node.tokensBefore)} → ${n(node.tokensAfter)} tokens`,
    detail: `Context compacted ${why}${how.length ? `: ${how.join(', ')}` : ''}. The transcript keeps every original message.`,
  };
}

/** The main agent's compaction, as a line of the conversation. */
export function compactionBlock(node: CompactionNode): HTMLElement {
  const { label, detail } = compactionText(node);
  const block = el('div', 'notice notice-info compaction');
  block.dataset.id = node.id;
  block.title = detail;
  block.append(codicon('fold'), el('span', 'notice-text', label));
  return block;
}

/** A subagent's compaction, as a leaf row among its calls. */
export function compactionRow(node: CompactionNode): HTMLDivElement {
  const { label, detail } = compactionText(node);
  const item = treeRow(node.id, 'compaction-row');
  item.title = detail;
  item.append(codicon('fold', 'row-icon tone-muted'), el('span', 'compaction-label', label));
  return item;
}
