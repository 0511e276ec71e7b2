/**
 * The session's selectors as ACP config options: the permission mode and the model, so a client's mode and model
 * pickers work (`session/set_config_option`, the older `session/set_mode` and `session/set_model`).
 *
 *   models offered = the session's model, then the alias table's (the built-in sonnet / opus / haiku and
 *                    DELEGATE_MODEL_ALIASES / delegate.modelAliases over them), each id once
 *   a value set    = an offered id, or an alias of the table ("haiku" → its id); anything else: -32602 naming them
 *   every change   ─▶ config_option_update (the whole set, as the spec asks) and, for the mode, current_mode_update
 */
import { RequestError, type SessionConfigOption, type SessionModeState } from '@agentclientprotocol/sdk/unstable';
import { DEFAULT_MODEL_ALIASES } from '../core/session';
import { PERMISSION_MODES, type PermissionMode } from '../core/vocabulary';

const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  default: { name: 'Default', description: 'Asks before edits, commands and anything outside the workspace' },
  acceptEdits: { name: 'Accept edits', description: 'File edits in the workspace go ahead; commands still ask' },
  plan: { name: 'Plan', description: 'Read-only: looks and plans, changes nothing' },
  bypassPermissions: { name: 'Bypass permissions', description: 'Nothing asks (the workspace confinement and the deny list still hold)' },
};

export const MODE_CONFIG_ID = 'mode';
export const MODEL_CONFIG_ID = 'model';

export interface ModelChoice {
  id: string;
  /** The aliases that name it ("sonnet"), for its label. */
  aliases: string[];
}

export function isPermissionMode(id: string): id is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(id);
}

export function modeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_NAMES[id] })) };
}

/** The models a client may pick: the session's own first, then the alias table's, each id once. */
export function modelChoices(current: string, aliases: Readonly<Record<string, string>> | undefined): ModelChoice[] {
  const table = { ...DEFAULT_MODEL_ALIASES, ...aliases };
  const choices: ModelChoice[] = [{ id: current, aliases: [] }];
  for (const [alias, id] of Object.entries(table)) {
    const known = choices.find((c) => c.id === id);
    if (known) known.aliases.push(alias);
    else choices.push({ id, aliases: [alias] });
  }
  return choices;
}

/** The id a client's value names (an offered id or an alias), or a -32602 listing what it may name. */
export function pickModel(value: string, choices: readonly ModelChoice[]): string {
  const wanted = value.trim();
  const found = choices.find((c) => c.id === wanted || c.aliases.includes(wanted));
  if (found) return found.id;
  const offered = choices.map((c) => (c.aliases.length ? `${c.id} (${c.aliases.join(', ')})` : c.id)).join(', ');
  throw RequestError.invalidParams({ value }, `unknown model "${value}": one of ${offered}`);
}

/** The mode and model selectors with their current values. */
export function configOptions(mode: PermissionMode, model: string, choices: readonly ModelChoice[]): SessionConfigOption[] {
  return [
    {
      id: MODE_CONFIG_ID,
      name: 'Mode',
      description: 'What Delegate may do without asking',
      category: 'mode',
      type: 'select',
      currentValue: mode,
      options: PERMISSION_MODES.map((id) => ({ value: id, ...MODE_NAMES[id] })),
    },
    {
      id: MODEL_CONFIG_ID,
      name: 'Model',
      description: 'The model of the next prompts (subagents whose definition names none too)',
      category: 'model',
      type: 'select',
      currentValue: model,
      options: choices.map((c) => ({ value: c.id, name: c.aliases.length ? `${c.id} (${c.aliases.join(', ')})` : c.id })),
    },
  ];
}
