/**
 * One agent definition file, as Claude Code and Copilot write them, parsed into what Delegate uses:
 *
 *   ---                                  name, description        required (Copilot: name from the file)
 *   name: code-reviewer                  tools, disallowedTools   comma-separated string or list;
 *   description: Reviews diffs…                                   Claude Code's names or ours
 *   tools: Read, Grep, Glob              model                    inherit | sonnet | opus | haiku | full id
 *   model: sonnet                        maxTurns, permissionMode, color
 *   thinking: high                       thinking (off|low|medium|high|N), effort (low…max): this agent's own
 *   output: {type: object, …}            a JSON Schema its report must end with a value of (typed return)
 *   ---
 *   You are a senior reviewer…           ← the body: the subagent's system prompt
 *
 * Problems are returned, never thrown: an unusable file is skipped with its reason (and line when known),
 * an unknown tool name is dropped with one warning for the file and the agent still loads.
 */
import { basename } from 'node:path';
import type { parseDocument as ParseDocument } from 'yaml';
import { readFrontMatter, splitFrontMatter } from './front-matter';
import { parseAgentExtras, unknownFields, type AgentFileExtras } from './agent-extras';
import { cutNote, MAX_INSTRUCTION_CHARS } from '../instructions/instruction-cut';
import { EFFORTS, parseThinkingSetting, type Effort, type ThinkingSetting, PERMISSION_MODES, type PermissionMode, ISOLATION_MODES, type IsolationMode } from '../vocabulary';

/** The core fields; the rest of what a file may say (agents it may start, handoffs, background…): agent-extras.ts. */
export interface AgentDefinition extends AgentFileExtras {
  /** Its id (a slug of `displayName` when the file's name is not one). */
  name: string;
  /** The file's `name` as written when it is not an id ('Critical Thinking Assistant'); the model may use either. */
  displayName?: string;
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
  /** `isolation: worktree` (Claude Code's field): its runs get their own git worktree unless the call says otherwise. */
  isolation?: IsolationMode;
  color?: string;
  /** Its own extended thinking (`thinking:` off|low|medium|high|N, `effort:` low…max); none: the session's. */
  thinking?: ThinkingSetting;
  effort?: Effort;
  /** Claude Code's `skills:`: skills whose instructions are preloaded into its prompt (it gets no `skill` tool). */
  skills?: string[];
  /** Delegate's own fields: what one run of this agent may spend (tokens, wall seconds, dollars). */
  budget?: { tokens?: number; seconds?: number; usd?: number };
  /** `output:` a JSON Schema (a YAML mapping) its report must end with a value of (report/typed-output.ts). */
  output?: Record<string, unknown>;
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

/** An agent's id: what `subagent_type`, hooks' matchers and transcripts name it by. */
const USABLE_ID = /^[A-Za-z0-9][\w.-]{0,63}$/;
const MAX_DISPLAY_NAME = 100;

/**
 * The id made of a display name: lowercase words joined by `-` ('Critical Thinking Assistant' →
 * critical-thinking-assistant, 'C# Expert' → csharp-expert, 'C++ Expert' → cpp-expert); '' when nothing is left.
 */
export function agentSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])#/gi, '$1sharp')
    .replace(/([a-z])\+\+/gi, '$1pp')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/**
 * The agent a `subagent_type` names: its id, or its display name as written; failing both, either one in
 * another case when only one agent matches.
 */
