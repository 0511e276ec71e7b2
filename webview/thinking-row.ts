/**
 * The "Thinking" row of an agent's reply: collapsed, its detail the thinking text (the API's summary). When the
 * API sent no text (display omitted, or a redacted block) the row still shows that the model thought, with
 * nothing to expand into (flat-rows.ts makes it a leaf).
 */
import type { ThinkingNode } from '../src/view-model/session-view';
import { TextRow } from './tree-rows';

export function thinkingRow(node: ThinkingNode): TextRow {
  const row = new TextRow(node.id, 'thinking-row');
  const hidden = node.text.trim() === '';
  row.set('lightbulb', 'tone-muted', 'Thinking', hidden ? '' : node.text, true);
  if (hidden) row.item.title = node.redacted ? 'Thinking (redacted by the API)' : 'Thinking (the API sent no text: display omitted)';
  return row;
}
