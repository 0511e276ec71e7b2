/**
 * The agents a session can hand work to, from the files users already keep:
 *
 *   built-in      general-purpose (every tool), Explore (read-only)
 *   user          ~/.claude/agents/*.md
 *   project       .github/agents/*.agent.md (Copilot), .claude/agents/*.md   ← wins on a name clash
 *
 * Every file that cannot be used, and every tool name Delegate does not have, is reported (never skipped
 * silently — the most common complaint about the peers); the rest loads.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ourToolName } from '../tools/tool-names';
import { copilotToolName } from './copilot-tools';
import { parseAgentFile, type AgentDefinition, type AgentFileProblem } from './agent-definition';

export const DEFAULT_AGENT = 'general-purpose';

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: DEFAULT_AGENT,
    description: 'Any task; every tool.',
    prompt: '',
    source: 'built-in',
    scope: 'built-in',
  },
  {
    name: 'Explore',
    description: 'Read-only code search and reading; no commands.',
    prompt: 'You explore the codebase read-only: find the relevant files, search and read them, and report precisely (paths and line numbers).',
    tools: ['read_file', 'glob', 'grep'],
    source: 'built-in',
    scope: 'built-in',
  },
];

/**
 * Our names for the names in an agent's list (Claude Code's, ours, Copilot's: copilot-tools.ts); `unknown` are
 * those Delegate has no tool for, `editorOnly` VS Code's tools that have no counterpart here; `all`: a `*`.
 */
export function mapToolNames(names: readonly string[], known: ReadonlySet<string>): { tools: string[]; unknown: string[]; editorOnly: string[]; all: boolean } {
  const tools: string[] = [];
  const unknown: string[] = [];
  const editorOnly: string[] = [];
  let all = false;
  for (const raw of names) {
    const name = raw.replace(/\(.*\)$/, '').trim(); // `Bash(git *)` rules: the tool is what counts here
    if (name.startsWith('mcp__')) {
      tools.push(name); // MCP tools exist once their server connects: resolved when the agent runs
      continue;
    }
    const ours = ourToolName(name, known);
    if (ours) {
      tools.push(ours);
      continue;
    }
    const copilot = copilotToolName(name);
    if (copilot.kind === 'all') all = true;
    else if (copilot.kind === 'mcp') tools.push(copilot.name);
    else if (copilot.kind === 'editorOnly') editorOnly.push(name);
    else if (copilot.kind === 'tools' && copilot.tools.some((t) => known.has(t))) tools.push(...copilot.tools.filter((t) => known.has(t)));
    else unknown.push(name);
  }
  return { tools: [...new Set(tools)], unknown, editorOnly, all };
}

export interface AgentCatalog {
  /** By id; what a `task` call's `subagent_type` selects (findAgent: by display name too). */
  agents: Map<string, AgentDefinition>;
  problems: AgentFileProblem[];
}

async function filesIn(dir: string, suffix: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith(suffix)).sort().map((n) => join(dir, n));
}

export interface CatalogOptions {
  workdir: string;
  /** The user's home (for ~/.claude/agents); none: no user agents. */
  home?: string;
  /** The names of the tools the session has (ours), to report unknown ones. */
  knownTools: ReadonlySet<string>;
  /** False in an untrusted editor workspace: the project's agent files are not read. */
  includeProject?: boolean;
}