export function findAgent(agents: ReadonlyMap<string, AgentDefinition>, ref: string): AgentDefinition | undefined {
  const wanted = ref.trim();
  const all = [...agents.values()];
  const exact = agents.get(wanted) ?? all.find((a) => a.displayName === wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  const loose = all.filter((a) => a.name.toLowerCase() === lower || a.displayName?.toLowerCase() === lower);
  return loose.length === 1 ? loose[0] : undefined;
}

/** The body as the agent's system prompt: cut as project instructions are, with the same note and a warning. */
function body(file: string, text: string, problems: AgentFileProblem[]): string {
  const prompt = text.trim();
  if (prompt.length <= MAX_INSTRUCTION_CHARS) return prompt;
  const max = MAX_INSTRUCTION_CHARS.toLocaleString('en-US');
  problems.push({ file, reason: `its body is ${prompt.length.toLocaleString('en-US')} characters: cut at ${max}, as CLAUDE.md is`, severity: 'warning' });
  return `${prompt.slice(0, MAX_INSTRUCTION_CHARS)}\n\n${cutNote(MAX_INSTRUCTION_CHARS, [`the rest of ${file}`])}`;
}

const COLORS = new Set(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan']);

function list(value: unknown): string[] | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  // Commas inside parentheses belong to one entry: `Agent(worker, researcher), Read`.
  if (typeof value === 'string') return value.split(/[,\n](?![^(]*\))/).map((s) => s.trim()).filter(Boolean);
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
  const read = readFrontMatter(parts.yaml, parseDocument);
  if (!read.ok) return fail(read.reason, read.line);
  const fields = read.fields;
  if (read.lenient) {
    problems.push({
      file,
      ...(read.lenient.line ? { line: read.lenient.line } : {}),
      reason: `invalid YAML (${read.lenient.error}): read line by line instead, each field as \`key: rest of the line\`; quote the value (or use \`description: |\`) to make it valid YAML`,
      severity: 'warning',
    });
  }
  // One line, without control or format characters (a right-to-left override would dress one name as another).
  const shown = typeof fields.name === 'string' ? fields.name.replace(/\s+/g, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim() : '';
  const written = shown || fallbackName;
  if (!written) return fail('no `name` field');
  // A name that is not an id ('Critical Thinking Assistant', as Copilot's files have them) is shown as written and
  // addressed by its slug too; the catalog makes the slug unique.
  const usable = USABLE_ID.test(written);
  // A name with nothing to make an id of ('🤖 Reviewer' has, '🤖🤖' has not) is still shown: the file's name is its id.
  const id = usable ? written : agentSlug(written) || agentSlug(fallbackName ?? '') || agentSlug(basename(file).replace(/(?:\.agent)?\.md$/i, ''));
  if (!id) return fail(`the name "${written}" has no letters or digits to make an id of`);
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (!description) return fail('no `description` field (it tells the main agent when to use this agent)');

  const tools = list(fields.tools);
  const disallowed = list(fields.disallowedTools ?? fields['disallowed-tools']);
  if (tools === 'invalid') return fail('`tools` must be a comma-separated string or a list of names');
  if (disallowed === 'invalid') return fail('`disallowedTools` must be a comma-separated string or a list of names');

  const agent: AgentDefinition = { name: id, ...(usable ? {} : { displayName: written.slice(0, MAX_DISPLAY_NAME) }), description, prompt: body(file, parts.body, problems), source: file, scope };
  if (tools) agent.tools = tools;
  if (disallowed) agent.disallowedTools = disallowed;
  Object.assign(agent, parseAgentExtras(fields, tools, (reason) => problems.push({ file, reason, severity: 'warning' })));
  const unknown = read.lenient ? [] : unknownFields(fields);
  if (unknown.length) problems.push({ file, reason: `${unknown.map((k) => `\`${k}\``).join(', ')}: not a field of Claude Code's or Copilot's agent files: ignored`, severity: 'warning' });
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
  if (fields.isolation !== undefined) {
    if ((ISOLATION_MODES as readonly unknown[]).includes(fields.isolation)) agent.isolation = fields.isolation as IsolationMode;
    else problems.push({ file, reason: `\`isolation\` must be one of ${ISOLATION_MODES.join(', ')}: ignored`, severity: 'warning' });
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
  const skills = list(fields.skills);
  if (skills === 'invalid') problems.push({ file, reason: '`skills` must be a comma-separated string or a list of skill names: ignored', severity: 'warning' });
  else if (skills) agent.skills = skills;
  if (typeof fields.color === 'string' && COLORS.has(fields.color.trim().toLowerCase())) agent.color = fields.color.trim().toLowerCase();
  const budget: NonNullable<AgentDefinition['budget']> = {};
  for (const [key, field] of [['tokens', 'tokenBudget'], ['seconds', 'timeoutSeconds'], ['usd', 'budgetUsd']] as const) {
    const v = fields[field];
    if (v === undefined) continue;
    if (typeof v === 'number' && v > 0) budget[key] = v;
    else problems.push({ file, reason: `\`${field}\` must be a positive number: ignored`, severity: 'warning' });
  }
  if (Object.keys(budget).length) agent.budget = budget;
  if (fields.output !== undefined && fields.output !== null) {
    if (typeof fields.output === 'object' && !Array.isArray(fields.output)) agent.output = fields.output as Record<string, unknown>;
    else problems.push({ file, reason: '`output` must be a JSON Schema written as a YAML mapping (type: object, properties: …): ignored', severity: 'warning' });
  }
  return { agent, problems };
}
