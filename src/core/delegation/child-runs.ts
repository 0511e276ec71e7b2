/**
 * A subagent's run, new or resumed, from start to the result its asker gets: one pipeline (runChild), where it
 * comes from (its origin) as data:
 *
 *   origin ─▶ its spec   task    a `task` call: an agent definition, a fresh context
 *                        fork    a `task{fork}` call: the parent's conversation so far (fork.ts)
 *                        resume  a finished child again, its whole history + a message, from its parent
 *                                (send_message) or the user (the panel's message, `--agent`): a new segment
 *          ─▶ its room (isolation: worktree: its own WORKDIR, or its isolated ancestor's; child-isolation.ts)
 *          ─▶ SubagentStart hooks ─▶ run(spec) ─▶ change manifest (footer + event) ─▶ report checked
 *          ─▶ SubagentStop hooks ─▶ its room closed (changes kept as a branch, or none) ─▶ the asker's tool_result
 *
 * A task call's child (createChildRuns, the session's Spawner declared in loop/types.ts) may then wait for the
 * host's review (the editor's opt-in `delegate.reviewSubagentResults`, child-review.ts): Accept, Edit result, or
 * Re-run with an edited prompt — a new child on the same task node; the parent gets only what the user accepted.
 * A resumed child's reply to its parent's send_message goes through the same review (reviewResult, asked by
 * subagent-directory.ts; a Re-run resumes it again with the edited message).
 * It takes the ports it reads (ChildRunPorts); the child itself runs over the session's RunPorts through `run`,
 * a function the session gives (the ports hold this spawner, so it is called only once they exist): nothing is
 * assigned in afterwards, and delegation/ never imports the loop's runAgent.
 */
import { BUILT_IN_AGENTS, DEFAULT_AGENT, DEFAULT_MODEL_ALIASES, resolveAgentModel } from '../agent-files/agent-catalog';
import { DEFAULT_PRICES, type ModelPrice } from '../loop/budget';
import { modelCapRefusal } from './model-cap';
import type { AgentDefinition } from '../agent-files/agent-definition';
import { childSpec } from './child-spec';
import { loadAgentMemory, type AgentMemory } from './agent-memory';
import type { ChangeTracker } from '../changes/change-tracker';
import type { HookRegistry } from '../policy/hooks';
import { withManifestFooter } from '../changes/change-manifest';
import type { AnyTool, ToolRegistry, ToolResult } from '../tools/types';
import { agentEmitter, type EventBus } from '../events';
import type { MessageParam } from '../llm/types';
import { FORK_AGENT_TYPE, forkSpec } from './fork';
import type { ChildRecord } from './child-records';
import { watchChildRecord } from '../report/record-watch';
import { typedOutput, type TypedOutput } from '../report/typed-output';
import type { AgentResult, AgentSpec, ChildCall, ForkBase, RunConfig, Spawner } from '../loop/types';
import type { ReviewDecision, ReviewGate, ReviewRequest } from './child-review';
import type { FanoutCaps } from './fanout-review';
import { narrowMode, type AgentIdentity, type PermissionMode } from '../vocabulary';
import { IsolationRefused, type ChildIsolation, type ChildRoom, type KeptWork } from './child-isolation';

const BUILT_INS: ReadonlyMap<string, AgentDefinition> = new Map(BUILT_IN_AGENTS.map((a) => [a.name, a]));

