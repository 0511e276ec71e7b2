/**
 * The settings table of docs/settings.md, made from the one table in code (setting-table.ts's SETTINGS, and
 * defaults.ts's OVERRIDE_DEFAULTS): test/core/settings/settings-doc.test.ts fails when the doc's copy differs, and
 * writes it anew with UPDATE_SETTINGS_DOC=1.
 */
import { OVERRIDE_DEFAULTS } from './defaults';
import { SETTINGS, type SessionOverrides } from './setting-table';

/** The lines the table sits between in docs/settings.md. */
export const TABLE_START = '<!-- settings-table: made from src/core/settings/setting-table.ts; do not edit by hand -->';
export const TABLE_END = '<!-- /settings-table -->';

/** What a setting comes to when nobody sets it and it has no value of its own (from the model, none…). */
const NO_VALUE: { readonly [K in keyof SessionOverrides]?: string } = {
  baseUrl: "Anthropic's API",
  maxTokens: "the model family's",
  contextWindow: "the model's (the built-in table)",
  modelAliases: 'the built-in table',
  allowedTools: 'none',
  disallowedTools: 'none',
  toolEnv: 'none',
  subagentMaxTokens: 'none',
  subagentTimeout: 'none',
  maxBudgetUsd: 'none',
  prices: "Claude models' prices built in",
  settingSources: 'user, project, local',
  hooks: 'on',
  mcpConfigs: 'none',
  strictMcpConfig: 'off',
  mcpServers: 'none',
  transcriptRoot: '~/.local/share/delegate/sessions',
};

/** The default as the table says it. */
function defaultText(key: keyof SessionOverrides): string {
  const value = (OVERRIDE_DEFAULTS as Partial<Record<keyof SessionOverrides, unknown>>)[key];
  if (value !== undefined) return String(value);
  return NO_VALUE[key] ?? '—';
}

const code = (text: string | undefined): string => (text ? `\`${text}\`` : '—');

/** How `delegate acp` takes it: its flag, another way (a request), or only through the variable. */
function acpText(key: keyof SessionOverrides): string {
  const row = SETTINGS[key];
  if (typeof row.acp === 'string') return row.acp.replace(/(--[a-z-]+)/g, '`$1`');
  if (row.acp === undefined && row.flag) return code(row.flag);
  return row.env ? 'the variable' : '—';
}

/** The table, one row per key of SessionOverrides, in the order of SETTINGS. */
export function settingsTable(): string {
  const lines = ['| Setting | CLI flag | Environment | Editor (`delegate.*`) | `delegate acp` | Action input | Default |', '|---|---|---|---|---|---|---|'];
  for (const key of Object.keys(SETTINGS) as (keyof SessionOverrides)[]) {
    const row = SETTINGS[key];
    const editor = row.editor?.startsWith('delegate.') ? code(row.editor) : (row.editor ?? '—');
    lines.push(`| ${row.about} | ${code(row.flag)} | ${code(row.env)} | ${editor} | ${acpText(key)} | ${code(row.action)} | ${defaultText(key)} |`);
  }
  return lines.join('\n');
}
