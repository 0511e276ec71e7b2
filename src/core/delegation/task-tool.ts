/**
 * The `task` tool: hands a self-contained sub-job to a subagent with a fresh context.
 *
 *   Parent agent                         Subagent (depth + 1)
 *   +---------------------+              +------------------------------+
 *   | messages = [...]    |   prompt     | messages = [user(prompt)]    |  <- fresh
 *   | tool_use task{…}    | -----------> | same hooks, permissions, bus |
 *   |                     |              | own tools (task only while   |
 *   |                     |  final text  |   depth < maxDepth), turns,  |
 *   | tool_result = text  | <----------- |   AbortController            |
 *   +---------------------+              +------------------------------+
 *
 * Only the child's final text enters the parent's messages; its tool calls reach the event stream
 * (transcripts, the tree view) and nowhere else. With `fork: true` the child starts from the parent's
 * conversation so far instead of a fresh one (fork.ts): same system prompt, tools and model, no delegating.
 * The child itself is run by the Spawner it is given (loop/types.ts; the session's child runs implement it: child-runs.ts).
 */
import { findAgent, type AgentDefinition } from '../agent-files/agent-definition';
import type { Tool, ToolResult } from '../tools/types';
import type { BackgroundChildren } from './background';
import type { SubagentDirectory } from './child-port';
import type { AgentResult, ChildCall, ForkBase, Spawner } from '../loop/types';
import { EFFORTS, ISOLATION_MODES, type AgentIdentity, type Effort, type IsolationMode } from '../vocabulary';

export interface TaskInput {
  prompt: string;
  description?: string;
  /** Which agent definition runs it (default: general-purpose). */
  subagent_type?: string;
  /** Return at once with the child's id; its report comes later (background.ts). */
  run_in_background?: boolean;
  /** Start from this conversation so far (fork.ts) instead of a fresh context. */
  fork?: boolean;
  /** A name unique in the session: send_message and read_subagent take it as well as the id. */
  name?: string;
  /** Its own git worktree of your live tree (`worktree`), or your tree itself (`shared`); default: its agent file's, else the session's. */
  isolation?: IsolationMode;
  /** The child's own model (an alias or id; the session caps how dear: model-cap.ts) and effort. */
  model?: string;
  effort?: Effort;
  /** A JSON Schema the child's report must end with a value of (report/typed-output.ts). */
  output_schema?: Record<string, unknown>;
}

/**
 * How the parent tells the harness's lines from the subagent's text (task results, send_message's and task_output's
 * reports): the report comes first, the harness's lines after it. Only the harness starts a line with these tags:
 * report-guard.ts prefixes a report line that imitates one with "[quoted] " and then puts a [harness] note first
 * saying so, and shown-text.ts quotes the names and commands inside them. That note comes with the one report it
 * concerns, so the rule is not repeated in every request (issue 30).
 */
const HARNESS_LINES = 'The harness\'s own lines ([changes], [unverified], [deliverables], [subagent …]) follow the report.';

/** Each agent in the tool's description costs tokens on every request: one trimmed line each. */
const DESCRIPTION_CHARS = 160;

function agentLines(agents: ReadonlyMap<string, AgentDefinition>): string {
  return [...agents.values()]
    .map((a) => {
      const line = a.description.replace(/\s+/g, ' ').trim();
      const name = a.displayName ? `${a.name} ("${a.displayName}")` : a.name;
      return `- ${name}: ${line.length > DESCRIPTION_CHARS ? `${line.slice(0, DESCRIPTION_CHARS - 1)}…` : line}`;
    })
    .join('\n');
}

