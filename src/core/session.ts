/**
 * A session wires one run's shared services (bus, transcript store, hooks, permissions, tools) and
 * keeps the root agent's conversation across prompts. Both hosts (CLI, editor) use only this.
 *
 *   host ──prompt──▶ session.run() ──▶ runAgent(root) ──task──▶ runAgent(child) …
 *        ◀─events── bus ◀──────────────────────┘  (transcripts are one of the bus's listeners)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { EventBus } from './events';
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
  /** Every running agent's controller (the root's included), by agent id. */
  readonly controllers: Map<string, AbortController>;
  run(prompt: string, signal: AbortSignal): Promise<AgentResult>;
  /** Closes the transcript files; the session can still run later (they reopen). */
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
    }),
    saveFullOutput: (toolUseId, content) => store.saveToolOutput(toolUseId, content),
    newAgentId: () => randomBytes(4).toString('hex'),
    controllers: new Map(),
  };
  const history: MessageParam[] = [];

  const run = async (prompt: string, signal: AbortSignal): Promise<AgentResult> => {
    const controller = new AbortController();
    const relay = (): void => controller.abort();
    signal.addEventListener('abort', relay, { once: true });
    if (signal.aborted) controller.abort();
    services.controllers.set(ROOT_AGENT_ID, controller);
    try {
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
        controller.signal,
      );
      // Keep the conversation for a follow-up prompt only when it ended in a valid state.
      if (result.status === 'completed' || result.status === 'max_turns') history.splice(0, history.length, ...result.messages);
      return result;
    } finally {
      signal.removeEventListener('abort', relay);
      services.controllers.delete(ROOT_AGENT_ID);
    }
  };

  return { id, bus, store, hooks, permissions, history, controllers: services.controllers, run, close: () => store.close() };
}
