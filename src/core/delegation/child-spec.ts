/**
 * A subagent's spec built from its definition — the one place an agent file turns into what runs:
 *
 *   definition ─▶ tools     the session's tools ∩ `tools` − `disallowedTools` (task only below max depth)
 *              ─▶ prompt    its body, then the harness's short note on the folder, the tools and the report
 *              ─▶ model     the call's `model`, else inherit | alias | full id
 *              ─▶ thinking  the call's `effort`, else `thinking:`, else `effort:`, else the session's
 *              ─▶ turns     maxTurns, else the session's subagent cap
 *              ─▶ mode      its permissionMode, which may only narrow the parent's
 *              ─▶ skills    `skills:` preloaded after its prompt (skills/skill-preload.ts), and no `skill` tool
 *              ─▶ spawnable the agents its own task tool offers (`agents:`, `Agent(a, b)`)
 *   a resume   ─▶ tools     no more than it first ran with (agent_started's `tools`)
 */
import type { AgentSpec, RunConfig } from '../loop/types';
import { subagentSystemPrompt } from '../loop/prompts';
import type { AnyTool, ToolRegistry } from '../tools/types';
import { mcpToolName } from '../mcp/mcp-tool';
import { MEMORY_TOOLS } from './agent-memory';
import { resolveAgentModel } from '../agent-files/agent-catalog';
import type { AgentDefinition } from '../agent-files/agent-definition';
import type { AgentIdentity, Effort } from '../vocabulary';

/**
 * The session's tools this agent may use (the `task` tool is added by the loop when allowed). The servers its
 * `mcpServers` names (configured or its own) and its memory's tools count as listed in `tools`: the file gave them.
 */
function agentTools(def: AgentDefinition, all: ToolRegistry): ToolRegistry {
  const denied = new Set(def.disallowedTools ?? []);
  const allowed = def.tools ? new Set(def.tools) : undefined;
  const servers = def.mcpServers ? [...def.mcpServers.refs, ...Object.keys(def.mcpServers.inline)].map((s) => mcpToolName(s, '')) : [];
  const listed = (name: string): boolean =>
    allowed === undefined || allowed.has(name) || servers.some((prefix) => name.startsWith(prefix)) || (def.memory !== undefined && (MEMORY_TOOLS as readonly string[]).includes(name)) || (name.startsWith('mcp__') && [...allowed].some((a) => a.startsWith('mcp__') && !a.slice(5).includes('__') && name.startsWith(`${a}__`)));
  return all.filter((name) => !denied.has(name) && listed(name));
}

/** May this agent delegate further (depth permitting)? Only if its tool list, when it has one, names `task`, and its `agents` are not `[]`. */
function agentMayDelegate(def: AgentDefinition): boolean {
  if (def.disallowedTools?.includes('task') || def.spawnable?.length === 0) return false;
  return def.tools === undefined || def.tools.includes('task');
}

export interface ChildSpecInput {
  def: AgentDefinition;
  identity: AgentIdentity;
  prompt: string;
  toolUseId: string;
  parentModel: string;
  /** The session's folder, caps and project instructions. */
  config: Pick<RunConfig, 'workdir' | 'limits' | 'projectInstructions'>;
  /** The session's tools as they are now (MCP tools included once connected). */
  baseTools: ToolRegistry;
  /** `sonnet` / `opus` / `haiku` → model ids, for the definition's `model`. */
  modelAliases?: Readonly<Record<string, string>>;
  /** The task call's own model and effort: over the definition's `model` and `thinking:` / `effort:`. */
  asked?: { model?: string; effort?: Effort };
  /** A resume: the tools it first ran with (agent_started's `tools`); it gets none outside them, whatever its file says now. */
  ranWith?: readonly string[];
  /** Its `skills:`' instructions (the definition lists skills): after its system prompt, in place of the `skill` tool. */
  preloadedSkills?: string;
  /** Its own MCP servers' tools (its file's inline `mcpServers`), started for this run: its alone. */
  ownTools?: readonly AnyTool[];
}

export function childSpec({ def, identity, prompt, toolUseId, parentModel, config, baseTools, modelAliases, ranWith, asked, preloadedSkills, ownTools }: ChildSpecInput): AgentSpec {
  const thinking = asked?.effort ?? def.thinking ?? def.effort;
  const ran = ranWith ? new Set(ranWith) : undefined;
  const had = (name: string): boolean => ran?.has(name) ?? true;
  const canDelegate = agentMayDelegate(def) && identity.depth < config.limits.maxDepth && had('task');
  return {
    identity,
    systemPrompt: withSkills(subagentSystemPrompt(config.workdir, canDelegate, def.scope === 'built-in' && !def.prompt ? undefined : def, config.projectInstructions), preloadedSkills),
    history: [],
    prompt,
    // An agent that lists its skills has exactly those (Claude Code: subagents do not inherit the others); its own
    // servers' tools replace a session server's of the same name.
    tools: agentTools(def, ownTools?.length ? baseTools.filter((name) => !ownTools.some((t) => t.name === name)).with(...ownTools) : baseTools).filter((name) => had(name) && !(def.skills && name === 'skill')),
    canDelegate,
    maxTurns: def.maxTurns ?? config.limits.subagentMaxTurns,
    toolUseId,
    modelId: resolveAgentModel(asked?.model ?? def.model, parentModel, modelAliases),
    // Its own thinking (the call's effort, else `thinking:` over `effort:`); none: the session's (the loop's fallback).
    ...(thinking !== undefined ? { thinking } : {}),
    ...(asked && Object.keys(asked).length ? { asked } : {}),
    agentType: def.name,
    ...(budgetOf(def, config.limits) ? { budget: budgetOf(def, config.limits) } : {}),
    webSearch: !def.disallowedTools?.includes('web_search') && (def.tools === undefined || def.tools.includes('web_search')) && had('web_search'),
    ...(def.color ? { color: def.color } : {}),
    // The agents it may start (`agents:`, `Agent(a, b)` in its tools): the task tool offers only those.
    ...(def.spawnable ? { spawnable: def.spawnable } : {}),
    ...(def.handoffs ? { handoffs: def.handoffs } : {}),
  };
}

function withSkills(system: string, preloaded: string | undefined): string {
  return preloaded ? `${system}\n\n${preloaded}` : system;
}

/** The session's default subagent budget, each part overridden by the agent definition's own. */
function budgetOf(def: AgentDefinition, limits: RunConfig['limits']): AgentSpec['budget'] {
  const merged = { ...limits.subagentBudget, ...def.budget };
  return Object.keys(merged).length ? merged : undefined;
}
