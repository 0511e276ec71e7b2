/**
 * The agent-file fields beyond an agent's prompt, tools and model: which agents it may start, whether the model may
 * start it at all, how it runs, and what a host may offer after its answer. Each as its own tool documents it:
 *
 *   agents: [Researcher, SWE]         Copilot: the agents it may delegate to (`*` every one, `[]` none)
 *   tools: Agent(worker, researcher)  Claude Code: the same allowlist, written in the tools field (Task(…) too)
 *   disable-model-invocation: true    Copilot: no other agent may start it (left out of the task tool)
 *   user-invocable: false             Copilot: hidden from the user's agent picker (Delegate has none: recorded)
 *   background: true                  Claude Code: always runs in the background
 *   model: [GPT-5 (copilot), sonnet]  Copilot: a prioritized list, the first available one runs
 *   handoffs: [{label, agent, prompt, send?, model?}]   Copilot: next steps a host shows after its answer
 *   mcpServers: [github, {playwright: {command: npx, …}}]  Claude Code: servers this agent gets: a configured one by
 *                                     name, or one defined inline (.mcp.json's shape), started for its run only
 *   memory: user | project | local    Claude Code: a folder of its own kept across sessions (delegation/agent-memory.ts)
 *   hooks: {PreToolUse: [{matcher, hooks: [{type: command, command}]}]}   Claude Code: hooks of this agent's run
 *                                     only (settings.json's shape; its Stop is SubagentStop), checked when it starts
 *
 * Read from the front matter's fields (front-matter.ts) after the core fields; problems are warnings, the agent
 * always loads. A field neither Claude Code nor Copilot documents is named in one warning per file (FIELDS).
 */
import { FIELDS } from './front-matter';

/** What one of these fields gave an agent (all optional: a file without them behaves as before). */
export interface AgentFileExtras {
  /** The agents it may start, by id or display name; `[]`: none. Undefined: every one the session has. */
  spawnable?: string[];
  /** `disable-model-invocation: true`: no agent may start it through `task`. */
  modelInvocable?: false;
  /** `user-invocable: false` (or `user-invokable`): not offered to the user by a picker. */
  userInvocable?: false;
  /** `background: true`: every task call to it runs in the background. */
  background?: true;
  /** Copilot's `model` list after the first entry (`model` holds the first): tried in order when one is unavailable. */
  fallbackModels?: string[];
  /** Copilot's handoffs: buttons a host shows after this agent's answer. */
  handoffs?: AgentHandoff[];
  /** Claude Code's `mcpServers`: configured servers it names, and servers of its own (.mcp.json entries by name). */
  mcpServers?: AgentMcpServers;
  /** Claude Code's `memory`: where its persistent folder is (~/.claude/agent-memory/<name>, .claude/agent-memory/<name>, .claude/agent-memory-local/<name>). */
  memory?: 'user' | 'project' | 'local';
  /** Claude Code's `hooks`, as written (settings.json's `hooks` object): read and checked when the agent starts. */
  hooks?: Record<string, unknown>;
}

export interface AgentMcpServers {
  /** Names of servers the session has configured (they share its connection). */
  refs: string[];
  /** Its own: name → an .mcp.json server entry, read and checked as .mcp.json's are when the agent starts. */
  inline: Record<string, Record<string, unknown>>;
}

const isEntry = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0;

/**
 * `mcpServers` as Claude Code documents it (a list of names and one-key `{name: config}` items) and as files also
 * write it: a mapping of names to configs (`name: {}` is a name only), or one name.
 */
function mcpServersOf(value: unknown, warn: Warn): AgentMcpServers | undefined {
  if (value === undefined || value === null) return undefined;
  const out: AgentMcpServers = { refs: [], inline: {} };
  const entry = (name: string, config: unknown): void => {
    if (!name.trim()) return;
    if (isEntry(config)) out.inline[name.trim()] = config;
    else out.refs.push(name.trim());
  };
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : isEntry(value) ? Object.entries(value).map(([k, v]) => ({ [k]: v })) : undefined;
  if (!items) {
    warn('`mcpServers` must be a list of server names and {name: config} entries: ignored');
    return undefined;
  }
  for (const item of items) {
    if (typeof item === 'string') entry(item, undefined);
    else if (isEntry(item)) for (const [name, config] of Object.entries(item)) entry(name, config);
    else warn(`\`mcpServers\`: ${JSON.stringify(item)} is neither a server name nor {name: config}: ignored`);
  }
  return out.refs.length || Object.keys(out.inline).length ? out : undefined;
}

