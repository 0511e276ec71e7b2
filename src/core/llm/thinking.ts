/**
 * Extended thinking: what one request sends for (model, setting), by the Messages API's rules.
 *
 *   setting  auto (default: on where the model thinks) | off | low | medium | high | xhigh | max | N (budget tokens)
 *      │
 *      ▼  model family (longest id prefix)            what goes on the wire
 *   adaptive  (4.6+, 5.x)  ─▶ thinking {type: adaptive, display: summarized} + output_config.effort (a level;
 *                             N becomes the nearest level: these models take no budget)
 *                             off ─▶ disabled | between_tools (Sonnet 5.5) | nothing (default off) | effort low
 *                                    where thinking cannot be turned off (Opus 5.5, Fable, Mythos)
 *                             preserved thinking (Sonnet/Opus 5.5, Fable 5.1+): block_binding drop_block + its beta,
 *                             so a compacted conversation drops stale thinking instead of failing with a 400
 *   budget    (4.5 and older) ─▶ thinking {type: enabled, budget_tokens, display: summarized};
 *                             1024 ≤ budget < max_tokens (kept ≥ 4096 below it for the answer);
 *                             with tools, `anthropic-beta: interleaved-thinking-2025-05-14` so it thinks
 *                             between tool calls (adaptive models interleave by themselves)
 *   none      ─▶ nothing
 *
 * Never sent with thinking: temperature / top_k (the API rejects them; ModelRequest has none) and a forced
 * tool_choice (the loop only uses auto / none). max_tokens comes from the family table unless overridden.
 *
 * Sources (docs/development.md, "Extended thinking"): platform.claude.com thinking-troubleshooting (which
 * thinking.type each model takes), extended-thinking (budget ≥ 1024 and < max_tokens, the interleaved beta),
 * adaptive-thinking and effort, the Sonnet 5.5 / Opus 5.5 / Haiku 5.5 model pages (128K output, effort
 * defaults, between_tools), the models overview (max output per model).
 */
import type Anthropic from '@anthropic-ai/sdk';

import { EFFORTS, MIN_BUDGET, type Effort, type ThinkingSetting } from '../vocabulary';

export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';
/** `thinking.block_binding` (preserved thinking's prefix check: drop a block whose prefix changed, not a 400). */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';
/** Output kept for the answer below a budget (a budget that leaves less is lowered). */
const ANSWER_ROOM = 4096;
const BUDGETS: Record<Effort, number> = { low: 4096, medium: 16_384, high: 32_768, xhigh: 32_768, max: 32_768 };

interface FamilyRules {
  mode: 'adaptive' | 'budget' | 'none';
  /** How `off` goes on the wire; null: this model cannot stop thinking (off runs at effort low). */
  off: 'disabled' | 'between_tools' | 'omit' | null;
  /** Effort values the model takes (empty: no output_config.effort). */
  efforts: readonly Effort[];
  /** The model's max output tokens (the API's ceiling for max_tokens). */
  maxOutput: number;
  /** Budget thinking interleaves with tool calls only with the beta header. */
  interleavedBeta?: boolean;
  /**
   * Preserved thinking: a block is bound to the prefix before it. Compaction rewrites old tool results, so
   * thinking blocks after them would fail the check with a 400: ask the API to drop those blocks instead.
   */
  prefixCheck?: boolean;
}

const ALL: readonly Effort[] = EFFORTS;
const NO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'max'];
const TO_HIGH: readonly Effort[] = ['low', 'medium', 'high'];

