/**
 * The words of the fan-out card (fanout-card.ts shows them): who starts how many subagents, and for each its
 * description, agent type, model, tools, permission mode and forecast from this workspace's past runs. No `vscode`
 * import, so unit tests read the exact text the user decides on.
 */
import type { FanoutCard, FanoutChild } from '../core/session';
import { formatDuration, formatUsd } from '../view-model/format';
import { whoAsks } from './approval-text';

export const RUN = 'Run';
export const RUN_CAPPED = 'Run with these caps';
export const CANCEL = 'Cancel';

const tokens = (n: number): string => (n < 1000 ? `${Math.round(n)}` : n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k` : `${(n / 1_000_000).toFixed(1)}M`);

function forecastLine(c: FanoutChild): string {
  const f = c.forecast;
  if (!f) return 'forecast: no history of this agent in this workspace';
  const parts = [`${tokens(f.tokens.median)} tokens (p90 ${tokens(f.tokens.p90)})`];
  if (f.costUsd) parts.push(`${formatUsd(f.costUsd.median)} (p90 ${formatUsd(f.costUsd.p90)})`);
  parts.push(`${formatDuration(f.durationMs.median)} (p90 ${formatDuration(f.durationMs.p90)})`);
  return `forecast: ${parts.join(' · ')} — from ${f.runs} past run${f.runs === 1 ? '' : 's'}`;
}

function childLines(c: FanoutChild, i: number): string {
  const tools = c.tools ? (c.tools.length ? c.tools.join(', ') : 'no tools') : 'every tool';
  const kind = [c.agentType, c.model, tools, `mode ${c.mode}`, ...(c.background ? ['in the background'] : [])].join(' · ');
  return `${i + 1}. ${c.description}\n    ${kind}\n    ${forecastLine(c)}`;
}

export function fanoutText(card: FanoutCard): { message: string; detail: string; capped: boolean } {
  const who = whoAsks(card.parent);
  const n = card.children.length;
  const cost = card.p90Usd !== undefined ? ` — up to ${formatUsd(card.p90Usd)} (p90 of past runs)` : '';
  const message = `${who} wants to start ${n} subagent${n === 1 ? '' : 's'} at once${cost}`;
  const capped = card.children.some((c) => c.forecast);
  const why =
    card.reason === 'cost'
      ? 'Shown because the forecast is over delegate.confirmAboveUsd.'
      : card.reason === 'always'
        ? 'Shown before every delegation (delegate.confirmFanout: always).'
        : 'Shown when 3 or more subagents start at once (delegate.confirmFanout: auto).';
  const caps = capped ? `\n\n"${RUN_CAPPED}" gives each subagent with history its forecast's p90 as budgets (tokens, time, dollars).` : '';
  return { message, detail: `${card.children.map(childLines).join('\n\n')}\n\n${why}${caps}`, capped };
}
