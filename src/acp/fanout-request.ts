/**
 * The fan-out card in an ACP client: before a reply's subagents start (when the rule says to ask:
 * core/delegation/fanout-review.ts), one `session/request_permission` on a card of its own listing each child —
 * its task, agent type, model, mode, tools, and what its past runs here cost — in the session of the agent that
 * starts them. Like the folder's trust (folder-trust.ts), the card is announced as a `tool_call` first (a client
 * shows a request on a call it knows), and ends completed (they run) or failed (cancelled).
 *
 *   Run                         allow_once    ─▶ 'run'
 *   Run, each stopped at its    allow_once    ─▶ 'run_capped'  (offered when a child has past runs to cap by)
 *   usual maximum
 *   Cancel                      reject_once   ─▶ 'cancel'; so is no answer, a closed connection, an unknown option
 */
import { randomUUID } from 'node:crypto';
import type { PermissionOption } from '@agentclientprotocol/sdk/unstable';
import type { FanoutCard, FanoutChild, FanoutChoice, FanoutPrompt } from '../core/session/ports';
import type { AskClient, PermissionRouting } from './permission-requests';
import type { SendUpdate } from './updates';

const RUN: PermissionOption = { optionId: 'run', name: 'Run them', kind: 'allow_once' };
const RUN_CAPPED: PermissionOption = { optionId: 'run_capped', name: 'Run them, each stopped at its usual maximum', kind: 'allow_once' };
const CANCEL: PermissionOption = { optionId: 'cancel', name: 'Cancel them', kind: 'reject_once' };

export function clientFanout(routing: Pick<PermissionRouting, 'sessionOf' | 'describeAgent'>, ask: AskClient, send: SendUpdate): FanoutPrompt {
  return {
    async confirm(card, signal) {
      const sessionId = routing.sessionOf(card.parent.agentId);
      const toolCallId = `fanout-${randomUUID()}`;
      const n = card.children.length;
      const title = `${capitalized(routing.describeAgent(card.parent.agentId))} wants to start ${n} subagent${n === 1 ? '' : 's'}`;
      const content = [{ type: 'content' as const, content: { type: 'text' as const, text: cardText(card) } }];
      const capped = card.children.some((c) => c.forecast);
      await send(sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'think', status: 'pending', content });
      let choice: FanoutChoice = 'cancel';
      try {
        const answer = await ask({ sessionId, toolCall: { toolCallId, title, kind: 'think', status: 'pending', content }, options: [RUN, ...(capped ? [RUN_CAPPED] : []), CANCEL] }, signal);
        if (answer.outcome.outcome === 'selected') {
          const picked = answer.outcome.optionId;
          choice = picked === RUN.optionId ? 'run' : picked === RUN_CAPPED.optionId && capped ? 'run_capped' : 'cancel';
        }
      } catch {
        choice = 'cancel';
      }
      const said = choice === 'run' ? 'started' : choice === 'run_capped' ? 'started, each stopped at its usual maximum' : 'cancelled: none started';
      await send(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: choice === 'cancel' ? 'failed' : 'completed', title: `${title}: ${said}` });
      return choice;
    },
  };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One line per child, then why the card shows. */
function cardText(card: FanoutCard): string {
  const why = card.reason === 'count' ? `${card.children.length} subagents at once` : card.reason === 'cost' ? `their usual cost adds up to $${(card.p90Usd ?? 0).toFixed(2)}` : 'every delegation is asked about';
  return [...card.children.map(childLine), '', `Asked because ${why}.`].join('\n');
}

function childLine(c: FanoutChild): string {
  const tools = c.tools ? c.tools.join(', ') : 'every tool';
  const kind = [c.fork ? 'a fork' : undefined, c.background ? 'in the background' : undefined].filter(Boolean).join(', ');
  const f = c.forecast;
  const usual = f ? `; usually ${f.costUsd ? `$${f.costUsd.median.toFixed(2)} (at most $${f.costUsd.p90.toFixed(2)}), ` : ''}${Math.round(f.durationMs.median / 1000)} s over ${f.runs} past run${f.runs === 1 ? '' : 's'}` : '; no past runs here';
  return `- **${c.description}** — ${c.agentType} on ${c.model}, ${c.mode} mode${kind ? `, ${kind}` : ''}; tools: ${tools}${usual}`;
}
