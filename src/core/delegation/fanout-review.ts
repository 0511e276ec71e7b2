/**
 * The session's fan-out gate (fanout-gate.ts): before a reply's children start, the host may show one card —
 * each child's description, agent type, model, tools and permission mode, and a forecast from this workspace's past
 * runs of that agent (store/agent-forecast.ts) — and the user runs them, runs them capped, or cancels them.
 *
 *   rule 'auto'   (default) ask when 3 or more start at once, or when their forecast p90 sums past confirmAboveUsd
 *   rule 'always' ask before every delegation        rule 'never' / no host prompt (the CLI) ─▶ never ask
 *
 *   Run                 they start as asked
 *   Run, stopping each  each child with history gets its forecast's p90 as budgets (tokens, seconds, dollars),
 *   at its usual max    never looser than its own (FanoutCaps, read by child-runs.ts when it builds the spec)
 *   Cancel / dismissed  none starts: each call's result says the user cancelled the fan-out
 *
 * While the card waits, the parent's `fanout_asked` event lets a view show the calls as pending tasks; its
 * `fanout_answered` says what the user chose.
 */
import { findAgent, type AgentDefinition } from '../agent-files/agent-definition';
import { resolveAgentModel } from '../agent-files/agent-catalog';
import type { Budget } from '../loop/budget';
import type { FanoutCall, FanoutGate } from './fanout-gate';
import type { AgentForecast } from '../store/agent-forecast';
import { asRecord } from '../tools/types';
import { narrowMode, type AgentIdentity, type PermissionMode } from '../vocabulary';
import type { EventBody } from '../events';

export type FanoutRule = 'auto' | 'always' | 'never';
export const FANOUT_RULES: readonly FanoutRule[] = ['auto', 'always', 'never'];
export type FanoutChoice = 'run' | 'run_capped' | 'cancel';

export interface FanoutChild {
  toolUseId: string;
  description: string;
  /** The task's prompt, as the model wrote it. */
  prompt: string;
  agentType: string;
  model: string;
  /** The call's own effort (task's `effort`), when it set one. */
  effort?: string;
  /** The agent definition's tool list, or undefined: every tool the session offers. */
  tools?: readonly string[];
  mode: PermissionMode;
  fork: boolean;
  background: boolean;
  /** From this workspace's past runs of its agent type; undefined: no history. */
  forecast?: AgentForecast;
}

export interface FanoutCard {
  /** Who starts them (the main agent, or a subagent and its task). */
  parent: AgentIdentity;
  children: FanoutChild[];
  /** Why the card is shown. */
  reason: 'count' | 'cost' | 'always';
  /** The children's forecast p90 dollars summed (those with history and prices). */
  p90Usd?: number;
}

/** The host's card; a dismissed card is a cancel. */
export interface FanoutPrompt {
  confirm(card: FanoutCard, signal: AbortSignal): Promise<FanoutChoice>;
}

/** Budgets the user chose for calls about to start, taken once by the child run that starts them. */
export class FanoutCaps {
  readonly #caps = new Map<string, Budget>();

  set(toolUseId: string, budget: Budget): void {
    this.#caps.set(toolUseId, budget);
  }