/** What the session's child runs read. */
export interface ChildRunPorts {
  /** Runs a child's spec over the session's RunPorts (runAgent); its controller is linked to `signal`. */
  run(spec: AgentSpec, signal: AbortSignal): Promise<AgentResult>;
  bus: EventBus;
  /** An agent id unique in the session. */
  newAgentId(): string;
  /** Agent definitions a `task` call can select (`subagent_type`); the built-ins when omitted. */
  agentDefinitions?: ReadonlyMap<string, AgentDefinition>;
  /** The folder, caps and project instructions a child's spec is built with. */
  config: Pick<RunConfig, 'workdir' | 'limits' | 'projectInstructions'>;
  /** The session's tools when the child starts (MCP tools join as their servers connect). */
  baseTools(): ToolRegistry;
  /** `sonnet` / `opus` / `haiku` → model ids, for agent definitions' `model`. */
  modelAliases?: Readonly<Record<string, string>>;
  /** SubagentStart / SubagentStop: the session's hooks (the tool calls' hooks go through the ToolGate). */
  hooks: HookRegistry;
  /** The host's review of finished children (the editor's opt-in). */
  review?: ReviewGate;
  /** What agents changed and ran: a finished child's manifest comes from it. */
  changes?: ChangeTracker;
  /** Budgets the user set on the fan-out card for calls about to start. */
  caps?: FanoutCaps;
  /** Subagents' own worktrees (`isolation: worktree`); without it every child works in the session's folder. */
  isolation?: ChildIsolation;
  /** The session's model now and the price table: what a call's own `model` is held to (model-cap.ts). */
  sessionModel?: () => string;
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Agent files' `skills:` (skills/skill-preload.ts): the instructions in the child's prompt, its allowed-tools applied. */
  skills?: ChildSkills;
  /** A fork: the skills active in its parent (their allowed-tools) are active in it, as their bodies are in its copied conversation. */
  inheritSkills?(parentId: string, forkId: string): void;
  /** Why no agent may start this agent type (a session rule `Agent(name)` denies it), if so. */
  refuses?(def: AgentDefinition): string | undefined;
  /** Installs the agent file's own hooks (`hooks`) for one run, for that agent alone: how to remove them after it. */
  agentHooks?(def: AgentDefinition, agent: AgentIdentity): Promise<(() => void) | undefined>;
  /** Whether the session's model port runs a model by that name (an agent file's `model` list: the first it knows); undefined: it cannot tell. */
  modelKnown?(modelId: string): Promise<boolean | undefined>;
  /** The user's home: where an agent file's `memory: user` folder is (~/.claude/agent-memory/<name>). */
  home?: string;
  /** Starts the agent file's own MCP servers (`mcpServers`) for one run: their tools, and how to stop them after it. */
  agentServers?(def: AgentDefinition): Promise<{ tools: AnyTool[]; close(): Promise<void> } | undefined>;
}

/** What a child whose agent file lists `skills:` starts with. */
export interface ChildSkills {
  /** The system prompt's section of the definition's skills and their names (undefined: it lists none that exist). */
  preloaded(def: AgentDefinition): { prompt: string; names: string[] } | undefined;
  /** Their allowed-tools, for this child's run. */
  activate(agentId: string, def: AgentDefinition): void;
}

/** Where a child run comes from: everything that differs between a new child and a resumed one. */
export type ChildOrigin =
  /** A `task` call's new child, from an agent definition (`agentId`: a review's re-run is a new one). */
  | { kind: 'task'; call: ChildCall; def: AgentDefinition; agentId: string; prompt: string; typed?: TypedOutput }
  /** A `task{fork: true}` call's child: the parent as its latest request had it, plus a directive. */
  | { kind: 'fork'; call: ChildCall; base: ForkBase; agentId: string; prompt: string; typed?: TypedOutput }
  /** A finished or stopped child again: the same agent id and tree node, its history plus the message, a new segment. */
  | {
      kind: 'resume';
      record: ChildRecord;
      /** The agent definition it ran (its first agent_started names it). */
      def: AgentDefinition;
      /** The mode it ran under (recorded, or rebuilt from its ancestors: subagent-directory.ts): a resume never loosens it. */
      inherited?: PermissionMode;
      /** Its conversation rebuilt from its transcript (compactions, interruptions applied), and its turns so far. */
      history: MessageParam[];
      turnBase: number;
      message: string;
      /** What it kept when it last ran isolated (its worktree is made again there). */
      kept?: KeptWork;
      /** Its parent agent (send_message) or the user (the panel, `--agent`). */
      by: 'parent' | 'user';
      /** The agent sending it (the parent), for the child's permission mode. */
      sender?: AgentIdentity;
      toToolResult(child: AgentResult, senderStopped: boolean): ToolResult;
    };

