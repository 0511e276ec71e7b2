/**
 * Which model a `task` call's own `model` may name: none in a dearer tier than the session's cap. VS Code's rule for
 * a subagent's model (there by premium-request multiplier, silently downgraded); here the tiers are the price table
 * the budgets count in (loop/budget.ts, with DELEGATE_PRICES / delegate.prices over it), and a call over the cap is
 * refused with a line naming the cap, so the parent knows its choice did not run.
 *
 *   cap   session (default)  the session's model as it is now (setModel moves it)
 *         <alias or id>      that model (`sonnet`: nothing dearer than Sonnet runs as a child)
 *         none               any model
 *   tier  $ per million output tokens of the model's price row (input prices keep the same order in the table)
 *   the cap's own model always passes; a model without a price cannot be placed: refused unless it is the cap's
 */
import { priceFor, type ModelPrice } from '../loop/budget';

export interface ModelCapInput {
  /** The model the call asked for, its alias resolved. */
  requested: string;
  /** The setting as written (`session`, `none`, an alias or an id); undefined: `session`. */
  cap: string | undefined;
  /** The session's model now. */
  sessionModel: string;
  aliases: Readonly<Record<string, string>>;
  prices: Readonly<Record<string, ModelPrice>>;
  /** How the user sets the cap, for the refusal (`--subagent-model-cap / DELEGATE_SUBAGENT_MODEL_CAP / …`). */
  settingName: string;
}

/** Why the child may not run on `requested` (one line), or undefined. */
export function modelCapRefusal(o: ModelCapInput): string | undefined {
  const written = o.cap?.trim() || 'session';
  if (written === 'none') return undefined;
  const capModel = written === 'session' ? o.sessionModel : (o.aliases[written] ?? written);
  if (o.requested === capModel) return undefined;
  const capName = written === 'session' ? `the session's model ${capModel}` : capModel === written ? capModel : `${written} (${capModel})`;
  const capPrice = priceFor(capModel, o.prices);
  const price = priceFor(o.requested, o.prices);
  const how = `${o.settingName} sets the cap`;
  if (!price) return `model ${o.requested} has no price, so its cost tier is unknown and subagents are capped at ${capName} (${how}). Name a model at or below it, leave out model, or give ${o.requested} a price (DELEGATE_PRICES / delegate.prices)`;
  if (!capPrice) return `the subagent model cap ${capName} has no price, so no other model can be placed under it (${how}). Leave out model, or give ${capModel} a price (DELEGATE_PRICES / delegate.prices)`;
  if (price.output <= capPrice.output) return undefined;
  return `model ${o.requested} ($${price.output} per million output tokens) is in a dearer tier than this session lets a subagent use: ${capName} ($${capPrice.output}; ${how}). Name a model at or below it, or leave out model`;
}
