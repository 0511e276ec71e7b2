/**
 * The Session a host holds (the face's main export): what createSession built, put behind one object — run a prompt,
 * message a subagent, cancel, compact, change the model, shut down. Nothing here builds a collaborator.
 */
import type { EventBus, EventListener } from '../events';
import type { AgentRegistry } from '../loop/agent-registry';
import type { ContextSettings } from '../loop/compact-if-needed';
import type { AgentResult, RunPorts } from '../loop/types';
import type { MessageParam, ModelPort } from '../llm/types';
import { messageSubagent } from '../delegation/message-subagent';
import type { LandInput, Landed } from '../delegation/land-tool';
import type { ChangeTracker } from '../changes/change-tracker';
import type { HookRegistry } from '../policy/hooks';
import type { PermissionPolicy } from '../policy/permission-policy';
import type { ToolRules } from '../policy/tool-rules';
import type { Sandbox } from '../sandbox/sandbox';
import { describeSandbox, type SandboxStatus } from '../sandbox/types';
import type { TranscriptStore } from '../store/transcript-store';
import type { ProcessGroups } from '../tools/process-groups';
import type { PermissionMode } from '../vocabulary';
import { createSessionExit } from './exit';
import type { SessionMcp } from './mcp';
import type { RootAgent, RunOptions } from './root-agent';
import type { SessionModel } from './session-model';

export const ROOT_AGENT_ID = 'main';

/**
 * A host drives a session through its verbs: run, messageSubagent, cancel, compact, setModel, setMode, setTrusted,
 * status, subscribe, notify, shutdown (shutdownNow, close), and reads id, transcript, mode, context,
 * toolRuleWarnings. The parts below them (bus, store, hooks, permissions, agents, processes, sandbox, changes, mcp)
 * are what createSession built: a live session's revert reads its bus and changes (history.ts's LiveSession), the
 * core's tests read the rest. Hosts read two of them still: the CLI `sandbox.settings` (whether to announce the
 * sandbox before the run), ACP `context.window`; the type is not yet narrowed to the verbs (issue 26 §2).
 */
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
  /** Every event of the session, in sequence order (the bus's): returns the unsubscribe. */
  subscribe(listener: EventListener): () => void;
  /** What confines bash once the sandbox is probed, and the same in words (a status bar, -v, the JSON result). */
  status(): Promise<{ sandbox: SandboxStatus; sandboxText: string }>;
  /** The session's transcript (a host names it, opens it): its main file and its folder (subagents' files beside). */
  readonly transcript: { readonly file: string; readonly dir: string };
  /** The permission mode now in force (the user may change it between and during prompts: setMode). */
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** The editor's workspace trust changed (granted mid-session): the policy follows; hooks and agent files from the next session. */
  setTrusted(trusted: boolean): void;
  /**
   * Runs a root prompt; `options.retryOf` / `options.handoff`: it is a Retry / a handoff the host wrote for the user
   * (its events say so, and say what the user did);
   * `options.images`: attached to it (an ACP client's), after its text; `options.outputSchema`: a typed
   * run (report/typed-output.ts): its result ends with a value the schema accepts. An empty
   * prompt, or one too big for the model's window, throws PromptRefused (prompt-check.ts) before any event: the
   * session stays as it was.
   */
  run(prompt: string, signal: AbortSignal, options?: RunOptions): Promise<AgentResult>;
  /**
   * The user's message to a subagent (by id or name): a finished or stopped one resumes with its whole history plus
   * the message and this returns its new result; a running one reads it at its next turn ('queued').
   * A bad id, or a fork, throws with a one-line reason.
   */
  messageSubagent(ref: string, message: string, signal: AbortSignal): Promise<AgentResult | 'queued'>;
  /**
   * The user lands isolated subagents' kept changes now (between prompts), as the main agent's `land` tool does: with
   * `resolve`, each conflict goes to a resolver subagent whose result lands like any child's (`delegate land --resolve`);
   * `keep` too: the resolvers' results stay kept (standing in for the children) until the user applies them.
   */
  land(request: LandInput & { check?: string; keep?: boolean }, signal: AbortSignal): Promise<Landed>;
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

export interface SessionParts {
  id: string;
  bus: EventBus;
  store: TranscriptStore;
  hooks: HookRegistry;
  permissions: PermissionPolicy;
  agents: AgentRegistry;
  processes: ProcessGroups;
  sandbox: Sandbox;
  changes: ChangeTracker;
  rules: ToolRules;
  mcp: SessionMcp | undefined;
  /** Agent files' own MCP servers, running while their agents do (agent-mcp.ts). */
  agentServers?: { killNow(): void };
  ports: RunPorts;
  main: RootAgent;
  notify: Session['notify'];
  current: SessionModel;
  lock: { release(): void };
  /** The user's landing (land-tool.ts landAndResolve over the session's steward, the main agent as the resolvers' parent). */
  land: Session['land'];
  /** The prune of dead sessions' worktrees (isolation-rooms.ts), started after the first reply: shutdown starts it if
   * nothing did, and waits for it. */
  prune?: () => Promise<unknown>;
}

/** The Session a host holds, over the parts createSession built. */
export function sessionFace(p: SessionParts): Session {
  const { agents, sandbox, mcp } = p;
  const exit = createSessionExit(agents, p.processes, p.bus);
  return {
    id: p.id,
    bus: p.bus,
    store: p.store,
    hooks: p.hooks,
    permissions: p.permissions,
    history: p.main.history,
    agents,
    processes: p.processes,
    sandbox,
    changes: p.changes,
    get context(): ContextSettings {
      return p.current.context();
    },
    subscribe: (listener) => p.bus.subscribe(listener),
    status: async () => {
      const status = await sandbox.status();
      return { sandbox: status, sandboxText: describeSandbox(status) };
    },
    transcript: { file: p.store.sessionFile, dir: p.store.sessionDir },
    get mode(): PermissionMode {
      return p.permissions.mode;
    },
    setMode: (mode) => p.permissions.setMode(mode),
    setTrusted: (trusted) => p.permissions.setTrusted(trusted),
    toolRuleWarnings: p.rules.warnings,
    mcp: mcp?.manager,
    run: p.main.run,
    cancel: (agentId) => agents.cancel(agentId, 'user'),
    messageSubagent: (ref, message, signal) => messageSubagent(p.ports, ref, message, signal),
    land: p.land,
    notify: p.notify,
    compact: p.main.compact,
    setModel: (model: ModelPort, modelId: string, contextWindow?: number) => {
      if (agents.get(ROOT_AGENT_ID)) throw new Error('the main agent is running: change the model between prompts');
      p.current.set(model, modelId, contextWindow);
    },
    // The sandbox's private /tmp goes with the session, whichever way it ends.
    // MCP servers end with the session whichever way it ends (close too: a later run starts them again).
    shutdown: async (reason, graceMs) => {
      await Promise.all([exit.shutdown(reason, graceMs), mcp?.manager?.close(), p.prune?.()]);
      sandbox.removeTempFolder();
    },
    shutdownNow: (reason) => {
      mcp?.manager?.killNow();
      p.agentServers?.killNow();
      exit.shutdownNow(reason);
      sandbox.removeTempFolder();
    },
    close: () => {
      void mcp?.manager?.close();
      p.store.close();
      p.lock.release();
      sandbox.removeTempFolder();
    },
  };
}