export interface ChildOutcome {
  child: AgentResult;
  /** The asker's tool_result: the report (defanged), the manifest footer, the unverified claims. */
  result: ToolResult;
}

export function agentTypesOf(ports: Pick<ChildRunPorts, 'agentDefinitions'>): ReadonlyMap<string, AgentDefinition> {
  return ports.agentDefinitions ?? BUILT_INS;
}

export function createChildRuns(ports: ChildRunPorts): Spawner {
  return {
    agentTypes: () => agentTypesOf(ports),
    defaultType: DEFAULT_AGENT,
    ...(ports.refuses ? { refuses: ports.refuses } : {}),
    newAgentId: () => ports.newAgentId(),
    run: async (call, firstId, signal) => {
      const refused = call.model ? capRefusal(call.model, call.parentModel, ports) : undefined;
      if (refused) return { content: refused, isError: true };
      const def = call.fork ? undefined : (agentTypesOf(ports).get(call.subagentType ?? DEFAULT_AGENT) ?? (BUILT_IN_AGENTS[0] as AgentDefinition));
      // A typed return: the call's schema, else its agent file's `output:` (compiled once, before the child starts).
      const schema = call.outputSchema ? { schema: call.outputSchema, source: 'output_schema' } : def?.output ? { schema: def.output, source: `the agent ${def.name}'s output: (${def.source})` } : undefined;
      const typed = schema ? await typedOutput(schema.schema, schema.source) : undefined;
      if (typed && 'error' in typed) return { content: typed.error, isError: true };
      const origin: ChildOrigin = def
        ? { kind: 'task', call, def, agentId: firstId, prompt: call.prompt, ...(typed ? { typed } : {}) }
        : { kind: 'fork', call, base: call.fork as ForkBase, agentId: firstId, prompt: call.prompt, ...(typed ? { typed } : {}) };
      return runReviewedChild(origin, ports, signal).catch((err: unknown) => {
        // Fails closed: a child that asked for a worktree and got none never ran.
        if (err instanceof IsolationRefused) return { content: err.toolResult, isError: true };
        throw err;
      });
    },
  };
}

/** Why a call's own model may not run (the session's cap, model-cap.ts), or undefined. */
function capRefusal(model: string, parentModel: string, ports: ChildRunPorts): string | undefined {
  const cap = ports.config.limits.subagentModelCap;
  return modelCapRefusal({
    // `inherit` is the parent's model, as for an agent file's `model`.
    requested: resolveAgentModel(model, parentModel, ports.modelAliases),
    cap: cap?.cap,
    sessionModel: ports.sessionModel?.() ?? '',
    aliases: ports.modelAliases ?? DEFAULT_MODEL_ALIASES,
    prices: ports.prices ?? DEFAULT_PRICES,
    settingName: cap?.setting ?? 'subagentModelCap',
  });
}

/** Runs a task call's child (again, while the review asks for a re-run: a new agent id, the edited prompt). */
async function runReviewedChild(origin: Extract<ChildOrigin, { kind: 'task' | 'fork' }>, ports: ChildRunPorts, signal: AbortSignal): Promise<ToolResult> {
  const { call } = origin;
  for (;;) {
    const { child, result } = await runChild(origin, ports, signal);
    call.onChildFinished(child, call.description);
    const { agentId, prompt } = origin;
    const reviewed = await reviewResult(ports, { agentId, parentId: call.parent.agentId, description: call.description, prompt, result: result.content, isError: result.isError === true }, result, signal);
    if (!('rerun' in reviewed)) return reviewed;
    origin = { ...origin, prompt: reviewed.rerun, agentId: ports.newAgentId() };
  }
}

