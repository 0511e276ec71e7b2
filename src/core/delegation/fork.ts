/**
 * Forks: `task{…, fork: true}` starts a child from its parent's conversation so far, so the child's first
 * request repeats the parent's latest one and reads it from the prompt cache:
 *
 *   parent's latest request  [ tools │ system │ m1 … mk ]
 *   parent's reply            mk+1 = assistant(thinking?, text?, tool_use task{fork}, other tool_use…)
 *   fork's first request     [ tools │ system │ m1 … mk │ mk+1 │ user(placeholder × each tool_use, directive) ]
 *                              └──── the same bytes as the parent's request ──┘
 *
 * Same system prompt, same model, same tools in the same order with the same JSON: `task` and `task_output`
 * stay in the list as twins that refuse (removing them would change the prefix). Every tool_use of the
 * parent's last message gets one and the same placeholder result, so parallel forks of one turn share all
 * but their directive; the directive says which call is this fork and what to do. The parent's history goes
 * along as its context holds it (after any compaction; thinking blocks with their signatures, unchanged).
 * The fork's calls and messages stay in its own conversation; only its final text returns to the parent.
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../llm/types';
import { ToolRegistry, type AnyTool, type Tool } from '../tools/types';
import type { AgentSpec, ForkBase, RunLimits } from '../loop/types';
import type { AgentIdentity } from '../vocabulary';

/** A fork's agent type (hooks, the CLI's `subagents[].agent_type`). */
export const FORK_AGENT_TYPE = 'fork';

/** Tools a fork keeps in its list but may not use. */
const DELEGATING_TOOLS = new Set(['task', 'task_output', 'send_message', 'read_subagent']);

export const FORK_PLACEHOLDER_RESULT = 'Forked at this call: the parent agent runs it and gets its result, not you.';

export const FORK_REFUSAL = 'A fork cannot delegate: do this part yourself with the other tools (task and task_output are refused in a fork).';

function forkDirective(toolUseId: string, prompt: string): string {
  return [
    `You are a fork: a copy of the agent whose conversation is above, started by its task call ${toolUseId}. The calls of that last message are the parent's; it gets their results, you do not.`,
    '',
    'Your task:',
    prompt,
    '',
    'Do it yourself with the tools, then stop; a fork cannot delegate. Your final message is the only thing returned to the parent, so make it a concise report: the outcome, the evidence (paths with line numbers, commands and their key output), what you could not verify, and what you changed (or "none").',
  ].join('\n');
}

export interface ForkSpecInput {
  identity: AgentIdentity;
  prompt: string;
  toolUseId: string;
  /** The session's subagent turn cap and default budget (a fork's limits). */
  limits: Pick<RunLimits, 'subagentMaxTurns' | 'subagentBudget'>;
}

/** The fork's spec: the parent's, with its own identity, the parent's messages as history and a fork's limits. */
export function forkSpec(base: ForkBase, { identity, prompt, toolUseId, limits }: ForkSpecInput): AgentSpec {
  // Spread first: anything the parent's requests carry (system prompt, web search, settings added later) stays.
  const spec: AgentSpec = { ...base.spec };
  delete spec.turnBase;
  delete spec.context;
  delete spec.color;
  delete spec.budget;
  delete spec.name;
  delete spec.segment;
  const budget = limits.subagentBudget;
  return {
    ...spec,
    identity,
    history: [...base.messages],
    prompt,
    opening: forkOpening(base.messages[base.messages.length - 1], toolUseId, prompt),
    tools: forkTools(base.tools),
    // The parent's shared tools, then its task and task_output where the parent sends them (after web search).
    sharedTools: base.spec.sharedTools ?? base.spec.tools.names().length,
    canDelegate: false,
    maxTurns: limits.subagentMaxTurns,
    toolUseId,
    modelId: base.modelId,
    agentType: FORK_AGENT_TYPE,
    fork: { agentId: base.spec.identity.agentId, messageCount: base.messages.length },
    ...(budget && Object.keys(budget).length ? { budget: { ...budget } } : {}),
  };
}

/** The fork's first message: a result for every call of the parent's last message, then its directive. */
export function forkOpening(last: MessageParam | undefined, toolUseId: string, prompt: string): MessageParam {
  const blocks: ContentBlockParam[] = last?.role === 'assistant' && Array.isArray(last.content) ? last.content : [];
  const results: ToolResultBlockParam[] = blocks.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: FORK_PLACEHOLDER_RESULT }] : []));
  return { role: 'user', content: [...results, { type: 'text', text: forkDirective(toolUseId, prompt) }] };
}

/** The parent's tools in the parent's order; the delegating ones replaced by twins with the same schema that refuse. */
export function forkTools(parentTools: ToolRegistry): ToolRegistry {
  return new ToolRegistry(
    parentTools.names().map((name) => {
      const tool = parentTools.get(name) as AnyTool;
      return DELEGATING_TOOLS.has(name) || tool.kind === 'delegate' ? refusingTwin(tool, parentTools.wasOffered(name)) : tool;
    }),
  );
}

/** `offered`: as in the parent's last request, though the fork itself is now a subagent (tools that come with one). */
function refusingTwin(tool: AnyTool, offered: boolean): Tool<unknown> {
  return {
    name: tool.name,
    offered: () => offered,
    description: tool.description,
    inputSchema: tool.inputSchema,
    kind: tool.kind,
    // Any input: the call is refused for what it is, not for how it was written.
    parse: (raw) => ({ ok: true, input: raw }),
    describe: (input) => {
      const parsed = tool.parse(input);
      return parsed.ok ? tool.describe(parsed.input) : { summary: tool.name, paths: [] };
    },
    execute: async () => ({ content: FORK_REFUSAL, isError: true }),
  };
}