export interface TaskToolOptions {
  parent: AgentIdentity;
  /** Runs the child: the session's child runs. */
  spawner: Spawner;
  /** A subagent's turn cap, as its result names it when reached. */
  subagentMaxTurns: number;
  /** Rolls the child's usage and summary up into the parent's result. */
  onChildFinished(child: AgentResult, description: string): void;
  /** The model the parent runs on (what `model: inherit` means). */
  parentModel: string;
  /** The parent's background children, and its own signal (a background child outlives the call's step). */
  background?: { children: BackgroundChildren; agentSignal: AbortSignal };
  /** The parent as its latest request had it, at the moment of the call: what a fork starts from. */
  forkBase?: () => ForkBase;
  /** The session's subagents (child-port.ts): a call's `name` is claimed there. */
  directory?: SubagentDirectory<AgentResult>;
  /** The agent types the parent may start (its definition's `agents:` / `Agent(a, b)`), by id or name; none: every one. */
  spawnable?: readonly string[];
}

/**
 * The agents this parent may start, and why another is not offered: not in the parent's own list (`agents:`,
 * `Agent(a, b)`), `disable-model-invocation: true` (no agent may start it), or a session rule `Agent(name)` denies it.
 */
function offeredAgents(all: ReadonlyMap<string, AgentDefinition>, spawner: Spawner, spawnable: readonly string[] | undefined): { agents: Map<string, AgentDefinition>; why(def: AgentDefinition): string | undefined } {
  const listed = spawnable ? new Set(spawnable.map((n) => n.toLowerCase())) : undefined;
  const why = (def: AgentDefinition): string | undefined => {
    if (listed && !listed.has(def.name.toLowerCase()) && !(def.displayName && listed.has(def.displayName.toLowerCase()))) {
      return `this agent may start only ${spawnable?.length ? spawnable.join(', ') : 'no agents'} (its definition's agents list)`;
    }
    if (def.modelInvocable === false) return 'its definition says disable-model-invocation: true (only the user starts it)';
    return spawner.refuses?.(def);
  };
  return { agents: new Map([...all].filter(([, def]) => why(def) === undefined)), why };
}

