/**
 * The main agent's side of a session: its conversation across prompts, and the two things done to it — a prompt run
 * (the hooks' gate, MCP servers ready, runAgent, the conversation kept whatever the end) and a compaction between
 * prompts.
 *
 *   run(prompt) ─▶ `prompt` event ─▶ agent-file notices (once) ─▶ prompt gate (SessionStart, UserPromptSubmit)
 *               ─▶ MCP ready ─▶ runAgent(root) ─▶ history = the conversation after the run
 */
import { agentEmitter, type EventBus } from '../events';
import type { AgentFileProblem } from '../agent-files/agent-definition';
import { compactIfNeeded } from '../loop/compact-if-needed';
import { ContextMeter, estimateTextTokens } from '../loop/context-size';
import { conversationAfterRun } from '../loop/conversation';
import { runAgent } from '../loop/loop';
import { parentSystemPrompt } from '../loop/prompts';
import type { AgentResult, RunPorts } from '../loop/types';
import type { MessageParam } from '../llm/types';
import { emptyUsage, type AgentIdentity, type HandoffOf, type RetryOf, type PromptImage } from '../vocabulary';
import type { SessionMcp } from './mcp';
import { checkPrompt } from './prompt-check';
import type { PromptGate } from './prompt-gate';
import type { ResumeState } from './replay';
import type { ToolCatalog } from './tool-catalog';
import { typedOutput } from '../report/typed-output';

export interface RootAgentOptions {
  root: AgentIdentity;
  ports: RunPorts;
  catalog: ToolCatalog;
  gate: PromptGate;
  mcp: SessionMcp | undefined;
  resume: ResumeState | undefined;
  /** Agent files that could not be used: said once, as notices, before the first prompt runs. */
  agentProblems: readonly AgentFileProblem[];
}

export interface RootAgent {
  /** The root agent's conversation so far (what the next prompt's first request holds before it). */
  readonly history: MessageParam[];
  run(prompt: string, signal: AbortSignal, options?: RunOptions): Promise<AgentResult>;
  compact(signal: AbortSignal): Promise<boolean>;
}

export interface RunOptions {
  /** It is a Retry the host wrote for the user (its events say so). */
  retryOf?: RetryOf;
  /** It is a handoff the host wrote for the user: its events carry what the user sent, the model gets `prompt`. */
  handoff?: HandoffOf;
  /** A typed run (`--output-schema`): the answer must end with a ```json block this JSON Schema accepts (report/typed-output.ts). */
  outputSchema?: Record<string, unknown>;
  /** Images attached to the prompt (an ACP client's), after its text. */
  images?: readonly PromptImage[];
}

export function createRootAgent(o: RootAgentOptions): RootAgent {
  const { root, ports, catalog } = o;
  const bus: EventBus = ports.bus;
  const history: MessageParam[] = [...(o.resume?.history ?? [])];
  let rootTurns = o.resume?.rootTurns ?? 0;
  const systemPrompt = parentSystemPrompt(ports.config.workdir, ports.config.limits.maxDepth > 0, ports.config.projectInstructions);

  let problemsReported = false;
  const reportAgentProblems = async (): Promise<void> => {
    if (problemsReported) return;
    problemsReported = true;
    for (const p of o.agentProblems) {
      await bus.emit(root.agentId, null, { type: 'notice', level: p.severity, text: p.reason, source: `${p.file}${p.line ? `:${p.line}` : ''}` });
    }
  };

  /** The system prompt and the tools' schemas, in tokens: what every request holds besides the conversation. */
  const fixedTokens = (): number => estimateTextTokens(systemPrompt) + estimateTextTokens(JSON.stringify(catalog.current().schemas()));

  const run = async (prompt: string, signal: AbortSignal, options: RunOptions = {}): Promise<AgentResult> => {
    // An empty prompt (images alone are not empty), or one the window cannot hold, is refused before anything is said or kept (prompt-check.ts).
    const refused = checkPrompt(prompt, ports.config.context, fixedTokens(), options.images?.length ?? 0);
    if (refused) throw refused;
    // What the hosts show instead of the written prompt; the transcript keeps it on agent_started.
    const shown = { ...(options.retryOf ? { retryOf: options.retryOf } : {}), ...(options.handoff ? { handoff: options.handoff } : {}) };
    // First, before anything is awaited: the hosts' echo of what was typed.
    await bus.emit(root.agentId, root.parentId, { type: 'prompt', text: prompt, ...shown });
    await reportAgentProblems();
    const typed = options.outputSchema ? await typedOutput(options.outputSchema, 'the output schema') : undefined;
    if (typed && 'error' in typed) {
      return { agentId: root.agentId, status: 'error', result: '', turns: 0, toolCalls: 0, usage: emptyUsage(), durationMs: 0, error: typed.error, messages: [], subagents: [], model: ports.models.modelId };
    }
    // SessionStart and UserPromptSubmit hooks: a blocked prompt ends here and leaves the conversation as it was.
    const gated = await o.gate(prompt, signal);
    if ('blocked' in gated) return gated.blocked;
    // After the hooks: MCP servers went on connecting while they ran.
    await o.mcp?.ready();
    const result = await runAgent(
      {
        identity: root,
        systemPrompt,
        history: [...history],
        prompt: typed ? `${prompt}${typed.promptNote}` : prompt,
        ...(typed ? { output: typed.check } : {}),
        tools: catalog.current(),
        maxTurns: ports.config.limits.maxTurns,
        turnBase: rootTurns,
        ...(gated.context.length ? { context: gated.context } : {}),
        ...(options.images?.length ? { images: options.images } : {}),
        ...shown,
      },
      ports,
      signal,
    );
    rootTurns += result.turns;
    // Whatever the end, the prompt and what happened stay: a follow-up can refer to a stopped or failed run (but a
    // prompt the API refused as too long, which every later request would carry).
    const runStart = history.length;
    history.splice(0, history.length, ...conversationAfterRun(result.messages, result.status, result.error, runStart));
    return result;
  };

  const compact = async (signal: AbortSignal): Promise<boolean> => {
    if (ports.agents.get(root.agentId)) throw new Error('the main agent is running: compact between prompts');
    const fixed = fixedTokens();
    const emit = agentEmitter(bus, root.agentId, null);
    const { models, outputs } = ports;
    const out = await compactIfNeeded(
      { messages: history, meter: new ContextMeter(fixed), fixedTokens: fixed, emit, signal, usage: emptyUsage(), turn: rootTurns },
      { model: models.model, modelId: models.modelId, maxTokensFor: models.maxTokensFor, context: ports.config.context, saveFullOutput: outputs.saveFullOutput },
      'manual',
    );
    if (out) history.splice(0, history.length, ...out);
    return out !== undefined;
  };

  return { history, run, compact };
}
