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
 *
 * What it builds, one file each: the model in use (session-model.ts), the tool catalog (session-tools.ts), MCP
 * servers and command hooks behind the folder's trust (session-commands.ts), what delegation runs over
 * (session-children.ts), the main agent's conversation (root-agent.ts). This file makes the shared pieces (bus,
 * store, permissions, changes, sandbox), hands them to those, and puts the RunPorts and the Session together.
 */
import { randomBytes, randomUUID } from '../crypto-when-used';
import { homedir } from 'node:os';
import { EventBus } from '../events';
import { AgentRegistry } from '../loop/agent-registry';
import { runAgent } from '../loop/loop';
import { DEFAULT_PRICES, RunSpend } from '../loop/budget';
import { createToolGate } from './policy-gate';
import type { Outputs, RunConfig, RunLimits, RunPorts, Spawner } from '../loop/types';
import type { IsolationMode, PermissionMode } from '../vocabulary';
import { protectedTarget } from '../policy/protected-paths';
import { join } from 'node:path';
import { HookRegistry } from '../policy/hooks';
import { PermissionPolicy } from '../policy/permission-policy';
import { ToolRules } from '../policy/tool-rules';
import type { SessionConfig } from './session-config';
import { acquireSessionLock, isSessionHeld } from '../store/session-lock';
import { createIsolationRooms, pruneDeadWorktrees } from './isolation-rooms';
import { landIsolated, markersLeft } from './land-isolated';
import { landAndResolve } from '../delegation/land-tool';
import type { Steward } from '../delegation/steward-port';
import { toToolResult } from '../delegation/task-tool';
import type { AnyTool, ToolRegistry } from '../tools/types';
import { createTranscriptStore } from '../store/transcript-store';
import { BlobStore, blobDirOf } from '../changes/blob-store';
import { ChangeTracker } from '../changes/change-tracker';
import { ProcessGroups } from '../tools/process-groups';
import { Sandbox } from '../sandbox/sandbox';
import { ToolEnv } from '../secrets/tool-env';
import { SESSION_DEFAULTS } from '../settings/defaults';
import { createPromptGate } from './prompt-gate';
import { createSessionModel } from './session-model';
import { createSessionTools } from './session-tools';
import { startSessionCommands } from './session-commands';
import { createSessionChildren } from './session-children';
import { createSessionSkills } from './session-skills';
import { createRootAgent } from './root-agent';
import { agentServerStarter } from './agent-mcp';
import { agentHookInstaller } from './agent-hooks';
import { ROOT_AGENT_ID, sessionFace, type Session } from './session-face';

export { ROOT_AGENT_ID, type Session } from './session-face';
export type { SessionConfig } from './session-config';