/**
 * The host's review of a child's words before its parent reads them — a task call's result and a resumed child's
 * reply to send_message alike: what the user accepted or edited, or the prompt of a re-run (the caller runs it).
 */
export async function reviewResult(ports: Pick<ChildRunPorts, 'review' | 'bus'>, request: ReviewRequest, result: ToolResult, signal: AbortSignal): Promise<ToolResult | { rerun: string }> {
  const review = ports.review;
  if (!review || signal.aborted) return result;
  const { agentId, parentId } = request;
  await ports.bus.emit(agentId, parentId, { type: 'review_requested', result: result.content });
  let decision: ReviewDecision;
  try {
    decision = await review(request, signal);
  } catch {
    decision = { action: 'accept' }; // the host went away: the result stands as it was
  }
  await ports.bus.emit(agentId, parentId, { type: 'review_resolved', action: decision.action });
  if (decision.action === 'accept') return result;
  if (decision.action === 'edit') return { content: `${decision.result}\n[This result was edited by the user before it reached you.]` };
  return { rerun: decision.prompt };
}

/** The one pipeline of a child's run, new or resumed (see the top of this file). */
export async function runChild(origin: ChildOrigin, ports: ChildRunPorts, signal: AbortSignal): Promise<ChildOutcome> {
  const { room, own } = await roomOf(origin, ports);
  // Its file's own MCP servers run for this run only: started before it, stopped after it however it ends.
  // Only awaited when the file has them: a background child's agent_started should come before its task call's end
  // (the view also copes when it does not: a worktree is awaited), so the path of an agent without them gains no await.
  const servers = origin.kind !== 'fork' && origin.def.mcpServers && ports.agentServers ? await ports.agentServers(origin.def) : undefined;
  try {
    // Its `memory` folder (the session's folder's, not a worktree's): its head in the prompt, and the three tools
    // that reach it (agent-memory.ts).
    const memory = origin.kind !== 'fork' && origin.def.memory && ports.home !== undefined ? await loadAgentMemory(origin.def, ports.config.workdir, ports.home) : undefined;
    return await runChildWith(origin, ports, signal, { room, own }, [...(servers?.tools ?? []), ...(memory?.tools ?? [])], memory);
  } finally {
    await servers?.close();
  }
}

type Rooms = { room?: ChildRoom; own?: ChildRoom };

async function runChildWith(origin: ChildOrigin, ports: ChildRunPorts, signal: AbortSignal, rooms: Rooms, ownTools: readonly AnyTool[], memory: AgentMemory | undefined): Promise<ChildOutcome> {
  const base = specOf(origin, ports, rooms.room, ownTools);
  const built = origin.kind === 'task' && origin.def.fallbackModels?.length ? await withListedModel(base, origin, ports) : base;
  const spec = memory ? { ...built, systemPrompt: `${built.systemPrompt}\n\n${memory.prompt}`, memory: memory.note } : built;
  // Its file's own hooks: this agent's events only, from its SubagentStart to its SubagentStop.
  const removeHooks = origin.kind !== 'fork' && origin.def.hooks && ports.agentHooks ? await ports.agentHooks(origin.def, spec.identity) : undefined;
  try {
    return await runSpec(origin, ports, signal, spec, rooms);
  } finally {
    removeHooks?.();
  }
}