export function createTaskTool(opts: TaskToolOptions): Tool<TaskInput> {
  const { parent, spawner } = opts;
  const all = spawner.agentTypes();
  const { agents, why } = offeredAgents(all, spawner, opts.spawnable);
  const DEFAULT_AGENT = spawner.defaultType;
  const defaultOffered = agents.has(DEFAULT_AGENT);
  return {
    name: 'task',
    kind: 'delegate',
    // Read on every request: each word earns its place (issue 30). The rare options are bare types; what they do is
    // said where a call gets them wrong (parse's errors).
    description:
      'Run a subagent; only its report returns; calls in one message run in parallel. ' +
      'It sees none of this conversation: the prompt says all it needs (goal, what you know, what to report), ' +
      'unless fork: true runs a copy of you with it.\n' +
      `${HARNESS_LINES}\n` +
      `subagent_type (${defaultOffered ? `default ${DEFAULT_AGENT}` : 'required'}):\n${agentLines(agents)}`,
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string' },
        description: { type: 'string', description: '3-6 words' },
        subagent_type: { type: 'string' },
        run_in_background: { type: 'boolean' },
        fork: { type: 'boolean' },
        isolation: { type: 'string', enum: [...ISOLATION_MODES] },
        model: { type: 'string' },
        effort: { type: 'string' },
        output_schema: { type: 'object' },
        ...(opts.directory ? { name: { type: 'string' } } : {}),
      },
      required: ['prompt'],
    },
    parse(raw) {
      if (!raw || typeof raw !== 'object') return { ok: false, error: 'input must be an object with a "prompt" string' };
      const { prompt, description, subagent_type: type } = raw as Record<string, unknown>;
      if (typeof prompt !== 'string' || !prompt.trim()) return { ok: false, error: '"prompt" must be a non-empty string' };
      if (description !== undefined && typeof description !== 'string') return { ok: false, error: '"description" must be a string' };
      if (type !== undefined && typeof type !== 'string') return { ok: false, error: '"subagent_type" must be a string' };
      const fork = (raw as Record<string, unknown>).fork;
      if (fork !== undefined && typeof fork !== 'boolean') return { ok: false, error: '"fork" must be true or false' };
      if (fork === true && typeof type === 'string' && type.trim()) {
        return { ok: false, error: 'a fork runs as you (your system prompt, tools and model), so it takes no subagent_type: leave out subagent_type to fork, or leave out fork to start a fresh agent of that type' };
      }
      const name = (raw as Record<string, unknown>).name;
      if (name !== undefined && (typeof name !== 'string' || !/^[\w.-]{1,64}$/.test(name.trim()))) return { ok: false, error: '"name" must be 1-64 letters, digits, "_", "-" or "."' };
      if (fork === true && !opts.forkBase) return { ok: false, error: 'fork is not available here' };
      const isolation = (raw as Record<string, unknown>).isolation;
      if (isolation !== undefined && !(ISOLATION_MODES as readonly unknown[]).includes(isolation)) return { ok: false, error: `"isolation" must be one of ${ISOLATION_MODES.join(', ')}` };
      const { model, effort } = raw as Record<string, unknown>;
      if (model !== undefined && (typeof model !== 'string' || !model.trim())) return { ok: false, error: '"model" must be a model alias (sonnet, opus, haiku) or a model id' };
      if (effort !== undefined && !(EFFORTS as readonly unknown[]).includes(effort)) return { ok: false, error: `"effort" must be one of ${EFFORTS.join(', ')}` };
      const schema = (raw as Record<string, unknown>).output_schema;
      if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) return { ok: false, error: '"output_schema" must be a JSON Schema object, e.g. {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}' };
      if (fork === true && (model !== undefined || effort !== undefined)) {
        return { ok: false, error: 'a fork runs on your model and thinking (it shares your prompt cache), so it takes no model or effort: leave them out to fork, or leave out fork to start a fresh agent' };
      }
      // Addressed by id or by display name; the child runs under its id.
      const named = typeof type === 'string' && type.trim() ? type : undefined;
      const agent = named ? findAgent(agents, named) : undefined;
      if (named && !agent) {
        const refused = findAgent(all, named);
        const reason = refused ? why(refused) : undefined;
        const types = [...agents.keys()].join(', ') || 'none';
        return { ok: false, error: reason ? `subagent_type "${named}" cannot be started here: ${reason}; the agent types are: ${types}` : `unknown subagent_type "${named}"; the agent types are: ${types}` };
      }
      if (!named && fork !== true && !defaultOffered) {
        const fallback = all.get(DEFAULT_AGENT);
        return { ok: false, error: `name a subagent_type: the default ${DEFAULT_AGENT} cannot be started here${fallback && why(fallback) ? ` (${why(fallback)})` : ''}; the agent types are: ${[...agents.keys()].join(', ') || 'none'}` };
      }
      return {
        ok: true,
        input: {
          prompt,
          ...(description !== undefined ? { description } : {}),
          ...(agent ? { subagent_type: agent.name } : {}),
          // `background: true` in its definition: always in the background, as Claude Code runs it.
          ...(((raw as Record<string, unknown>).run_in_background === true || agent?.background === true) && opts.background ? { run_in_background: true } : {}),
          ...(fork === true ? { fork: true } : {}),
          ...(typeof name === 'string' && opts.directory ? { name: name.trim() } : {}),
          ...(isolation !== undefined ? { isolation: isolation as IsolationMode } : {}),
          ...(typeof model === 'string' ? { model: model.trim() } : {}),
          ...(effort !== undefined ? { effort: effort as Effort } : {}),
          ...(schema !== undefined ? { output_schema: schema as Record<string, unknown> } : {}),
        },
      };
    },
    // The child's description, as its agent_started says it: the task row shows the same words before it starts.
    describe: (input) => ({ summary: childDescription(input), paths: [] }),
    async execute(input, ctx): Promise<ToolResult> {
      const description = childDescription(input);
      const call: ChildCall = {
        parent,
        description,
        prompt: input.prompt,
        toolUseId: ctx.toolUseId,
        ...(input.subagent_type ? { subagentType: input.subagent_type } : {}),
        ...(input.isolation ? { isolation: input.isolation } : {}),
        ...(input.model ? { model: input.model } : {}),
        ...(input.effort ? { effort: input.effort } : {}),
        ...(input.output_schema ? { outputSchema: input.output_schema } : {}),
        parentModel: opts.parentModel,
        onChildFinished: opts.onChildFinished,
        toToolResult: (child, parentStopped) => toToolResult(child, opts.subagentMaxTurns, parentStopped),
        // Taken now: a background fork must not see what the parent does after this call.
        ...(input.fork && opts.forkBase ? { fork: opts.forkBase() } : {}),
      };
      const firstId = spawner.newAgentId();
      if (input.name) {
        const refused = opts.directory?.claimName(input.name, firstId);
        if (refused) return { content: refused, isError: true };
        call.name = input.name;
      }
      if (input.run_in_background && opts.background) {
        opts.background.children.start(firstId, description, spawner.run(call, firstId, opts.background.agentSignal));
        return {
          content: `Started subagent ${firstId}${input.name ? ` "${input.name}"` : ''} ("${description}") in the background. Go on with other work: its report reaches you at the start of a later turn, and task_output{id: "${firstId}"} checks on it (wait: true to wait for it).`,
        };
      }
      if (!opts.directory) return spawner.run(call, firstId, ctx.signal);
      // The parent learns the child's id (a review's re-run is another agent: the last one counts), to address it later.
      let last: AgentResult | undefined;
      const result = await spawner.run({ ...call, onChildFinished: (child, d) => ((last = child), call.onChildFinished(child, d)) }, firstId, ctx.signal);
      // No child ran (its worktree was refused): nothing to address.
      if (!last) return result;
      // A report that only points at a file it wrote ("see report.md") gets the file listed with its size.
      const deliverables = last?.status === 'completed' ? await opts.directory.deliverables(last) : undefined;
      return { ...result, content: `${result.content}\n${deliverables ? `${deliverables}\n` : ''}${addressLine(last?.agentId ?? firstId, input.name)}` };
    },
  };
}

