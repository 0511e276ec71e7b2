/**
 * One agent run's state, in one object that the loop's steps (loop.ts) read and change, instead of closures
 * over shared locals:
 *
 *   RunState ── wiring        spec, ports, this agent's model access and compaction deps, its tools (with `task`
 *            │                below max depth), the tool calls' scope, emit, signal, one signal per step
 *            ── conversation  messages (what the next request holds) and the meter measuring them
 *            ── progress      turns, tool calls, continuations of a cut answer, Stop-hook notes, the inbox (send_message)
 *            ── spend         usage (the registry's live counter), cost, the budget hit and the time budget's clock
 *            └─ children      finished subagents (rolled up) and background ones (still running)
 *
 * Its methods are the small moves every step shares: say a message, compact, deliver background reports,
 * finish (the one way a run ends: agent_finished and the AgentResult).
 */
import { agentEmitter, type AgentEmit } from '../events';
import { errorText } from '../errors';
import type { MessageParam } from '../llm/types';
import type { ToolRegistry } from '../tools/types';
import type { RunningAgent } from './agent-registry';
import { BackgroundChildren } from '../delegation/background';
import { compactIfNeeded, type CompactionDeps, type CompactionTrigger } from './compact-if-needed';
import { ContextMeter, estimateTextTokens } from './context-size';
import { promptMessage } from './conversation';
import { LoopGuard } from './loop-guard';
import { summarize } from './message-parts';
import { StepSignals } from './step-signals';
import { createTaskTool, toToolResult } from '../delegation/task-tool';
import { delegationTools, mergeSummary, takeInbox } from '../delegation/child-tools';
import { createLandTool } from '../delegation/land-tool';
import type { ToolCallScope } from './tool-executor';
import type { AgentResult, AgentSpec, ForkBase, ModelAccess, RunPorts, SubagentSummary } from './types';
import { addUsage, type AgentIdentity, type AgentStatus, type Usage } from '../vocabulary';

export class RunState {
  readonly identity: AgentIdentity;
  readonly signal: AbortSignal;
  readonly started: number;
  readonly emit: AgentEmit;
  /** The registry's live counter: own usage plus finished descendants'. */
  readonly usage: Usage;
  readonly subagents: SubagentSummary[] = [];
  costUsd: number | undefined;
  readonly background = new BackgroundChildren();
  /** The agent's tools as its requests send them (`task` and `task_output` added below max depth). */
  readonly tools: ToolRegistry;
  readonly scope: ToolCallScope;
  /** One signal per step; a wall-clock budget aborts the step it runs out in (budget.ts). */
  readonly steps: StepSignals;
  budgetHit: string | undefined;
  readonly guard = new LoopGuard();
  readonly messages: MessageParam[];
  turns = 0;
  toolCalls = 0;
  continuations = 0;
  stopNotes = 0;
  /** Times a typed agent was asked again for a value that validates (once at most). */
  outputRetries = 0;
  /** The parts of an answer cut by the output limit so far (joined when it ends). */
  cutAnswer = '';
  /** Why its WORKDIR could not be made (spec.workdirReady rejected): the run ends with it. */
  workdirFailed: string | undefined;
  private readonly clock: ReturnType<typeof setTimeout> | undefined;
  private readonly fixedTokens: number;
  private readonly meter: ContextMeter;

  constructor(
    readonly spec: AgentSpec,
    readonly ports: RunPorts,
    readonly live: RunningAgent,
    /** This agent's model access (its own model id and thinking). */
    readonly model: ModelAccess,
    private readonly compaction: CompactionDeps,
  ) {
    this.identity = spec.identity;
    this.signal = live.signal;
    this.started = live.startedAt;
    this.emit = agentEmitter(ports.bus, this.identity.agentId, this.identity.parentId);
    this.usage = live.usage;
    const { limits } = ports.config;
    this.tools =
      this.identity.depth < limits.maxDepth && spec.canDelegate !== false
        ? spec.tools.with(
            createTaskTool({
              parent: this.identity,
              spawner: ports.spawner,
              ...(spec.spawnable ? { spawnable: spec.spawnable } : {}),
              subagentMaxTurns: limits.subagentMaxTurns,
              onChildFinished: (child, description) => this.onChildFinished(child, description),
              parentModel: model.modelId,
              background: { children: this.background, agentSignal: this.signal },
              // A fork's `task` call starts from this agent's conversation as it is at that call (fork.ts).
              forkBase: () => this.forkBase(),
              ...(ports.children ? { directory: ports.children } : {}),
            }),
            // The main agent lands its isolated subagents' work (a write: the permission check asks). Offered from the
            // start where it is offered at all: before the tools that come with a first subagent, so the cache stays put.
            ...(ports.steward && this.identity.depth === 0
              ? [createLandTool({ parent: this.identity, steward: ports.steward, spawner: ports.spawner, parentModel: model.modelId, onChildFinished: (child, description) => this.onChildFinished(child, description), toToolResult: (child, stopped) => toToolResult(child, limits.subagentMaxTurns, stopped) })]
              : []),
            // Offered once this agent has a subagent (and from then on, so the tool list, and the cache, stay put).
            ...[
              this.background.tool(),
              ...delegationTools(ports, {
                sender: this.identity,
                onChildFinished: (child, description) => this.onChildFinished(child, description),
                toToolResult: (child, stopped) => toToolResult(child, limits.subagentMaxTurns, stopped),
                background: { children: this.background, agentSignal: this.signal },
              }),
            ].map((tool) => ({ ...tool, offered: () => this.background.started > 0 || (ports.children?.childrenOf(this.identity.agentId).length ?? 0) > 0 })),
          )
        : spec.tools;
    this.scope = { identity: this.identity, tools: this.tools, gate: ports.gate, outputs: ports.outputs, limits, ...(ports.fanout ? { fanout: ports.fanout } : {}), emit: this.emit, signal: this.signal };
    this.steps = new StepSignals(this.signal);
    this.clock = spec.budget?.seconds !== undefined
      ? setTimeout(() => {
          this.budgetHit ??= `time budget of ${spec.budget?.seconds} s reached`;
          this.steps.abortCurrent();
        }, Math.max(0, (spec.budget.seconds ?? 0) * 1000 - (Date.now() - this.started)))
      : undefined;
    // A WORKDIR that fails while the first request is in flight: that request is aborted, nothing acts on it.
    spec.workdirReady?.catch((err: unknown) => {
      this.workdirFailed = errorText(err);
      this.steps.abortCurrent();
    });
    this.messages = [...spec.history, spec.opening ?? promptMessage(spec.prompt, spec.context, spec.images)];
    this.fixedTokens = estimateTextTokens(spec.systemPrompt) + estimateTextTokens(JSON.stringify(this.tools.schemas()));
    this.meter = new ContextMeter(this.fixedTokens);
  }