async function runSpec(origin: ChildOrigin, ports: ChildRunPorts, signal: AbortSignal, spec: AgentSpec, { room, own }: Rooms): Promise<ChildOutcome> {
  const { identity } = spec;
  const emit = agentEmitter(ports.bus, identity.agentId, identity.parentId);
  // Skills it starts with (its agent file's `skills:`): said by its parent, as nothing of the child exists yet.
  const skills = origin.kind === 'task' ? ports.skills?.preloaded(origin.def)?.names : undefined;
  if (origin.kind === 'task' && skills?.length) {
    const { call, def } = origin;
    await ports.bus.emit(call.parent.agentId, call.parent.parentId, { type: 'notice', level: 'info', text: `subagent ${identity.agentId} (${def.name}) starts with its skills loaded: ${skills.join(', ')}`, source: def.source });
  }
  // Its own room is checked out while its first request goes out (its prompt reads nothing from the folder): its
  // SubagentStart hooks (they run in its WORKDIR) and its tools wait for the room; the first request does not.
  const starting = own ? own.ready.then(() => ports.hooks.runSubagentStart({ agent: identity, prompt: spec.prompt })) : undefined;
  const hookFailures = starting ? [] : await ports.hooks.runSubagentStart({ agent: identity, prompt: spec.prompt });
  // The child's controller is made by the agent registry, linked to `signal`: the call's step, or the
  // asker's own signal for a background child (which outlives the call).
  const watch = watchChildRecord(ports.bus, identity.agentId);
  let child: AgentResult;
  try {
    const workdirReady = starting?.then(() => undefined);
    workdirReady?.catch(() => undefined); // read after the run (own.ready) whether or not the run got to it
    child = await ports.run(workdirReady ? { ...spec, workdirReady } : spec, signal).finally(() => watch.stop());
  } catch (err) {
    // Nothing left behind: its room is closed (what it changed kept) however the run ended.
    await own?.close(identity.description ?? identity.agentId).catch(() => undefined);
    throw err;
  }
  if (own) {
    // A room that could not be made: the child ran nothing (its request in flight was aborted) and ends refused, as
    // one refused before it started; what was half made is gone.
    const refused = await own.ready.then(() => undefined, (err: unknown) => err);
    if (refused !== undefined) {
      await own.close(identity.description ?? identity.agentId).catch(() => undefined);
      throw refused;
    }
    hookFailures.push(...(await (starting as Promise<string[]>)));
  }
  // The harness, not the child's prose, says what changed: a footer on the result, an event for the hosts
  // (a resumed child's manifest is its whole one, every segment).
  const changes = await (room?.changes ?? ports.changes)?.manifestOf(identity.agentId);
  if (changes) {
    child.changes = changes;
    await emit({ type: 'change_manifest', ...changes });
  }
  // Its report, held to what it did in this run (and defanged) before the asker or the summary sees it.
  const watched = (path: string): boolean => (room?.changes ?? ports.changes)?.watches(path) ?? false;
  // Loaded on the first report: the checker's and the guard's Unicode patterns cost the start ~2 ms to compile.
  const { checkChildReport, withReportNotes } = await import('../report/child-report');
  const checked = await checkChildReport(child, { calls: watch.stop(), ...(changes ? { manifest: changes } : {}), workdir: room?.workdir ?? ports.config.workdir, watched }, emit);
  hookFailures.push(...(await ports.hooks.runSubagentStop({ agent: identity, status: child.status, result: child.result, turns: child.turns })));
  for (const failure of hookFailures) await emit({ type: 'error', message: `hook failed: ${failure}`, retrying: false });
  const toToolResult = origin.kind === 'resume' ? origin.toToolResult : origin.call.toToolResult;
  const result = withReportNotes(withManifestFooter(toToolResult(child, signal.aborted), changes), checked);
  const kept = await own?.close(identity.description ?? identity.agentId).catch((err: unknown) => `[Its worktree could not be closed: ${err instanceof Error ? err.message : String(err)}]`);
  return { child, result: kept ? { ...result, content: `${result.content}\n${kept}` } : result };
}

/**
 * Where the child works: its isolated ancestor's room (whatever it asks), a room of its own when its call, else its
 * agent file, else the session asks for a worktree (IsolationRefused when none can be made), else the session's folder.
 */