/** Longest prefix wins. The 5.x rows follow the model pages; ids the docs do not list fall to `claude-` (none). */
const FAMILIES: [prefix: string, rules: FamilyRules][] = [
  // Thinking always on: disabled and enabled are rejected (Opus 5.5, Fable 5.x, Mythos 5.x).
  // Preserved thinking's prefix check runs from Fable 5.1 on, and on Opus 5.5 / Sonnet 5.5.
  ['claude-opus-5-5', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000, prefixCheck: true }],
  ['claude-fable-5-1', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000, prefixCheck: true }],
  ['claude-fable-5-2', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000, prefixCheck: true }],
  ['claude-fable-5', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000 }],
  ['claude-mythos-5', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000 }],
  ['claude-mythos-preview', { mode: 'adaptive', off: null, efforts: ALL, maxOutput: 128_000 }],
  // Sonnet 5.5 rejects disabled: its lowest setting is between_tools (no up-front thinking).
  ['claude-sonnet-5-5', { mode: 'adaptive', off: 'between_tools', efforts: ALL, maxOutput: 128_000, prefixCheck: true }],
  // Haiku 5.5: adaptive on by default, can be turned off; the docs list no xhigh/max limits, so it is
  // treated like the newest family.
  ['claude-haiku-5-5', { mode: 'adaptive', off: 'disabled', efforts: ALL, maxOutput: 128_000 }],
  ['claude-opus-5', { mode: 'adaptive', off: 'disabled', efforts: ALL, maxOutput: 128_000 }],
  ['claude-sonnet-5', { mode: 'adaptive', off: 'disabled', efforts: ALL, maxOutput: 128_000 }],
  // Adaptive only, off by default (enabled is rejected).
  ['claude-opus-4-8', { mode: 'adaptive', off: 'omit', efforts: ALL, maxOutput: 128_000 }],
  ['claude-opus-4-7', { mode: 'adaptive', off: 'omit', efforts: ALL, maxOutput: 128_000 }],
  // Adaptive or (deprecated) enabled; off by default.
  ['claude-opus-4-6', { mode: 'adaptive', off: 'omit', efforts: NO_XHIGH, maxOutput: 128_000 }],
  ['claude-sonnet-4-6', { mode: 'adaptive', off: 'omit', efforts: TO_HIGH, maxOutput: 128_000 }],
  // Budget thinking only ("adaptive" is rejected); Opus 4.5 is the one 4.5 model with effort.
  ['claude-opus-4-5', { mode: 'budget', off: 'omit', efforts: TO_HIGH, maxOutput: 64_000, interleavedBeta: true }],
  ['claude-sonnet-4-5', { mode: 'budget', off: 'omit', efforts: [], maxOutput: 64_000, interleavedBeta: true }],
  ['claude-haiku-4-5', { mode: 'budget', off: 'omit', efforts: [], maxOutput: 64_000, interleavedBeta: true }],
  ['claude-opus-4', { mode: 'budget', off: 'omit', efforts: [], maxOutput: 32_000, interleavedBeta: true }],
  ['claude-sonnet-4', { mode: 'budget', off: 'omit', efforts: [], maxOutput: 64_000, interleavedBeta: true }],
  // 3.7 Sonnet thinks with a budget but does not interleave (the beta is for Claude 4 models).
  ['claude-3-7-sonnet', { mode: 'budget', off: 'omit', efforts: [], maxOutput: 64_000 }],
  ['claude-', { mode: 'none', off: 'omit', efforts: [], maxOutput: 8192 }],
];
/** Another endpoint's model (an Anthropic-compatible server): nothing about thinking is sent. */
const UNKNOWN: FamilyRules = { mode: 'none', off: 'omit', efforts: [], maxOutput: 16_000 };
/** What max_tokens defaults to at most: room for thinking plus a long answer without asking for the whole ceiling. */
const DEFAULT_MAX_TOKENS_CAP = 64_000;