export async function createSession(config: SessionConfig): Promise<Session> {
  const { workdir, model, permissions: allowed, persistence, ports: host } = config;
  const tools = config.tools ?? {};
  const resume = persistence.resume;
  const id = resume?.sessionId ?? persistence.sessionId ?? randomUUID();
  const bus = new EventBus(id, resume?.lastSeq ?? 0);
  const store = await createTranscriptStore(persistence.transcriptRoot, id, ROOT_AGENT_ID);
  // Before anything starts (MCP servers, the sandbox probe): a session another process writes is refused here.
  const lock = acquireSessionLock(persistence.transcriptRoot, id);
  bus.subscribe(store.listener);
  const hooks = host.hooks ?? new HookRegistry();
  const rules = new ToolRules({ allowed: allowed.allowedTools ?? [], disallowed: allowed.disallowedTools ?? [] });
  // The running agents' parents: a "for this task's subagents" answer reaches the task's whole subtree.
  const permissions = new PermissionPolicy({ workdir, mode: allowed.mode, trusted: allowed.trusted ?? true, rules, parentOf: (id) => agents.get(id)?.identity.parentId, workdirOf: (id) => isolation.workdirOf(id) });
  const { maxBudgetUsd, prices, ...runLimits } = config.limits ?? {};
  const limits: RunLimits = { ...SESSION_DEFAULTS.limits, ...runLimits };
  // A disallowed `task` is not offered: no agent gets to delegate.
  if (!permissions.offers('task')) limits.maxDepth = 0;
  const agents = new AgentRegistry();
  const processes = new ProcessGroups();
  // Old contents are kept beside the transcript: the session folder is the session's own.
  const changes = new ChangeTracker({ workdir, blobs: new BlobStore(blobDirOf(store.sessionDir)), bus });
  // Probed on the first status() call (the host's, or the first bash command's): a spawn the start path need not pay.
  const sandbox = new Sandbox(tools.sandbox ?? SESSION_DEFAULTS.sandbox);
  // What every command of the session inherits: never the credentials, unless the user named one.
  const env = tools.env ?? new ToolEnv();
  // Agent ids are unique for the life of the session, resumes included.
  const usedIds = new Set(resume?.agentIds ?? []);
  const newAgentId = (): string => {
    for (;;) {
      const candidate = randomBytes(4).toString('hex');
      if (!usedIds.has(candidate)) return usedIds.add(candidate), candidate;
    }
  };
  const webSearch = tools.webSearch === true && permissions.offers('web_search');
  const current = createSessionModel(model, host.model, webSearch);
  const models = current.access;
  const toolOptions = {
    workdir,
    bashTimeoutMs: tools.bashTimeoutMs ?? SESSION_DEFAULTS.bashTimeoutMs,
    env,
    sandbox,
    changes,
    processes,
    models,
    ports: host,
    identityOf: (id: string) => agents.get(id)?.identity,
    offers: (name: string) => permissions.offers(name),
  };
  const catalog = createSessionTools(toolOptions);
  // Subagents' own worktrees: the same tools made over the worktree (MCP tools as the session has them).
  const isolation = createIsolationRooms({
    mode: config.isolation?.mode ?? SESSION_DEFAULTS.isolation,
    ...(config.isolation?.landCheck ? { landCheck: config.isolation.landCheck } : {}),
    sessionId: id,
    sessionDir: store.sessionDir,
    bus,
    blobs: changes.blobs,
    toolsFor: (dir, tracker) => createSessionTools({ ...toolOptions, workdir: dir, changes: tracker }).current().with(...mcpToolsOf(catalog.current())),
  });
  // What a kill -9 left: the worktrees of this folder's sessions no process holds (in the background: only shutdown
  // waits on it). Started once the first reply is in, not here: its git spawn was ~4 ms of the CPU before the first
  // request (docs/benchmarks.md, issue 30); a session that never gets a reply prunes at its shutdown.
  let pruned: Promise<unknown> | undefined;
  const prune = (): Promise<unknown> => (pruned ??= pruneDeadWorktrees(workdir, persistence.transcriptRoot, (other) => other === id || isSessionHeld(persistence.transcriptRoot, other)));
  // Not unsubscribed from inside: the bus's loop over its listeners would skip the next one for this event.
  bus.subscribe((e) => {
    if (e.type === 'usage' && !pruned) void prune();
  });
  const notify = async (level: 'info' | 'warning' | 'error', text: string, source?: string): Promise<void> => {
    await bus.emit(ROOT_AGENT_ID, null, { type: 'notice', level, text, ...(source ? { source } : {}) });
  };
  const commands = startSessionCommands({ sessionId: id, config, env, catalog, hooks, permissions, bus, store, processes, changes, notify, workdirOf: (agentId) => isolation.workdirOf(agentId) });
  const files = config.files ?? {};
  // The `skill` tool joins the base tools (before any MCP server's: they connect later), shared with every subagent.
  const skills = createSessionSkills({ workdir, catalog: files.skills, permissions, folderTrusted: commands.folderTrusted });
  if (skills.tool) catalog.add([skills.tool]);
  // A resumed main agent's conversation holds the skills it loaded: they are active again (docs/skills.md).
  if (resume) skills.activate(ROOT_AGENT_ID, skills.loadedIn(resume.history));
  // Agent files' own MCP servers (`mcpServers`): started with their agent, stopped after it (agent-mcp.ts).
  const agentServers = agentServerStarter({
    workdir,
    home: files.agentFiles?.home ?? homedir(),
    env,
    folderTrust: host.folderTrust,
    ...(tools.mcp?.host?.prepare ? { prepare: tools.mcp.host.prepare } : {}),
    ...(tools.mcp?.connectTimeoutMs !== undefined ? { connectTimeoutMs: tools.mcp.connectTimeoutMs } : {}),
    ...(tools.mcp?.toolTimeoutMs !== undefined ? { toolTimeoutMs: tools.mcp.toolTimeoutMs } : {}),
    sessionServers: () => tools.mcp?.servers.map((s) => s.name) ?? [],
    offers: (name) => permissions.offers(name),
    watch: (tool) => changes.wrapCall(tool),
    notify,
  });
  // Agent files' own hooks (`hooks`): for their agent's run only; none when hooks are off (--no-hooks, disableAllHooks).
  const agentHooks = files.commandHooks && !files.commandHooks.disabledBy
    ? agentHookInstaller({
        registry: hooks,
        session: { sessionId: id, workdir, transcriptPath: store.sessionFile, agentTranscriptPath: (agentId) => store.agentFile(agentId), permissionMode: () => permissions.mode, bus, processes, env },
        folderTrust: host.folderTrust,
        notify,
      })
    : undefined;
  const runConfig: RunConfig = {
    workdir,
    limits,
    get context() {
      return current.context();
    },
    ...(files.instructions?.text ? { projectInstructions: files.instructions.text } : {}),
  };
  const outputs: Outputs = {
    saveFullOutput: (toolUseId, content) => store.saveToolOutput(toolUseId, content),
    outputPathFor: (toolUseId) => store.toolOutputPath(toolUseId),
  };
  const children = await createSessionChildren({
    workdir,
    transcriptRoot: persistence.transcriptRoot,
    files,
    // web_search as agent files name it: known where the session offers it (the setting, before the rules); `Skill`
    // always (a session without skills has no tool to give, and nothing to warn about either).
    extraToolNames: [...(tools.webSearch ? ['web_search'] : []), 'skill'],
    resume,
    run: (spec, signal) => runAgent(spec, ports, signal), // a child, new or resumed, starts once `ports` exists
    bus,
    store,
    newAgentId,
    config: runConfig,
    catalog,
    models,
    prices: { ...DEFAULT_PRICES, ...prices },
    hooks,
    changes,
    permissions,
    isolation,
    ports: host,
    skills,
    agentServers: agentServers.start,
    ...(agentHooks ? { agentHooks } : {}),
  });
  // In-session landing: the transcript is this process's (its lock too); changes_landed goes out on the bus.
  // The user's (session.land) writes what they asked; the main agent's tool leaves a protected path (.mcp.json,
  // .claude/…) to the user unless the mode is bypassPermissions: its permission question named no file.
  const stewardOf = (byModel: boolean): Steward => ({
    land: (request) =>
      landIsolated(persistence.transcriptRoot, id, { ...request, env, ...(byModel ? { refuse: (path: string) => protectedLanding(workdir, path, permissions.mode) } : {}) }, { bus }),
    markersLeft: (agentId) => markersLeft(persistence.transcriptRoot, id, agentId),
  });
  const steward = stewardOf(false);
  let landings = 0;
  const ports: RunPorts = {
    models,
    spend: { prices: { ...DEFAULT_PRICES, ...prices }, runSpend: new RunSpend(maxBudgetUsd) },
    outputs,
    config: runConfig,
    gate: createToolGate({ hooks, permissions, approver: host.approver }),
    spawner: children.spawner,
    bus,
    agents,
    ...(children.fanout ? { fanout: children.fanout } : {}),
    children: children.children,
    // The main agent's `land` tool, where subagents may be isolated.
    ...(isolating(isolation.mode, children.spawner) ? { steward: stewardOf(true) } : {}),
  };
  const root = { agentId: ROOT_AGENT_ID, parentId: null, depth: 0 };
  const gate = createPromptGate({
    hooks,
    bus,
    root,
    resumed: resume !== undefined,
    modelId: model.id,
    ...(files.instructions ? { instructions: files.instructions } : {}),
    ...(files.commandHooks ? { notices: files.commandHooks.problems } : {}),
    folderNotice: commands.folderNotice,
  });
  const main = createRootAgent({ root, ports, catalog, gate, mcp: commands.mcp, resume, agentProblems: [...skills.problems, ...children.problems] });
  // The user's landing: the main agent is the resolvers' parent (their results roll up nowhere: no prompt runs).
  const land: Session['land'] = (request, signal) =>
    landAndResolve(
      { parent: root, steward, spawner: ports.spawner, parentModel: current.access.modelId, onChildFinished: () => undefined, toToolResult: (child, stopped) => toToolResult(child, limits.subagentMaxTurns, stopped) },
      request,
      { signal, toolUseId: `land:${++landings}` },
    );
  return sessionFace({ id, bus, store, hooks, permissions, agents, processes, sandbox, changes, rules, mcp: commands.mcp, agentServers, ports, main, notify, current, lock, prune, land });
}

/** Why the main agent's land tool may not write `path` (the repository's) in `mode`: a protected path, unless bypassPermissions. */
function protectedLanding(workdir: string, path: string, mode: PermissionMode): string | undefined {
  if (mode === 'bypassPermissions') return undefined;
  const hit = protectedTarget(workdir, join(workdir, path));
  return hit ? `it changes ${hit.shown} (${hit.entry.reason}): the user lands it (delegate land, or the land tool under bypassPermissions)` : undefined;
}

/** Whether a subagent of this session may run in a worktree unasked by the call: the session's default, or an agent file's. */
function isolating(mode: IsolationMode, spawner: Spawner): boolean {
  return mode === 'worktree' || [...spawner.agentTypes().values()].some((d) => d.isolation === 'worktree');
}

/** The catalog's MCP tools (their servers are the session's, not a folder's): an isolated subagent gets them as they are. */
function mcpToolsOf(tools: ToolRegistry): AnyTool[] {
  return tools.names().flatMap((name) => {
    const tool = name.startsWith('mcp__') ? tools.get(name) : undefined;
    return tool ? [tool] : [];
  });
}