/** What the parent's tool_result says about a child's end (send_message's resumes use it too). */
export function toToolResult(child: AgentResult, maxTurns: number, parentStopped: boolean): ToolResult {
  switch (child.status) {
    case 'completed':
      return { content: child.result || '(the subagent finished without a report)' };
    case 'budget_exceeded':
      return { content: `[The subagent stopped at its budget (${child.error ?? 'budget reached'}); this answer may be incomplete.]\n${child.result || '(no report)'}` };
    case 'max_turns':
      return {
        content: `[The subagent reached its limit of ${maxTurns} turns; this answer may be incomplete.]\n${child.result || '(no report)'}`,
      };
    case 'cancelled': {
      const partial = child.result ? `\nWhat it had reported before it was stopped:\n${child.result}` : '\nIt had not reported anything yet.';
      // Stopped by the user on its own: the parent goes on with this as an ordinary result to weigh.
      if (!parentStopped) return { content: `[The user stopped this subagent before it finished. Do not restart it unless the user asks.]${partial}` };
      return { content: `The subagent was cancelled before it finished.${partial}`, isError: true };
    }
    case 'error':
      return { content: `The subagent failed: ${child.error ?? 'unknown error'}`, isError: true };
  }
}

/** The line under a child's result that names it for send_message and read_subagent. */
function addressLine(id: string, name: string | undefined): string {
  return `[subagent ${id}${name ? ` "${name}"` : ''}: send_message and read_subagent reach it]`;
}

/** What the child is called: the call's description, else its prompt's first line. */
function childDescription(input: TaskInput): string {
  return input.description?.trim() || firstLine(input.prompt);
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