function rulesFor(model: string): FamilyRules {
  let best: [string, FamilyRules] | undefined;
  for (const row of FAMILIES) if (model.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  return best ? best[1] : UNKNOWN;
}

/** max_tokens for a request: the override, else the family's default (its ceiling, at most 64,000). */
export function maxTokensFor(model: string, override?: number): number {
  if (override !== undefined && override > 0) return override;
  return Math.min(rulesFor(model).maxOutput, DEFAULT_MAX_TOKENS_CAP);
}

export interface ThinkingFields {
  max_tokens: number;
  thinking?: Anthropic.ThinkingConfigParam;
  output_config?: { effort: Effort };
  /** `anthropic-beta` values the request needs. */
  betas: string[];
}

/** A level the model takes: the one asked for, else the next lower one it has (else its lowest). */
function clampEffort(effort: Effort, efforts: readonly Effort[]): Effort | undefined {
  if (efforts.length === 0) return undefined;
  for (let i = EFFORTS.indexOf(effort); i >= 0; i--) if (efforts.includes(EFFORTS[i] as Effort)) return EFFORTS[i];
  return efforts[0];
}

/** A budget as a level, for models that take levels only. */
function effortOfBudget(tokens: number): Effort {
  return tokens < 8192 ? 'low' : tokens < 24_576 ? 'medium' : 'high';
}

/**
 * The request fields for `setting` on `model`. `setting` undefined: nothing about thinking is sent (the
 * model's own default; compaction and other internal requests). `maxTokens`: the request's max_tokens.
 */
export function thinkingFields(model: string, setting: ThinkingSetting | undefined, maxTokens: number, hasTools: boolean): ThinkingFields {
  const rules = rulesFor(model);
  const plain: ThinkingFields = { max_tokens: maxTokens, betas: [] };
  if (setting === undefined || rules.mode === 'none') return plain;
  const withEffort = (fields: ThinkingFields, effort: Effort | undefined): ThinkingFields => {
    const e = effort && clampEffort(effort, rules.efforts);
    return e ? { ...fields, output_config: { effort: e } } : fields;
  };
  const adaptive = (effort: Effort | undefined): ThinkingFields => {
    const thinking: Anthropic.ThinkingConfigAdaptive = { type: 'adaptive', display: 'summarized' };
    if (!rules.prefixCheck) return withEffort({ ...plain, thinking }, effort);
    // Not in the SDK's types yet (a beta field): sent as is.
    const bound = { ...thinking, block_binding: { prefix_mismatch_behavior: 'drop_block' } } as Anthropic.ThinkingConfigAdaptive;
    return withEffort({ ...plain, thinking: bound, betas: [THINKING_BINDING_BETA] }, effort);
  };
  if (setting === 'off') {
    // Where thinking cannot stop, the lowest effort (adaptive is what the model runs without the field anyway).
    if (rules.off === null) return adaptive('low');
    if (rules.off === 'omit') return plain;
    return { ...plain, thinking: { type: rules.off } };
  }
  if (rules.mode === 'adaptive') return adaptive(setting === 'auto' ? undefined : typeof setting === 'number' ? effortOfBudget(setting) : setting);
  // Budget thinking: below max_tokens with room for the answer, and never under the API's minimum.
  const asked = typeof setting === 'number' ? setting : BUDGETS[setting === 'auto' ? 'medium' : setting];
  const budget = Math.min(asked, maxTokens - ANSWER_ROOM);
  if (budget < MIN_BUDGET) return plain; // max_tokens too small to think in
  const fields: ThinkingFields = {
    ...plain,
    thinking: { type: 'enabled', budget_tokens: budget, display: 'summarized' },
    betas: rules.interleavedBeta && hasTools ? [INTERLEAVED_THINKING_BETA] : [],
  };
  return withEffort(fields, typeof setting === 'string' && setting !== 'auto' ? setting : undefined);
}

/** One line for the user when the setting cannot be honoured as written on this model (else undefined). */
export function thinkingNote(model: string, setting: ThinkingSetting | undefined): string | undefined {
  const rules = rulesFor(model);
  if (setting === undefined || setting === 'auto') return undefined;
  if (rules.mode === 'none') return setting === 'off' ? undefined : `${model} has no extended thinking Delegate knows of: --thinking ${setting} is not sent`;
  if (setting === 'off' && rules.off === null) return `${model} cannot turn thinking off: it runs at effort low instead`;
  if (typeof setting === 'number' && rules.mode === 'adaptive') return `${model} takes an effort level, not a budget: ${setting} tokens runs at effort ${clampEffort(effortOfBudget(setting), rules.efforts)}`;
  return undefined;
}
