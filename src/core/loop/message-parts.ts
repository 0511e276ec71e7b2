/**
 * What the loop makes of messages and results: a stopped agent's partial text, a reply's raw text, response
 * blocks turned back into request params, and a finished child's summary for its parent's result.
 */
import type { ContentBlock, ContentBlockParam, MessageParam } from '../llm/types';
import type { AgentResult, SubagentSummary } from './types';
import type { Usage } from '../vocabulary';

/** What a stopped agent had said so far: its assistant text, in order (empty when it said nothing). */
export function partialText(messages: MessageParam[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'text' && b.text.trim() && b.text !== '(no answer)') parts.push(b.text.trim());
  }
  return parts.join('\n\n');
}

export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function rawText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** Response blocks back as request params; thinking blocks go back unchanged, as the API requires. */
export function toParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block as unknown as ContentBlockParam;
  }
}

export function summarize(child: AgentResult, parentId: string, description: string): SubagentSummary {
  const usage: Usage = { ...child.usage };
  return {
    id: child.agentId,
    parentId,
    description,
    status: child.status,
    num_turns: child.turns,
    tool_calls: child.toolCalls,
    usage,
    result: child.result,
    duration_ms: child.durationMs,
    agent_type: child.agentType ?? 'general-purpose',
    model: child.model,
    ...(child.costUsd !== undefined ? { cost_usd: child.costUsd } : {}),
    ...(child.changes ? { changes: child.changes } : {}),
    ...(child.fork ? { fork: true } : {}),
    ...(child.unverified ? { unverified: child.unverified } : {}),
    ...(child.output !== undefined ? { output: child.output } : {}),
  };
}
