/**
 * A session wires one run's shared ports (bus, transcript store, hooks, permissions, tools) and
 * keeps the root agent's conversation across prompts: the composition root of the core (the hosts reach it
 * through the face, index.ts). Every collaborator is built once — the narrow ports of loop/types.ts (ModelAccess,
 * Spend, Outputs, RunConfig, the ToolGate, the Spawner) and the RunPorts that groups them; nothing is assigned into
 * any of them afterwards. What changes between prompts (setModel: the model and its window) is the session's own
 * state, which the ports read through getters.
 *
 *   host ──prompt──▶ session.run() ──▶ runAgent(root) ──task──▶ runAgent(child) …
 *        ◀─events── bus ◀──────────────────────┘  (transcripts are one of the bus's listeners)
 *
 * A session is its transcript: created with `resume` (see session/replay.ts) it goes on where the
 * transcript ends — same id, next seq, turns and agent ids that never repeat, the same conversation.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { agentEmitter, EventBus } from '../events';
import { AgentRegistry } from '../loop/agent-registry';
import { runAgent } from '../loop/loop';
import { DEFAULT_LIMITS } from '../loop/limits';
import { DEFAULT_PRICES, RunSpend } from '../loop/budget';
import { createChildRuns, type ChildRunPorts } from '../delegation/child-runs';
import { ChildRecords } from '../delegation/child-records';
import { createSubagentDirectory } from '../delegation/subagent-directory';
import { replaySession } from './replay';
import { messageSubagent } from '../delegation/message-subagent';
import { createRunFeatures } from './run-features';
import { createToolGate } from './policy-gate';
import { ToolCatalog } from './tool-catalog';
import { createAskUserTool } from '../tools/ask-user';
import { createFanoutReview, FanoutCaps } from '../delegation/fanout-review';
import { forecastAgents } from '../store/agent-forecast';
import { compactIfNeeded, type ContextSettings } from '../loop/compact-if-needed';
import { DEFAULT_MODEL_ALIASES, loadAgentCatalog } from '../agent-files/agent-catalog';
import { ContextMeter, contextWindowFor, DEFAULT_COMPACT_THRESHOLD, estimateTextTokens } from '../loop/context-size';
import { conversationAfterRun } from '../loop/conversation';
import { parentSystemPrompt } from '../loop/prompts';
import type { AgentResult, ModelAccess, Outputs, RunConfig, RunLimits, RunPorts } from '../loop/types';
import type { MessageParam, ModelPort } from '../llm/types';
import { attachMcp, type SessionMcp } from './mcp';
import { gateFolderCommands } from './folder-trust';
import { HookRegistry } from '../policy/hooks';
import { PermissionPolicy } from '../policy/permission-policy';
import { ToolRules } from '../policy/tool-rules';
import { createSessionExit } from './exit';
import type { SessionConfig } from './session-config';
import { acquireSessionLock } from '../store/session-lock';
import { createTranscriptStore, type TranscriptStore } from '../store/transcript-store';
import { BlobStore, blobDirOf } from '../changes/blob-store';
import { ChangeTracker } from '../changes/change-tracker';
import { createBaseTools } from '../tools/base-tools';
import { ProcessGroups } from '../tools/process-groups';
import { createWebFetchTool } from '../tools/web-fetch';
import { envProxyTakes, httpFetch } from '../llm/http-fetch';
import { maxTokensFor } from '../llm/thinking';
import { DEFAULT_SANDBOX, Sandbox } from '../sandbox/sandbox';
import { ToolEnv } from '../secrets/tool-env';
import { installCommandHooks } from '../hooks/command-hooks';
import { createPromptGate } from './prompt-gate';
import { emptyUsage, type RetryOf } from '../vocabulary';

export const ROOT_AGENT_ID = 'main';

export interface Session {
  readonly id: string;
  readonly bus: EventBus;
  readonly store: TranscriptStore;
  readonly hooks: HookRegistry;
  readonly permissions: PermissionPolicy;
  /** The root agent's conversation so far (what the next prompt's first request holds before it). */
  readonly history: MessageParam[];
  /** The running agents (the root's included) and their controllers. */
  readonly agents: AgentRegistry;
  /** Process groups the session's `bash` calls started and that may still be alive. */
  readonly processes: ProcessGroups;
  /** What confines `bash` (status() says which sandbox is in force). */
  readonly sandbox: Sandbox;
  /** The stale-write guard, the change journal and manifests (changes/); a revert in this process goes through its locks. */
  readonly changes: ChangeTracker;
  readonly context: ContextSettings;
  /** Rules the tool lists could not honour as written, for the host to say once. */
  readonly toolRuleWarnings: string[];
  /** The MCP servers, when the session has any. */
  readonly mcp: SessionMcp['manager'] | undefined;
  /** Runs a root prompt; `options.retryOf`: it is a Retry the host wrote for the user (its events say so). */
  run(prompt: string, signal: AbortSignal, options?: { retryOf?: RetryOf }): Promise<AgentResult>;
  /**
   * The user's message to a subagent (by id or name): a finished or stopped one resumes with its whole history plus
   * the message and this returns its new result; a running one reads it at its next turn ('queued').
   * A bad id, or a fork, throws with a one-line reason.
   */
  messageSubagent(ref: string, message: string, signal: AbortSignal): Promise<AgentResult | 'queued'>;
  /** Stops one running agent and its descendants; its parent goes on. False when it is not running. */
  cancel(agentId: string): boolean;
  /** Tells the user something about the session's setup (a `notice` event: the panel and the CLI show it). */
  notify(level: 'info' | 'warning' | 'error', text: string, source?: string): Promise<void>;
  /** Compacts the root's conversation now (between prompts); false when there was nothing to compact. */
  compact(signal: AbortSignal): Promise<boolean>;
  /**
   * The model of the next prompts (the editor's user picked another one): the same conversation goes on.
   * `contextWindow` as in SessionConfig (none: from the model table). Between prompts only.
   */
  setModel(model: ModelPort, modelId: string, contextWindow?: number): void;
  /**
   * For a host going away (a signal, the editor closing): cancels every agent, kills every process group
   * (TERM, then KILL after `graceMs`), and records an interruption for each agent that has not finished.
   */
  shutdown(reason: string, graceMs?: number): Promise<void>;
  /** The synchronous last resort (a process 'exit' handler): KILL every group, record the interruption. */
  shutdownNow(reason: string): void;
  /** Closes the transcript files, removes the sandbox's /tmp and releases the session's lock (another process may then continue it). */
  close(): void;
}

