/**
 * The "Thinking" row of an agent's reply: collapsed, its detail the thinking text (the API's summary). When the
 * API sent no text (display omitted, or a redacted block) the row still shows that the model thought, with
 * nothing to expand into.
 */
import type { ThinkingNode } from '../src/view-model/session-view';
import { TextRow } from './tree-rows';

export function thinkingRow(node: ThinkingNode): TextRow {
  const row = new TextRow(node.id, 'thinking-row');
  const hidden = node.text.trim() === '';
  const text = hidden ? '' : node.text;
  row.set('lightbulb', 'tone-muted', 'Thinking', text, true);
  if (hidden) {
    // Nothing to read: no arrow, and a word on why.
    row.item.branch = false;
    row.item.title = node.redacted ? 'Thinking (redacted by the API)' : 'Thinking (the API sent no text: display omitted)';
  }
  return row;
}
