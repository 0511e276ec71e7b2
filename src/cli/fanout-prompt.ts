/**
 * The fan-out card at the terminal (`--confirm-fanout auto|always`): before a reply's subagents start (when the rule
 * says to ask: core/delegation/fanout-review.ts), the children listed on stderr, one line read from stdin.
 *
 *   r, run       they start as asked
 *   c, capped    each stopped at its usual maximum (offered when a child has past runs here to cap by)
 *   anything else, the end of input, Ctrl-C: none starts (each task's result says the user cancelled it)
 *
 * What the model wrote (descriptions) is shown with control characters made visible, as the trust question does.
 */
import type { FanoutCard, FanoutChild, FanoutChoice, FanoutPrompt } from '../core/session/ports';
import { askLine } from './terminal-question';
import { printable } from './trust-prompt';

export function terminalFanout(): FanoutPrompt {
  return {
    async confirm(card, signal) {
      const capped = card.children.some((c) => c.forecast);
      const line = await askLine(fanoutQuestion(card, capped), signal);
      return choiceOf(line, capped);
    },
  };
}

function choiceOf(line: string | undefined, capped: boolean): FanoutChoice {
  const answer = line?.trim().toLowerCase();
  if (answer === 'r' || answer === 'run') return 'run';
  if (capped && (answer === 'c' || answer === 'capped')) return 'run_capped';
  return 'cancel';
}

function fanoutQuestion(card: FanoutCard, capped: boolean): string {
  const n = card.children.length;
  const who = card.parent.parentId === null ? 'The main agent' : `Subagent "${printable(card.parent.description ?? card.parent.agentId)}"`;
  return [
    `delegate: ${who} wants to start ${n} subagent${n === 1 ? '' : 's'}:`,
    ...card.children.map(childLine),
    `Run them? [r]un${capped ? ', [c]apped (each stopped at its usual maximum)' : ''}, [N]o: `,
  ].join('\n');
}

function childLine(c: FanoutChild): string {
  const f = c.forecast;
  const usual = f ? `, usually ${f.costUsd ? `$${f.costUsd.median.toFixed(2)} ` : ''}${Math.round(f.durationMs.median / 1000)} s` : '';
  return `  - ${printable(c.description)} (${printable(c.agentType)} on ${c.model}, ${c.mode} mode${c.background ? ', background' : ''}${usual})`;
}