  get modelId(): string {
    return this.model.modelId;
  }

  addCost(c: number | undefined): void {
    if (c !== undefined) this.costUsd = (this.costUsd ?? 0) + c;
  }

  /** Rolls a child's usage, cost and summary up into this agent's result. */
  private onChildFinished(child: AgentResult, description: string): void {
    addUsage(this.usage, child.usage);
    this.addCost(child.costUsd);
    // A resumed child (send_message) is one entry, its segments added up.
    for (const sub of [...child.subagents, summarize(child, this.identity.agentId, description)]) mergeSummary(this.subagents, sub);
  }

  private forkBase(): ForkBase {
    return { spec: this.spec, tools: this.tools, messages: [...this.messages], modelId: this.modelId };
  }

  /** Resolves once its WORKDIR is verified (at once when it was ready); throws its failure, or when the run is stopped meanwhile. */
  async workdirVerified(): Promise<void> {
    const ready = this.spec.workdirReady;
    if (!ready) return;
    const signal = this.signal;
    await new Promise<void>((resolve, reject) => {
      const stopped = (): void => reject(new Error('stopped while its folder was being made'));
      if (signal.aborted) return stopped();
      signal.addEventListener('abort', stopped, { once: true });
      ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', stopped));
    });
  }

  /** Appends a message to the conversation and says so (a `message` event). */
  async say(message: MessageParam): Promise<void> {
    this.messages.push(message);
    await this.emit({ type: 'message', message });
  }

  /** Reports of background children that finished since the last turn, as a note before the next request. */
  async deliverBackground(): Promise<void> {
    const note = this.background.takeFinished();
    if (note) await this.say({ role: 'user', content: [{ type: 'text', text: note }] });
  }

  /** Messages sent to this agent while it runs (send_message: steering), as a user message before the next request. */
  async deliverInbox(): Promise<void> {
    const note = takeInbox(this.live);
    if (note) await this.say(note);
  }

  /** Compaction: the hook before each request; replaces the conversation in place when it ran. */
  async compact(trigger: CompactionTrigger, turn: number): Promise<void> {
    const out = await compactIfNeeded({ messages: this.messages, meter: this.meter, fixedTokens: this.fixedTokens, emit: this.emit, signal: this.signal, usage: this.usage, turn }, this.compaction, trigger);
    if (out) this.messages.splice(0, this.messages.length, ...out);
  }

  /** What a response's usage says about the conversation's size (the next compaction check measures from it). */
  measured(usage: Usage, sent: number): void {
    this.meter.record(usage, sent);
  }

  /** The one way a run ends: after its background children, an `agent_finished` (unless already recorded), the result. */
  async finish(status: AgentStatus, result: string, error?: string, output?: { value: unknown }): Promise<AgentResult> {
    // No agent ends before its background children (cancelled with it, they end at once).
    await this.background.settle();
    clearTimeout(this.clock);
    this.steps.dispose();
    const { spec, usage, costUsd, turns, toolCalls } = this;
    const durationMs = Date.now() - this.started;
    if (status === 'cancelled' && this.live.stoppedBy === 'user' && !error) error = 'stopped by the user';
    // An interruption (the process is going away) may already have written this agent's last record.
    if (!this.live.finishRecorded) {
      const handoffs = status === 'completed' && spec.handoffs?.length ? { handoffs: spec.handoffs } : {};
      await this.emit({ type: 'agent_finished', status, result, ...handoffs, turns, toolCalls, usage: { ...usage }, ...(costUsd !== undefined ? { costUsd } : {}), durationMs, ...(error ? { error } : {}), ...(output ? { output: output.value } : {}) });
    }
    return {
      agentId: this.identity.agentId,
      status,
      result,
      turns,
      toolCalls,
      usage,
      durationMs,
      messages: this.messages,
      subagents: this.subagents,
      model: this.modelId,
      ...(spec.agentType ? { agentType: spec.agentType } : {}),
      ...(spec.fork ? { fork: true } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
      ...(error ? { error } : {}),
      ...(output ? { output: output.value } : {}),
    };
  }
}
