/**
 * A session wires one run's shared services (bus, transcript store, hooks, permissions, tools) and
 * keeps the root agent's conversation across prompts. Both hosts (CLI, editor) use only this.
 *
 *   host ──prompt──▶ session.run() ──▶ runAgent(root) ──task──▶ runAgent(child) …
 *        ◀─events── bus ◀──────────────────────┘  (transcripts are one of the bus's listeners)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { EventBus } from './events';
import { AgentRegistry } from './agent/agent-registry';
import { runAgent } from './agent/loop';
import { DEFAULT_LIMITS } from './agent/limits';
import { parentSystemPrompt } from './agent/prompts';
import type { AgentResult, RunLimits, RunServices } from './agent/types';
import type { MessageParam, ModelPort } from './llm/types';
import { HookRegistry } from './policy/hooks';
import { PermissionPolicy } from './policy/permissions';
import type { Approver, PermissionMode } from './policy/types';
import { createTranscriptStore, type TranscriptStore } from './store/transcript-store';
import { createBaseTools } from './tools/base-tools';
import { ProcessGroups } from './tools/process-groups';
import { DEFAULT_SANDBOX, Sandbox, type SandboxSettings } from './sandbox/sandbox';

export const ROOT_AGENT_ID = 'main';

export interface SessionConfig {
  workdir: string;
  model: ModelPort;
  modelId: string;
  maxTokens?: number;
  mode: PermissionMode;
  /** False in an untrusted editor workspace: agents are read-only. */
  trusted?: boolean;
  approver: Approver;
  /** Shared by every agent of the session; a fresh registry when omitted. */
  hooks?: HookRegistry;
  limits?: Partial<RunLimits>;
  bashTimeoutMs?: number;
  /** How `bash` is confined; auto (bubblewrap where it runs, network off) when omitted. */
  sandbox?: SandboxSettings;
  transcriptRoot: string;
  sessionId?: string;
}

export interface Session {
  readonly id: string;
  readonly bus: EventBus;
  readonly store: TranscriptStore;
  readonly hooks: HookRegistry;
  readonly permissions: PermissionPolicy;
  /** The root agent's conversation so far. */
  readonly history: MessageParam[];
  /** The running agents (the root's included) and their controllers. */
  readonly agents: AgentRegistry;
  /** Process groups the session's `bash` calls started and that may still be alive. */
  readonly processes: ProcessGroups;
  /** What confines `bash` (status() says which sandbox is in force). */
  readonly sandbox: Sandbox;
  run(prompt: string, signal: AbortSignal): Promise<AgentResult>;
  /** Stops one running agent and its descendants; its parent goes on. False when it is not running. */
  cancel(agentId: string): boolean;
  /**
   * For a host going away (a signal, the editor closing): cancels every agent, kills every process group
   * (TERM, then KILL after `graceMs`), and records an interruption for each agent that has not finished.
   */
  shutdown(reason: string, graceMs?: number): Promise<void>;
  /** The synchronous last resort (a process 'exit' handler): KILL every group, record the interruption. */
  shutdownNow(reason: string): void;
  /** Closes the transcript files and removes the sandbox's /tmp; the session can still run later (they reopen). */
  close(): void;
}

export async function createSession(config: SessionConfig): Promise<Session> {
  const id = config.sessionId ?? randomUUID();
  const bus = new EventBus(id);
  const store = await createTranscriptStore(config.transcriptRoot, id, ROOT_AGENT_ID);
  bus.subscribe(store.listener);
  const hooks = config.hooks ?? new HookRegistry();
  const permissions = new PermissionPolicy({ workdir: config.workdir, mode: config.mode, trusted: config.trusted ?? true });
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...config.limits };
  const bashTimeoutMs = config.bashTimeoutMs ?? 120_000;
  const agents = new AgentRegistry();
  const processes = new ProcessGroups();
  // Probed on the first status() call (the host's, or the first bash command's): a spawn the start path need not pay.
  const sandbox = new Sandbox(config.sandbox ?? DEFAULT_SANDBOX);
  const services: RunServices = {
    model: config.model,
    modelId: config.modelId,
    maxTokens: config.maxTokens ?? 16_000,
    workdir: config.workdir,
    hooks,
    permissions,
    approver: config.approver,
    bus,
    limits,
    baseTools: createBaseTools(config.workdir, {
      defaultTimeoutMs: bashTimeoutMs,
      maxTimeoutMs: Math.max(bashTimeoutMs, 600_000),
      // bash keeps this much in memory; the loop then cuts it for the model and saves the whole.
      maxOutputChars: 10_000_000,
      groups: processes,
      launcher: sandbox,
    }),
    saveFullOutput: (toolUseId, content) => store.saveToolOutput(toolUseId, content),
    newAgentId: () => randomBytes(4).toString('hex'),
    agents,
    processes,
  };
  const history: MessageParam[] = [];

  const run = async (prompt: string, signal: AbortSignal): Promise<AgentResult> => {
    const result = await runAgent(
      {
        identity: { agentId: ROOT_AGENT_ID, parentId: null, depth: 0 },
        systemPrompt: parentSystemPrompt(config.workdir, limits.maxDepth > 0),
        history: [...history],
        prompt,
        tools: services.baseTools,
        maxTurns: limits.maxTurns,
      },
      services,
      signal,
    );
    // Keep the conversation for a follow-up prompt only when it ended in a valid state.
    if (result.status === 'completed' || result.status === 'max_turns') history.splice(0, history.length, ...result.messages);
    return result;
  };

  /** One `agent_finished` per agent still running, written now (the bus's synchronous path). */
  const recordInterruption = (reason: string): void => {
    for (const live of agents.running().reverse()) {
      if (live.finishRecorded) continue;
      live.finishRecorded = true;
      const { agentId, parentId } = live.identity;
      bus.emitNow(agentId, parentId, {
        type: 'agent_finished',
        status: 'cancelled',
        result: '',
        turns: live.turns,
        toolCalls: live.toolCalls,
        usage: { ...live.usage },
        durationMs: Date.now() - live.startedAt,
        error: `interrupted: ${reason}`,
      });
    }
  };

  const shutdown = async (reason: string, graceMs = 1000): Promise<void> => {
    agents.cancelAll('interrupted');
    await processes.terminateAll(graceMs);
    sandbox.removeTempFolder();
    // Give the loops a moment to record their own `cancelled` ends; whatever is still running is recorded here.
    await Promise.race([waitUntil(() => agents.size === 0), new Promise((resolve) => setTimeout(resolve, Math.min(graceMs, 500)))]);
    recordInterruption(reason);
  };

  const shutdownNow = (reason: string): void => {
    agents.cancelAll('interrupted');
    processes.killAllNow();
    sandbox.removeTempFolder();
    recordInterruption(reason);
  };

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
    run,
    cancel: (agentId) => agents.cancel(agentId, 'user'),
    shutdown,
    shutdownNow,
    close: () => {
      store.close();
      sandbox.removeTempFolder();
    },
  };
}

function waitUntil(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => {
      if (done()) resolve();
      else setTimeout(poll, 10);
    };
    poll();
  });
}
