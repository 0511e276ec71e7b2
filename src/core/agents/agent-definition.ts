/**
 * One agent definition file, as Claude Code and Copilot write them, parsed into what Delegate uses:
 *
 *   ---                                  name, description        required (Copilot: name from the file)
 *   name: code-reviewer                  tools, disallowedTools   comma-separated string or list;
 *   description: Reviews diffs…                                   Claude Code's names or ours
 *   tools: Read, Grep, Glob              model                    inherit | sonnet | opus | haiku | full id
 *   model: sonnet                        maxTurns, permissionMode, color
 *   thinking: high                       thinking (off|low|medium|high|N), effort (low…max): this agent's own
 *   ---
 *   You are a senior reviewer…           ← the body: the subagent's system prompt
 *
 * Problems are returned, never thrown: an unusable file is skipped with its reason (and line when known),
 * an unknown tool name is dropped with one warning for the file and the agent still loads.
 */
import type { parseDocument as ParseDocument } from 'yaml';
import { EFFORTS, parseThinkingSetting, type Effort, type ThinkingSetting, PERMISSION_MODES, type PermissionMode } from '../vocabulary';

export interface AgentDefinition {
  name: string;
  description: string;
  /** The body: the subagent's own system prompt. */
  prompt: string;
  /** Tool names as written (mapped to ours when the agent runs); undefined = every tool. */
  tools?: string[];
  disallowedTools?: string[];
  /** `inherit`, an alias (`sonnet`, `opus`, `haiku`) or a full model id. */
  model?: string;
  maxTurns?: number;
  permissionMode?: PermissionMode;
  color?: string;
  /** Its own extended thinking (`thinking:` off|low|medium|high|N, `effort:` low…max); none: the session's. */
  thinking?: ThinkingSetting;
  effort?: Effort;
  /** Delegate's own fields: what one run of this agent may spend (tokens, wall seconds, dollars). */
  budget?: { tokens?: number; seconds?: number; usd?: number };
  /** Where it came from (a file path, or "built-in"). */
  source: string;
  scope: 'built-in' | 'project' | 'user';
}

export interface AgentFileProblem {
  file: string;
  line?: number;
  reason: string;
  /** `error`: the file was skipped; `warning`: it loaded without something. */
  severity: 'error' | 'warning';
}

const COLORS = new Set(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan']);

/** Splits `---\nyaml\n---\nbody`; the front matter's first line number is 2. */
function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n')) return undefined;
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return undefined;
  const after = normalized.indexOf('\n', end + 4);
  return { yaml: normalized.slice(4, end + 1), body: after === -1 ? '' : normalized.slice(after + 1) };
}

function list(value: unknown): string[] | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim()).filter(Boolean);
  return 'invalid';
}

/**
 * Parses one agent file. `fallbackName` (Copilot's `.agent.md`: the file name) is used when the front
 * matter has no `name`.
 */
export function parseAgentFile(
  file: string,
  text: string,
  scope: AgentDefinition['scope'],
  fallbackName: string | undefined,
  /** The `yaml` package's parser, loaded by the caller only when there are agent files (start-up cost). */
  parseDocument: typeof ParseDocument,
): { agent?: AgentDefinition; problems: AgentFileProblem[] } {
  const problems: AgentFileProblem[] = [];
  const fail = (reason: string, line?: number) => ({ problems: [...problems, { file, reason, severity: 'error' as const, ...(line ? { line } : {}) }] });
  const parts = splitFrontMatter(text);
  if (!parts) return fail('no YAML front matter (the file must start with a --- line and close it with another)', 1);
  const doc = parseDocument(parts.yaml);
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    // linePos is 1-based within the front matter, which starts on the file's second line.
    const line = err?.linePos?.[0]?.line;
    const message = (err?.message.split('\n')[0] ?? 'parse error').replace(/ at line \d+, column \d+:?$/, '');
    return fail(`invalid YAML: ${message}`, line !== undefined ? line + 1 : undefined);
  }
  const data: unknown = doc.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('the front matter is not a mapping of fields', 2);
  const fields = data as Record<string, unknown>;
  const name = typeof fields.name === 'string' && fields.name.trim() ? fields.name.trim() : fallbackName;
  if (!name) return fail('no `name` field');
  if (!/^[A-Za-z0-9][\w.-]{0,63}$/.test(name)) return fail(`the name "${name}" is not usable (letters, digits, - _ . up to 64)`);
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (!description) return fail('no `description` field (it tells the main agent when to use this agent)');

  const tools = list(fields.tools);
  const disallowed = list(fields.disallowedTools ?? fields['disallowed-tools']);
  if (tools === 'invalid') return fail('`tools` must be a comma-separated string or a list of names');
  if (disallowed === 'invalid') return fail('`disallowedTools` must be a comma-separated string or a list of names');

  const agent: AgentDefinition = { name, description, prompt: parts.body.trim(), source: file, scope };
  if (tools) agent.tools = tools;
  if (disallowed) agent.disallowedTools = disallowed;
  // Copilot's `model` may be a list (fallbacks): the first one wins.
  const model = Array.isArray(fields.model) ? fields.model[0] : fields.model;
  if (typeof model === 'string' && model.trim()) agent.model = model.trim();
  if (fields.maxTurns !== undefined) {
    if (typeof fields.maxTurns === 'number' && Number.isInteger(fields.maxTurns) && fields.maxTurns > 0) agent.maxTurns = fields.maxTurns;
    else problems.push({ file, reason: '`maxTurns` must be a positive integer: ignored', severity: 'warning' });
  }
  if (fields.permissionMode !== undefined) {
    if ((PERMISSION_MODES as readonly unknown[]).includes(fields.permissionMode)) agent.permissionMode = fields.permissionMode as PermissionMode;
    else problems.push({ file, reason: `\`permissionMode\` must be one of ${PERMISSION_MODES.join(', ')}: ignored`, severity: 'warning' });
  }
  if (fields.thinking !== undefined && fields.thinking !== null) {
    const parsed = parseThinkingSetting(typeof fields.thinking === 'boolean' ? (fields.thinking ? 'auto' : 'off') : fields.thinking);
    if (typeof parsed === 'object') problems.push({ file, reason: `\`thinking\`: ${parsed.error}: ignored`, severity: 'warning' });
    else agent.thinking = parsed;
  }
  if (fields.effort !== undefined && fields.effort !== null) {
    const effort = typeof fields.effort === 'string' ? fields.effort.trim().toLowerCase() : '';
    if ((EFFORTS as readonly string[]).includes(effort)) agent.effort = effort as Effort;
    else problems.push({ file, reason: `\`effort\` must be one of ${EFFORTS.join(', ')}: ignored`, severity: 'warning' });
  }
  if (typeof fields.color === 'string' && COLORS.has(fields.color.trim().toLowerCase())) agent.color = fields.color.trim().toLowerCase();
  const budget: NonNullable<AgentDefinition['budget']> = {};
  for (const [key, field] of [['tokens', 'tokenBudget'], ['seconds', 'timeoutSeconds'], ['usd', 'budgetUsd']] as const) {
    const v = fields[field];
    if (v === undefined) continue;
    if (typeof v === 'number' && v > 0) budget[key] = v;
    else problems.push({ file, reason: `\`${field}\` must be a positive number: ignored`, severity: 'warning' });
  }
  if (Object.keys(budget).length) agent.budget = budget;
  return { agent, problems };
}
