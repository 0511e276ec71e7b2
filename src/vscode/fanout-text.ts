/**
 * The words of the fan-out card (the panel's inline card and the modal used while the panel is hidden): who starts
 * how many subagents; what they all share said once (agent, model, tools, mode), per task only what differs; a
 * forecast per agent type that says what it rests on (how many past runs in this workspace, or none) and, when the
 * runs vary a lot, says so rather than give one misleading figure; what the capped run stops each at. No `vscode`
 * import, so unit tests read the exact text the user decides on.
 */
import type { FanoutCard } from '../core/session/ports';
import type { FanoutView } from '../protocol';
import { formatDuration, formatUsd } from '../view-model/format';
import { whoAsks } from './approval-text';

export const RUN = 'Run';
export const RUN_CAPPED = 'Run, stopping each at its usual maximum';
export const CANCEL = 'Cancel';
/** p90 this many times the median (tokens, dollars or time) is "they vary a lot". */
const WIDE = 4;
/** Under this many runs the p90 (nearest rank) is simply the largest run. */
const RUNS_FOR_P90 = 10;

const tokens = (n: number): string => (n < 1000 ? `${Math.round(n)}` : n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k` : `${(n / 1_000_000).toFixed(1)}M`);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One subagent of the card. */
type Child = FanoutCard['children'][number];
type Forecast = NonNullable<Child['forecast']>;

/** "40k tokens · $0.12 · 1m 05s" at the median or the p90. */
function figures(f: Forecast, at: 'median' | 'p90'): string {
  return [`${tokens(f.tokens[at])} tokens`, ...(f.costUsd ? [formatUsd(f.costUsd[at])] : []), formatDuration(f.durationMs[at])].join(' · ');
}

/** How many times the median the p90 is, at its widest of tokens, dollars and time, and which of them that is. */
function spreadOf(f: Forecast): { ratio: number; what: string } {
  const ratio = (s: { median: number; p90: number }): number => (s.median > 0 ? s.p90 / s.median : 1);
  const all = [
    { ratio: ratio(f.tokens), what: 'tokens' },
    ...(f.costUsd ? [{ ratio: ratio(f.costUsd), what: 'cost' }] : []),
    { ratio: ratio(f.durationMs), what: 'time' },
  ];
  const widest = Math.max(...all.map((a) => a.ratio));
  // "tokens and cost 60× the median": every measure that spread as far, so no figure is blamed alone for another's.
  return { ratio: widest, what: all.filter((a) => a.ratio >= widest * 0.95).map((a) => a.what).join(' and ') };
}

/** One agent type's forecast, saying what it rests on. */
function forecastLine(type: string, count: number, f: Forecast | undefined): string {
  const who = count > 1 ? `${type} (${count} tasks)` : type;
  if (!f) return `${who}: no history yet in this workspace, so no forecast.`;
  if (f.runs === 1) return `${who}: from 1 past run here: ${figures(f, 'median')}.`;
  const basis = `from ${f.runs} past runs here`;
  const top = f.runs < RUNS_FOR_P90 ? `the largest took ${figures(f, 'p90')}` : `9 in 10 stayed under ${figures(f, 'p90')}`;
  const spread = spreadOf(f);
  if (spread.ratio >= WIDE) return `${who}: ${basis}, and they vary a lot: median ${figures(f, 'median')}, but ${top} (${spread.what} ${Math.round(spread.ratio)}× the median).`;
  return `${who}: ${basis}: median ${figures(f, 'median')}; ${top}.`;
}

/** What the capped run gives each type with history (fanout-review.ts capsOf: the p90, rounded up). */
function capsLine(children: readonly Child[]): string | undefined {
  const types = new Map<string, Forecast>();
  for (const c of children) if (c.forecast) types.set(c.agentType, c.forecast);
  if (types.size === 0) return undefined;
  const each = [...types].map(([type, f]) => `${type} at ${tokens(Math.ceil(f.tokens.p90))} tokens · ${formatDuration(Math.ceil(f.durationMs.p90 / 1000) * 1000)}${f.costUsd ? ` · ${formatUsd(f.costUsd.p90)}` : ''}`);
  const rest = children.some((c) => !c.forecast) ? '; the others (no history) run without caps' : '';
  return `Stops each at its usual maximum (what 9 in 10 past runs stayed within): ${each.join('; ')}${rest}.`;
}

const FIELDS: readonly ((c: Child) => string)[] = [
  (c) => c.agentType,
  (c) => c.model,
  (c) => (c.effort ? `effort ${c.effort}` : ''),
  (c) => (c.tools ? (c.tools.length ? c.tools.join(', ') : 'no tools') : 'every tool'),
  (c) => `mode ${c.mode}`,
  (c) => (c.background ? 'in the background' : ''),
];

/** The card's content: shared fields once, per task only what differs, the forecast per agent type. */
export function fanoutView(card: FanoutCard): FanoutView {
  const { children } = card;
  const same = FIELDS.map((field) => children.every((c) => field(c) === field(children[0] as Child)));
  const shared = FIELDS.filter((_, i) => same[i]).map((field) => field(children[0] as Child)).filter(Boolean).join(' · ');
  const tasks = children.map((c) => ({ description: c.description, prompt: c.prompt, own: FIELDS.filter((_, i) => !same[i]).map((field) => field(c)).filter(Boolean).join(' · ') }));
  const counts = new Map<string, { n: number; f: Forecast | undefined }>();
  for (const c of children) counts.set(c.agentType, { n: (counts.get(c.agentType)?.n ?? 0) + 1, f: c.forecast });
  const forecast = [...counts].map(([type, { n, f }]) => forecastLine(type, n, f));
  const caps = capsLine(children);
  return {
    shared,
    tasks,
    forecast,
    ...(caps ? { caps } : {}),
    why: whyShown(card),
    choices: [{ choice: 'run', label: RUN }, ...(caps ? [{ choice: 'run_capped' as const, label: RUN_CAPPED }] : []), { choice: 'cancel', label: CANCEL }],
  };
}

function whyShown(card: FanoutCard): string {
  if (card.reason === 'cost') return `Shown because together they may cost ${card.p90Usd !== undefined ? formatUsd(card.p90Usd) : 'more'} (each at its usual maximum), over delegate.confirmAboveUsd.`;
  if (card.reason === 'always') return 'Shown before every delegation (delegate.confirmFanout: always).';
  return 'Shown when 3 or more subagents start at once (delegate.confirmFanout: auto).';
}

/** "wants to start 4 subagents at once" (after who asks). */
export function fanoutTitle(card: FanoutCard): string {
  return `wants to start ${plural(card.children.length, 'subagent')} at once`;
}

/** The modal's words (the panel hidden): the same content as the card, as text. */
export function fanoutText(card: FanoutCard): { message: string; detail: string; capped: boolean } {
  const view = fanoutView(card);
  const tasks = view.tasks.map((t, i) => `${i + 1}. ${t.description}${t.own ? ` — ${t.own}` : ''}`).join('\n');
  const detail = [
    ...(view.shared ? [`All: ${view.shared}`] : []),
    tasks,
    `Forecast\n${view.forecast.join('\n')}`,
    ...(view.caps ? [`"${RUN_CAPPED}": ${view.caps.charAt(0).toLowerCase()}${view.caps.slice(1)}`] : []),
    `${view.why} To start them without asking, set delegate.confirmFanout to never.`,
  ].join('\n\n');
  return { message: `${whoAsks(card.parent)} ${fanoutTitle(card)}`, detail, capped: view.caps !== undefined };
}