async function roomOf(origin: ChildOrigin, ports: ChildRunPorts): Promise<{ room?: ChildRoom; own?: ChildRoom }> {
  const isolation = ports.isolation;
  const agentId = origin.kind === 'resume' ? origin.record.id : origin.agentId;
  const parentId = origin.kind === 'resume' ? origin.record.parentId : origin.call.parent.agentId;
  // A resolver always works in a room of its own: the live tree with the conflicting child's changes merged in.
  const resolves = origin.kind === 'task' ? origin.call.resolves : undefined;
  if (resolves) {
    if (!isolation) throw new IsolationRefused('this host cannot give a subagent a worktree');
    const own = await isolation.open(agentId, parentId, ports.config.workdir, undefined, resolves);
    return { room: own, own };
  }
  const inherited = parentId ? isolation?.roomOf(parentId) : undefined;
  if (inherited) {
    isolation?.join(agentId, inherited);
    return { room: inherited };
  }
  const kept = origin.kind === 'resume' ? origin.kept : undefined;
  const resumedIsolated = kept !== undefined || (origin.kind === 'resume' && isolation?.kept(agentId) === true);
  const asked = resumedIsolated ? 'worktree' : (origin.kind === 'resume' ? undefined : origin.call.isolation) ?? (origin.kind === 'fork' ? undefined : origin.def.isolation) ?? isolation?.mode ?? 'shared';
  if (asked === 'shared') return {};
  if (!isolation) throw new IsolationRefused('this host cannot give a subagent a worktree');
  const own = await isolation.open(agentId, parentId, ports.config.workdir, kept);
  return { room: own, own };
}

/**
 * Copilot's `model: [A, B, …]`: the first the model port knows runs (the spec has A); none known: the parent's model,
 * as Copilot falls back to the picker's; a port that cannot tell: A, as before. A resume keeps the model it ran on.
 */
async function withListedModel(spec: AgentSpec, origin: ChildOrigin, ports: ChildRunPorts): Promise<AgentSpec> {
  if (origin.kind !== 'task' || !origin.def.fallbackModels?.length || !ports.modelKnown || !origin.def.model) return spec;
  for (const name of [origin.def.model, ...origin.def.fallbackModels]) {
    const id = resolveAgentModel(name, origin.call.parentModel, ports.modelAliases);
    const known = await ports.modelKnown(id);
    if (known === undefined) return spec;
    if (known) return { ...spec, modelId: id };
  }
  return { ...spec, modelId: origin.call.parentModel };
}

/** The child's spec: where the origins differ (`room`: its own WORKDIR and the tools made over it). */
function specOf(origin: ChildOrigin, sessionPorts: ChildRunPorts, room: ChildRoom | undefined, ownTools: readonly AnyTool[] | undefined): AgentSpec {
  const ports: ChildRunPorts = room ? { ...sessionPorts, config: { ...sessionPorts.config, workdir: room.workdir }, baseTools: () => room.tools() } : sessionPorts;
  const aliases = { ...(ports.modelAliases ? { modelAliases: ports.modelAliases } : {}), ...(ownTools?.length ? { ownTools } : {}) };
  switch (origin.kind) {
    case 'task': {
      const { call, def, agentId, prompt } = origin;
      // A defined agent may narrow the mode.
      const identity = childIdentity(agentId, call.parent, call.description, narrowMode(call.parent.mode, def.permissionMode), def.name);
      const shape = { ...(call.model ? { model: call.model } : {}), ...(call.effort ? { effort: call.effort } : {}) };
      const built = childSpec({ def, identity, prompt, toolUseId: call.toolUseId, parentModel: call.parentModel, config: ports.config, baseTools: ports.baseTools(), ...aliases, ...(Object.keys(shape).length ? { asked: shape } : {}), ...preloadedFor(ports, def, agentId) });
      return typedSpec(named(capped(built, call.toolUseId, ports.caps), call.name), origin.typed);
    }
    case 'fork': {
      const { call, agentId, prompt } = origin;
      // A fork runs as its parent does (same mode).
      const identity = childIdentity(agentId, call.parent, call.description, call.parent.mode, FORK_AGENT_TYPE);
      ports.inheritSkills?.(call.parent.agentId, agentId);
      const built = forkSpec(origin.base, { identity, prompt: origin.typed ? `${prompt}${origin.typed.promptNote}` : prompt, toolUseId: call.toolUseId, limits: ports.config.limits });
      // Its parent's spec is spread into it: a typed parent's check is not the fork's.
      delete built.output;
      return typedSpec(named(capped(built, call.toolUseId, ports.caps), call.name), origin.typed, false);
    }
    case 'resume': {
      const { record: r, def } = origin;
      const { started } = r;
      // The mode it ran under, narrowed further by the sender's (a parent now in a stricter mode) and its file's.
      const mode = narrowMode(narrowMode(origin.inherited, origin.sender?.mode), def.permissionMode);
      const identity: AgentIdentity = { agentId: r.id, parentId: r.parentId, depth: started.depth, description: r.description, ...(mode ? { mode } : {}), agentType: started.agentType ?? def.name };
      return {
        ...childSpec({ def, identity, prompt: resumeMessage(r, origin.by, origin.message), toolUseId: started.toolUseId ?? `agent:${r.id}`, parentModel: started.model, config: ports.config, baseTools: ports.baseTools(), ...aliases, ...(started.tools ? { ranWith: started.tools } : {}), ...preloadedFor(ports, def, r.id) }),
        history: origin.history,
        turnBase: origin.turnBase,
        modelId: started.model,
        ...(r.name ? { name: r.name } : {}),
        segment: { n: r.segments + 1, by: origin.by },
      };
    }
  }
}

