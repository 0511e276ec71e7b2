/**
 * A subagent's work as text, for a client without subagent sessions: its `task` call's content, rewritten as the
 * child (and its own children) go, so the user watches the delegation live instead of one opaque call.
 *
 *   **find the config** (Explore) · running
 *   - Find **\/*.ini
 *   - Read config.ini
 *     **check the values** (general-purpose) · completed      ← a grandchild, indented under its parent
 *   > the last thing it said…
 */
import type { AgentStatus } from '../core/vocabulary';

export interface ChildSummary {
  description: string;
  agentType?: string;
  state: 'running' | AgentStatus;
  /** One line per tool call, in order; failed ones marked. */
  steps: { id: string; title: string; failed?: boolean }[];
  /** What it said last (its final answer once it is done). */
  lastText?: string;
  children: ChildSummary[];
}

const MAX_STEPS = 40;
const MAX_TEXT = 600;

export function newSummary(description: string, agentType: string | undefined): ChildSummary {
  return { description, ...(agentType ? { agentType } : {}), state: 'running', steps: [], children: [] };
}

/**
 * The summary as text. `report`: the child's final answer, shown whole under the steps instead of the quoted tail of
 * what it said last (once, not twice).
 */
export function renderSummary(summary: ChildSummary, depth = 0, report?: string): string {
  const pad = '  '.repeat(depth);
  const head = `${pad}**${summary.description}**${summary.agentType ? ` (${summary.agentType})` : ''} · ${summary.state}`;
  const hidden = Math.max(0, summary.steps.length - MAX_STEPS);
  const steps = summary.steps.slice(hidden).map((s) => `${pad}- ${s.title}${s.failed ? ' (failed)' : ''}`);
  const lines = [head, ...(hidden ? [`${pad}- … ${hidden} earlier steps`] : []), ...steps];
  for (const child of summary.children) lines.push(renderSummary(child, depth + 1));
  if (depth === 0 && report) lines.push('', report);
  else if (summary.lastText && depth === 0) lines.push('', `> ${cut(summary.lastText).replace(/\n/g, '\n> ')}`);
  return lines.join('\n');
}

function cut(text: string): string {
  const t = text.trim();
  return t.length <= MAX_TEXT ? t : `…${t.slice(t.length - MAX_TEXT)}`;
}