export async function loadAgentCatalog(opts: CatalogOptions): Promise<AgentCatalog> {
  const problems: AgentFileProblem[] = [];
  const sources: { files: string[]; scope: AgentDefinition['scope']; copilot: boolean }[] = [];
  if (opts.home) sources.push({ files: await filesIn(join(opts.home, '.claude', 'agents'), '.md'), scope: 'user', copilot: false });
  if (opts.includeProject !== false) {
    sources.push({ files: await filesIn(join(opts.workdir, '.github', 'agents'), '.agent.md'), scope: 'project', copilot: true });
    sources.push({ files: await filesIn(join(opts.workdir, '.claude', 'agents'), '.md'), scope: 'project', copilot: false });
  }
  if (sources.every((source) => source.files.length === 0)) return { agents: new Map(BUILT_IN_AGENTS.map((a) => [a.name, a])), problems };
  // `yaml` is CommonJS: its module.exports is `default` everywhere (Node, tsx, and the CLI's split bundle, whose chunk
  // for it exports nothing else), while its named exports exist only outside the bundle.
  const { default: yaml } = await import('yaml');
  const { parseDocument } = yaml;
  // Later sources win: user < Copilot's project files < Claude Code's project files. Keyed by the name as written,
  // so an agent of the same name replaces the earlier one; ids are given once all are read (withIds).
  const byName = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((a) => [a.name, a]));
  for (const { files, scope, copilot } of sources) {
    const seen = new Map<string, string>();
    for (const file of files) {
      const text = await readAgentFile(file).catch((err: Error) => err);
      if (text instanceof Error) {
        problems.push({ file, reason: `cannot read it: ${text.message}`, severity: 'error' });
        continue;
      }
      const fallback = copilot ? file.slice(file.lastIndexOf('/') + 1, -'.agent.md'.length) : undefined;
      const parsed = parseAgentFile(file, text, scope, fallback, parseDocument);
      problems.push(...parsed.problems);
      const agent = parsed.agent;
      if (!agent) continue;
      const written = writtenName(agent);
      if (seen.has(written)) problems.push({ file, reason: `the name "${written}" is also used by ${seen.get(written)}; this one wins`, severity: 'warning' });
      seen.set(written, file);
      for (const key of ['tools', 'disallowedTools'] as const) {
        const names = agent[key];
        if (!names) continue;
        const mapped = mapToolNames(names, opts.knownTools);
        if (mapped.unknown.length) {
          problems.push({ file, reason: `${key}: Delegate has no tool ${mapped.unknown.map((n) => `"${n}"`).join(', ')}: dropped from this agent`, severity: 'warning' });
        }
        if (mapped.editorOnly.length) {
          problems.push({ file, reason: `${key}: ${mapped.editorOnly.join(', ')}: VS Code's own, with no counterpart in Delegate: left out`, severity: 'warning' });
        }
        // `*`: every tool (in disallowedTools, every tool the session has).
        if (mapped.all && key === 'tools') delete agent.tools;
        else agent[key] = mapped.all ? [...opts.knownTools] : mapped.tools;
      }
      byName.set(written, agent);
    }
  }
  return { agents: withIds([...byName.values()], problems), problems };
}

const writtenName = (agent: AgentDefinition): string => agent.displayName ?? agent.name;

/**
 * The agents by id. A name that is an id keeps it; a display name's slug goes to the first agent that has it,
 * and an agent whose slug is taken (by a name, or by another display name) gets `-2`, `-3`… with a warning.
 */
function withIds(agents: readonly AgentDefinition[], problems: AgentFileProblem[]): Map<string, AgentDefinition> {
  const owners = new Map<string, AgentDefinition>(agents.filter((a) => a.displayName === undefined).map((a) => [a.name, a]));
  const out = new Map<string, AgentDefinition>();
  for (const agent of agents) {
    if (agent.displayName === undefined) {
      out.set(agent.name, agent);
      continue;
    }
    let id = agent.name;
    for (let n = 2; owners.has(id); n++) id = `${agent.name.slice(0, 60)}-${n}`;
    const taken = owners.get(agent.name);
    if (taken) problems.push({ file: agent.source, reason: `the id "${agent.name}" of "${agent.displayName}" is taken by ${taken.source === 'built-in' ? `the built-in ${taken.name}` : taken.source}: its id is "${id}"`, severity: 'warning' });
    const named = { ...agent, name: id };
    owners.set(id, named);
    out.set(id, named);
  }
  return out;
}

const NOT_A_FILE = 'not a regular file (a device, a pipe or a folder)';

/** Bigger files are not agent definitions: only their first megabyte is read (the body is cut far sooner). */
const MAX_FILE_BYTES = 1_000_000;

async function readAgentFile(file: string): Promise<string> {
  // Looked at before it is opened: opening a FIFO waits for a writer, and a link to /dev/stdin or /dev/zero (which a
  // repository can hold) would wait for the terminal or read without end.
  if (!(await stat(file)).isFile()) throw new Error(NOT_A_FILE);
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= MAX_FILE_BYTES) return await handle.readFile('utf8');
    const buffer = Buffer.alloc(MAX_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_FILE_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `sonnet`, `opus`, `haiku` → full ids (overridable: `delegate.modelAliases`, DELEGATE_MODEL_ALIASES). */
export const DEFAULT_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};

/** The model an agent runs on: `inherit` (or none) is its parent's; an alias goes through the table. */
export function resolveAgentModel(model: string | undefined, parentModel: string, aliases: Readonly<Record<string, string>> = DEFAULT_MODEL_ALIASES): string {
  if (!model || model === 'inherit') return parentModel;
  return aliases[model] ?? model;
}