export interface AgentHandoff {
  label: string;
  /** The agent it starts (its name as written in the file). */
  agent: string;
  prompt?: string;
  /** Submit the prompt at once instead of filling it in. */
  send?: boolean;
  model?: string;
}

type Warn = (reason: string) => void;

/** `Agent(a, b)` / `Task(a)` in a tools list: the agents named. Undefined when the list has no such entry. */
function spawnableFromTools(tools: readonly string[] | undefined): string[] | undefined {
  let names: string[] | undefined;
  for (const entry of tools ?? []) {
    const m = /^(?:Agent|Task)\s*\((.*)\)$/.exec(entry.trim());
    if (!m) continue;
    names = [...(names ?? []), ...(m[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean)];
  }
  return names;
}

function bool(value: unknown, field: string, warn: Warn): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  warn(`\`${field}\` must be true or false: ignored`);
  return undefined;
}

function handoffsOf(value: unknown, warn: Warn): AgentHandoff[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    warn('`handoffs` must be a list of {label, agent, prompt}: ignored');
    return undefined;
  }
  const out: AgentHandoff[] = [];
  for (const [i, raw] of value.entries()) {
    const h = raw as Record<string, unknown> | null;
    if (!h || typeof h !== 'object' || typeof h.label !== 'string' || typeof h.agent !== 'string' || !h.label.trim() || !h.agent.trim()) {
      warn(`handoff ${i + 1} needs a \`label\` and an \`agent\`: ignored`);
      continue;
    }
    out.push({
      label: h.label.trim(),
      agent: h.agent.trim(),
      ...(typeof h.prompt === 'string' ? { prompt: h.prompt } : {}),
      ...(h.send === true ? { send: true } : {}),
      ...(typeof h.model === 'string' && h.model.trim() ? { model: h.model.trim() } : {}),
    });
  }
  return out.length ? out : undefined;
}

/**
 * The extras of one file's fields. `tools` is the file's tools list as written (its `Agent(…)` entries name the
 * agents it may start); `warn` records a warning for the file.
 */
export function parseAgentExtras(fields: Record<string, unknown>, tools: readonly string[] | undefined, warn: Warn): AgentFileExtras {
  const extras: AgentFileExtras = {};
  const agents = fields.agents;
  if (agents !== undefined && agents !== null) {
    const list = typeof agents === 'string' ? agents.split(',').map((s) => s.trim()).filter(Boolean) : agents;
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) warn('`agents` must be a list of agent names (`*`: every one, `[]`: none): ignored');
    else if (!list.includes('*')) extras.spawnable = list.map((a) => a.trim()).filter(Boolean);
  } else {
    const fromTools = spawnableFromTools(tools);
    if (fromTools && !fromTools.includes('*')) extras.spawnable = fromTools;
  }
  if (bool(fields['disable-model-invocation'], 'disable-model-invocation', warn) === true) extras.modelInvocable = false;
  // VS Code's docs spell it both ways (user-invokable in older releases).
  const userField = fields['user-invocable'] !== undefined ? 'user-invocable' : 'user-invokable';
  if (bool(fields[userField], userField, warn) === false) extras.userInvocable = false;
  if (bool(fields.background, 'background', warn) === true) extras.background = true;
  if (Array.isArray(fields.model)) {
    const models = fields.model.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim());
    if (models.length > 1) extras.fallbackModels = models.slice(1);
  }
  const handoffs = handoffsOf(fields.handoffs, warn);
  if (handoffs) extras.handoffs = handoffs;
  const servers = mcpServersOf(fields.mcpServers, warn);
  if (servers) extras.mcpServers = servers;
  const memory = typeof fields.memory === 'string' ? fields.memory.trim().toLowerCase() : fields.memory;
  if (memory === 'user' || memory === 'project' || memory === 'local') extras.memory = memory;
  else if (memory !== undefined && memory !== null && memory !== 'none') warn('`memory` must be user, project or local: ignored');
  if (isEntry(fields.hooks)) extras.hooks = fields.hooks;
  else if (fields.hooks !== undefined && fields.hooks !== null) warn('`hooks` must be an object of events ({PreToolUse: [{matcher, hooks: [...]}]}): ignored');
  return extras;
}

/** Fields neither Claude Code nor Copilot documents (a typo, another tool's): said once per file, never refused. */
export function unknownFields(fields: Record<string, unknown>): string[] {
  return Object.keys(fields).filter((key) => !FIELDS.has(key));
}