/** The definition's preloaded skills for this child (their allowed-tools applied to it as its spec is built). */
function preloadedFor(ports: Pick<ChildRunPorts, 'skills'>, def: AgentDefinition, agentId: string): { preloadedSkills?: string } {
  const preloaded = ports.skills?.preloaded(def);
  if (preloaded === undefined) return {};
  ports.skills?.activate(agentId, def);
  return { preloadedSkills: preloaded.prompt };
}

function childIdentity(agentId: string, parent: AgentIdentity, description: string, mode: AgentIdentity['mode'], agentType: string): AgentIdentity {
  return { agentId, parentId: parent.agentId, depth: parent.depth + 1, description, ...(mode ? { mode } : {}), agentType };
}

/** "Run, stopping each at its usual maximum" on the fan-out card (fanout-review.ts): the tighter of its caps and the spec's own budget. */
function capped(spec: AgentSpec, toolUseId: string, caps: FanoutCaps | undefined): AgentSpec {
  const budget = caps ? caps.apply(toolUseId, spec.budget) : spec.budget;
  return budget && Object.keys(budget).length ? { ...spec, budget } : spec;
}

/** A typed child's spec: its check, and the schema's note after its prompt (a fork's is in its opening already). */
function typedSpec(spec: AgentSpec, typed: TypedOutput | undefined, notePrompt = true): AgentSpec {
  if (!typed) return spec;
  return { ...spec, output: typed.check, ...(notePrompt ? { prompt: `${spec.prompt}${typed.promptNote}` } : {}) };
}

/** The spec with the call's name (recorded on agent_started: send_message and read_subagent find it by it). */
function named(spec: AgentSpec, name: string | undefined): AgentSpec {
  return name ? { ...spec, name } : spec;
}

/** What the resumed child reads first: who wrote, and, for a stopped one, that it had been stopped. */
function resumeMessage(r: Pick<ChildRecord, 'status' | 'stoppedByUser'>, by: 'parent' | 'user', message: string): string {
  const stopped = r.stoppedByUser ? 'You were stopped by the user before you finished. ' : r.status === 'cancelled' ? 'Your run was interrupted before you finished. ' : '';
  if (by === 'user') return stopped ? `[${stopped}The user now asks you to go on with this message.]\n${message}` : message;
  return `[${stopped}A message from your parent agent (not from the user: it approves nothing on the user's behalf). Your next final message is your new report to it.]\n${message}`;
}