export type { SessionConfig } from './session-config';

export async function createSession(config: SessionConfig): Promise<Session> {
  const resume = config.resume;
  const id = resume?.sessionId ?? config.sessionId ?? randomUUID();
  const bus = new EventBus(id, resume?.lastSeq ?? 0);
  const store = await createTranscriptStore(config.transcriptRoot, id, ROOT_AGENT_ID);
  // Before anything starts (MCP servers, the sandbox probe): a session another process writes is refused here.
  const lock = acquireSessionLock(config.transcriptRoot, id);
  bus.subscribe(store.listener);
  const hooks = config.hooks ?? new HookRegistry();
  const rules = new ToolRules({ allowed: config.allowedTools ?? [], disallowed: config.disallowedTools ?? [] });
  // The running agents' parents: a "for this task's subagents" answer reaches the task's whole subtree.
  const permissions = new PermissionPolicy({ workdir: config.workdir, mode: config.mode, trusted: config.trusted ?? true, rules, parentOf: (id) => agents.get(id)?.identity.parentId });
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...config.limits };
  // A disallowed `task` is not offered: no agent gets to delegate.
  if (!permissions.offers('task')) limits.maxDepth = 0;
  const bashTimeoutMs = config.bashTimeoutMs ?? 120_000;
  const agents = new AgentRegistry();
  const processes = new ProcessGroups();
  // Old contents are kept beside the transcript: the session folder is the session's own.
  const changes = new ChangeTracker({ workdir: config.workdir, blobs: new BlobStore(blobDirOf(store.sessionDir)), bus });
  // Probed on the first status() call (the host's, or the first bash command's): a spawn the start path need not pay.
  const sandbox = new Sandbox(config.sandbox ?? DEFAULT_SANDBOX);
  // What every command of the session inherits: never the credentials, unless the user named one.
  const toolEnv = config.toolEnv ?? new ToolEnv();
  const threshold = config.compactThreshold ?? DEFAULT_COMPACT_THRESHOLD;
  // Agent ids are unique for the life of the session, resumes included.
  const usedIds = new Set(resume?.agentIds ?? []);
  const newAgentId = (): string => {
    for (;;) {
      const candidate = randomBytes(4).toString('hex');
      if (!usedIds.has(candidate)) return usedIds.add(candidate), candidate;
    }
  };
  // The model the session runs on now, and its window: setModel changes them between prompts (the ports' getters read them).
  const current = { model: config.model, modelId: config.modelId, window: contextWindowFor(config.modelId, config.contextWindow) };
  const contextNow = (): ContextSettings => ({ window: current.window, threshold });
  // web_fetch answers a prompt about a page with the session's own model (a request without tools).
  const webFetch = createWebFetchTool({
    // The host's HTTP client (the editor's honours its proxy settings), else the CLI's own; and the proxy check.
    fetch: config.fetch ?? httpFetch,
    proxied: envProxyTakes,
    ask: async (page, prompt, url, signal) => {
      // The session's model at the time of the call (setModel may have changed it).
      const response = await current.model.stream(
        {
          model: current.modelId,
          maxTokens: 2048,
          thinking: 'off', // a short answer about a page: no thinking eating its 2,048 tokens
          system: 'You answer a question about a web page from its content alone, precisely and briefly. Say so when the page does not answer it.',
          messages: [{ role: 'user', content: `<page url="${url}">\n${page.slice(0, 200_000)}\n</page>\n\n${prompt}` }],
          tools: [],
        },
        signal,
        {},
      );
      return response.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
    },
  });
  const baseTools = createBaseTools(config.workdir, {
    defaultTimeoutMs: bashTimeoutMs,
    maxTimeoutMs: Math.max(bashTimeoutMs, 600_000),
    // bash keeps this much in memory and streams a larger output whole to the call's file beside the transcript.
    maxOutputChars: 1_000_000,
    groups: processes,
    env: toolEnv,
    ...(config.ripgrepPath ? { ripgrepPath: config.ripgrepPath } : {}),
    launcher: sandbox,
    changes,
    ...(config.fileOps ? { ops: config.fileOps } : {}),
  })
    .with(webFetch)
    // Where the host gives no way to ask (the CLI), the tool says so and the agent decides itself.
    .with(createAskUserTool((id) => agents.get(id)?.identity, config.questions))
    // A disallowed tool is not offered at all (MCP tools are filtered the same way as they connect).
    .filter((name) => permissions.offers(name));
  const catalog = new ToolCatalog(baseTools);
  const notify = async (level: 'info' | 'warning' | 'error', text: string, source?: string): Promise<void> => {
    await bus.emit(ROOT_AGENT_ID, null, { type: 'notice', level, text, ...(source ? { source } : {}) });
  };
  // The folder's own hooks and servers wait for the host's word on the folder (the CLI, ACP; folder-trust.ts).
  const folder = gateFolderCommands(config.folderTrust, config.workdir, config.commandHooks, config.mcp);
  // MCP servers start now; their tools join the catalog as each connects.
  const mcp = attachMcp(folder.mcp, config.workdir, catalog, (name) => permissions.offers(name), notify, (tool) => changes.wrapCall(tool), toolEnv);
  const agentCatalog = config.agentFiles
    ? await loadAgentCatalog({ workdir: config.workdir, ...(config.agentFiles.home ? { home: config.agentFiles.home } : {}), includeProject: config.agentFiles.includeProject, knownTools: new Set([...baseTools.names(), 'task', ...(config.webSearch ? ['web_search'] : [])]) })
    : undefined;
  // Every subagent by id and name, finished ones too (send_message, read_subagent, the user's messages).
  const childRecords = new ChildRecords((agentId) => store.agentFile(agentId), resume?.children);
  bus.subscribe(childRecords.listener);
  const models: ModelAccess = {
    get model() {
      return current.model;
    },
    get modelId() {
      return current.modelId;
    },
    maxTokensFor: (modelId) => maxTokensFor(modelId, config.maxTokens),
    thinking: config.thinking ?? 'auto',
    ...(config.modelAliases ? { modelAliases: { ...DEFAULT_MODEL_ALIASES, ...config.modelAliases } } : {}),
    features: createRunFeatures([...(config.webSearch && permissions.offers('web_search') ? ['web_search' as const] : []), 'prompt_cache']),
  };
  const runConfig: RunConfig = {
    workdir: config.workdir,
    limits,
    get context() {
      return contextNow();
    },
    ...(config.instructions?.text ? { projectInstructions: config.instructions.text } : {}),
  };
  const outputs: Outputs = {
    saveFullOutput: (toolUseId, content) => store.saveToolOutput(toolUseId, content),
    outputPathFor: (toolUseId) => store.toolOutputPath(toolUseId),
  };
  const caps = new FanoutCaps();
  const childRuns: ChildRunPorts = {
    run: (spec, signal) => runAgent(spec, ports, signal), // a child, new or resumed, starts once `ports` exists
    bus,
    newAgentId,
    ...(agentCatalog ? { agentDefinitions: agentCatalog.agents } : {}),
    config: runConfig,
    baseTools: () => catalog.current(),
    ...(models.modelAliases ? { modelAliases: models.modelAliases } : {}),
    hooks,
    changes,
    ...(config.review ? { review: config.review } : {}),
    caps,
  };
  const spawner = createChildRuns(childRuns);
  const fanout = config.fanout
    ? createFanoutReview({
        ...config.fanout,
        agentTypes: () => spawner.agentTypes(),
        defaultType: spawner.defaultType,
        modelId: () => current.modelId,
        ...(models.modelAliases ? { modelAliases: models.modelAliases } : {}),
        mode: () => permissions.mode,
        forecast: (types) => forecastAgents(config.transcriptRoot, config.workdir, types),
        caps,
        emit: (parent, body) => bus.emit(parent.agentId, parent.parentId, body),
      })
    : undefined;
  const ports: RunPorts = {
    models,
    spend: { prices: { ...DEFAULT_PRICES, ...config.prices }, runSpend: new RunSpend(config.maxBudgetUsd) },
    outputs,
    config: runConfig,
    gate: createToolGate({ hooks, permissions, approver: config.approver }),
    spawner,
    bus,
    agents,
    ...(fanout ? { fanout } : {}),
    children: createSubagentDirectory(childRuns, { records: childRecords, conversation: (events, agentId) => replaySession('', events, agentId), blobs: changes.blobs ?? new BlobStore(blobDirOf(store.sessionDir)) }),
  };
  if (config.commandHooks) {
    installCommandHooks(hooks, config.commandHooks, {
      sessionId: id,
      workdir: config.workdir,
      transcriptPath: store.sessionFile,
      agentTranscriptPath: (agentId) => store.agentFile(agentId),
      permissionMode: () => permissions.mode,
      bus,
      processes,
      ...(folder.admit ? { admit: folder.admit } : {}),
      env: toolEnv,
    });
  }
  const root = { agentId: ROOT_AGENT_ID, parentId: null, depth: 0 };
  const gate = createPromptGate({
    hooks,
    bus,
    root,
    resumed: resume !== undefined,
    modelId: config.modelId,
    ...(config.instructions ? { instructions: config.instructions } : {}),
    ...(config.commandHooks ? { notices: config.commandHooks.problems } : {}),
    folderNotice: folder.notice,
  });
  const history: MessageParam[] = [...(resume?.history ?? [])];
  let rootTurns = resume?.rootTurns ?? 0;
  const systemPrompt = parentSystemPrompt(config.workdir, limits.maxDepth > 0, runConfig.projectInstructions);

  const run = async (prompt: string, signal: AbortSignal, options: { retryOf?: RetryOf } = {}): Promise<AgentResult> => {
    const retryOf = options.retryOf ? { retryOf: options.retryOf } : {};
    // First, before anything is awaited: the hosts' echo of what was typed.
    await bus.emit(root.agentId, root.parentId, { type: 'prompt', text: prompt, ...retryOf });
    await reportAgentProblems();
    // SessionStart and UserPromptSubmit hooks: a blocked prompt ends here and leaves the conversation as it was.
    const gated = await gate(prompt, signal);
    if ('blocked' in gated) return gated.blocked;
    // After the hooks: MCP servers went on connecting while they ran.
    await mcp?.ready();
    const result = await runAgent(
      {
        identity: root,
        systemPrompt,
        history: [...history],
        prompt,
        tools: catalog.current(),
        maxTurns: limits.maxTurns,
        turnBase: rootTurns,
        ...(gated.context.length ? { context: gated.context } : {}),
        ...retryOf,
      },
      ports,
      signal,
    );
    rootTurns += result.turns;
    // Whatever the end, the prompt and what happened stay: a follow-up can refer to a stopped or failed run.
    history.splice(0, history.length, ...conversationAfterRun(result.messages, result.status, result.error));
    return result;
  };

  const compact = async (signal: AbortSignal): Promise<boolean> => {
    if (agents.get(ROOT_AGENT_ID)) throw new Error('the main agent is running: compact between prompts');
    const fixedTokens = estimateTextTokens(systemPrompt) + estimateTextTokens(JSON.stringify(catalog.current().schemas()));
    const emit = agentEmitter(bus, ROOT_AGENT_ID, null);
    const out = await compactIfNeeded(
      { messages: history, meter: new ContextMeter(fixedTokens), fixedTokens, emit, signal, usage: emptyUsage(), turn: rootTurns },
      { model: models.model, modelId: models.modelId, maxTokensFor: models.maxTokensFor, context: contextNow(), saveFullOutput: outputs.saveFullOutput },
      'manual',
    );
    if (out) history.splice(0, history.length, ...out);
    return out !== undefined;
  };

  // Agent files that could not be used are said once, as notices (the panel, the CLI's stderr).
  const agentProblems = agentCatalog?.problems ?? [];
  let problemsReported = false;
  const reportAgentProblems = async (): Promise<void> => {
    if (problemsReported) return;
    problemsReported = true;
    for (const p of agentProblems) {
      await bus.emit(ROOT_AGENT_ID, null, { type: 'notice', level: p.severity, text: p.reason, source: `${p.file}${p.line ? `:${p.line}` : ''}` });
    }
  };

  const exit = createSessionExit(agents, processes, bus);
  return {
    id,
    bus,
    store,
    hooks,
    permissions,
    history,
    agents,
    processes,
    sandbox,
    changes,
    get context() {
      return contextNow();
    },
    toolRuleWarnings: rules.warnings,
    mcp: mcp?.manager,
    run,
    cancel: (agentId) => agents.cancel(agentId, 'user'),
    messageSubagent: (ref, message, signal) => messageSubagent(ports, ref, message, signal),
    notify,
    compact,
    setModel: (model, modelId, contextWindow) => {
      if (agents.get(ROOT_AGENT_ID)) throw new Error('the main agent is running: change the model between prompts');
      current.model = model;
      current.modelId = modelId;
      current.window = contextWindowFor(modelId, contextWindow);
    },
    // The sandbox's private /tmp goes with the session, whichever way it ends.
    // MCP servers end with the session whichever way it ends (close too: a later run starts them again).
    shutdown: async (reason, graceMs) => {
      await Promise.all([exit.shutdown(reason, graceMs), mcp?.manager?.close()]);
      sandbox.removeTempFolder();
    },
    shutdownNow: (reason) => {
      mcp?.manager?.killNow();
      exit.shutdownNow(reason);
      sandbox.removeTempFolder();
    },
    close: () => {
      void mcp?.manager?.close();
      store.close();
      lock.release();
      sandbox.removeTempFolder();
    },
  };
}