  /** The cap for this call, merged into `own` field by field, the tighter of the two winning. */
  apply(toolUseId: string, own: Budget | undefined): Budget | undefined {
    const cap = this.#caps.get(toolUseId);
    if (!cap) return own;
    this.#caps.delete(toolUseId);
    const tighter = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
    const out: Budget = {};
    for (const key of ['tokens', 'seconds', 'usd'] as const) {
      const v = tighter(own?.[key], cap[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
}

export interface FanoutReviewOptions {
  prompt?: FanoutPrompt;
  rule: () => FanoutRule;
  confirmAboveUsd: () => number | undefined;
  agentTypes: () => ReadonlyMap<string, AgentDefinition>;
  defaultType: string;
  /** The model a child with `model: inherit` (or none) runs on: the session's now. */
  modelId: () => string;
  modelAliases?: Readonly<Record<string, string>>;
  mode: () => PermissionMode;
  forecast(agentTypes: readonly string[]): Promise<ReadonlyMap<string, AgentForecast | undefined>>;
  caps: FanoutCaps;
  /** Emits an event of the parent agent (the pending tasks while the card waits, then the answer). */
  emit?: (parent: AgentIdentity, body: EventBody) => Promise<unknown>;
}

const AUTO_COUNT = 3;

export function createFanoutReview(o: FanoutReviewOptions): FanoutGate {
  return {
    async review(parent, calls, signal) {
      const rule = o.rule();
      if (!o.prompt || rule === 'never' || calls.length === 0) return new Map();
      const above = o.confirmAboveUsd();
      // Under `auto`, fewer than three children with no dollar limit can't ask, whatever their forecast: don't read it
      // (the forecast reads this workspace's saved sessions, which grow with history: a long-lived host's every task).
      if (rule === 'auto' && calls.length < AUTO_COUNT && above === undefined) return new Map();
      const children = calls.map((c) => describe(c, o));
      const forecasts = await o.forecast([...new Set(children.map((c) => c.agentType))]).catch(() => new Map<string, AgentForecast | undefined>());
      for (const child of children) {
        const f = forecasts.get(child.agentType);
        if (f) child.forecast = f;
      }
      const priced = children.map((c) => c.forecast?.costUsd?.p90).filter((v): v is number => v !== undefined);
      const p90Usd = priced.length ? priced.reduce((a, b) => a + b, 0) : undefined;
      const reason: FanoutCard['reason'] | undefined =
        rule === 'always' ? 'always' : children.length >= AUTO_COUNT ? 'count' : above !== undefined && p90Usd !== undefined && p90Usd > above ? 'cost' : undefined;
      if (!reason) return new Map();
      await o.emit?.(parent, { type: 'fanout_asked', calls: children.map((c, i) => ({ toolUseId: c.toolUseId, input: calls[i]?.input, agentType: c.agentType })) });
      const asked = await o.prompt.confirm({ parent, children, reason, ...(p90Usd !== undefined ? { p90Usd } : {}) }, signal).catch(() => 'cancel' as const);
      const choice = signal.aborted ? 'cancel' : asked;
      await o.emit?.(parent, { type: 'fanout_answered', choice, toolUseIds: children.map((c) => c.toolUseId) });
      if (choice === 'cancel') {
        const why = `Not run: the user cancelled this fan-out of ${children.length} subagent${children.length === 1 ? '' : 's'} before it started. Ask the user how to go on, or do the work another way.`;
        return new Map(children.map((c) => [c.toolUseId, why]));
      }
      if (choice === 'run_capped') {
        for (const c of children) if (c.forecast) o.caps.set(c.toolUseId, capsOf(c.forecast));
      }
      return new Map();
    },
  };
}

/** The forecast's p90 as budgets: what nine in ten past runs of this agent stayed within. */
function capsOf(f: AgentForecast): Budget {
  return {
    tokens: Math.max(1, Math.ceil(f.tokens.p90)),
    seconds: Math.max(1, Math.ceil(f.durationMs.p90 / 1000)),
    ...(f.costUsd ? { usd: f.costUsd.p90 } : {}),
  };
}

function describe(call: FanoutCall, o: FanoutReviewOptions): FanoutChild {
  const input = asRecord(call.input) ?? {};
  const fork = input.fork === true;
  const asked = typeof input.subagent_type === 'string' ? findAgent(o.agentTypes(), input.subagent_type) : undefined;
  const type = asked?.name ?? (typeof input.subagent_type === 'string' ? input.subagent_type : o.defaultType);
  const def = fork ? undefined : (asked ?? o.agentTypes().get(type));
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    toolUseId: call.toolUseId,
    description: text(input.description) || text(input.prompt).split('\n')[0]?.slice(0, 80) || '(no description)',
    prompt: text(input.prompt),
    agentType: fork ? 'fork' : type,
    // The call's own model over its definition's (a fork runs on its parent's: the tool refuses model with fork).
    model: resolveAgentModel(typeof input.model === 'string' && input.model.trim() ? input.model.trim() : def?.model, o.modelId(), o.modelAliases),
    ...(typeof input.effort === 'string' ? { effort: input.effort } : {}),
    ...(def?.tools ? { tools: def.tools } : {}),
    // The stricter of the session's mode and the definition's applies (as for the child itself).
    mode: narrowMode(o.mode(), def?.permissionMode) ?? o.mode(),
    fork,
    background: input.run_in_background === true,
  };
}
