/**
 * An agent's thinking in the tree: each `thinking` event becomes a "Thinking" row in that agent's container
 * (the conversation for the main agent, its task node for a subagent), placed when the block finished — before
 * the text and the tool calls of the same reply. The row is collapsed; its detail is the thinking text, which is
 * empty when the API omitted it (display omitted) or redacted it: then the row alone says the model thought.
 */
import type { EventOf } from '../core/events';
import { placeNode, type Touched } from './store';
import type { SessionViewState } from './types';

export function onThinking(state: SessionViewState, e: EventOf<'thinking'>, touched: Touched): void {
  const id = `thinking:${e.seq}`;
  if (state.nodes[id]) return;
  placeNode(state, { kind: 'thinking', id, agentId: e.agentId, turn: e.turn, text: e.text, redacted: e.redacted === true }, e.agentId, touched);
}
