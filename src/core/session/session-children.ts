/**
 * What the session gives delegation: the agent definitions a `task` can pick, the records of every subagent, the one
 * ChildRunPorts every child (new, forked, resumed) runs over, the Spawner, the fan-out card's gate and the directory
 * (send_message, read_subagent, the user's messages to a subagent):
 *
 *   agent files ─▶ catalog ─┐
 *   bus ─▶ ChildRecords ────┼─▶ ChildRunPorts ─▶ createChildRuns (the Spawner)
 *   run (runAgent over the   │                 ─▶ createSubagentDirectory
 *   session's RunPorts) ─────┘                 ─▶ createFanoutReview (when the host shows a card)
 */
import { homedir } from 'node:os';
import type { EventBus } from '../events';
import { loadAgentCatalog } from '../agent-files/agent-catalog';
import type { AgentFileProblem } from '../agent-files/agent-definition';
import { BlobStore, blobDirOf } from '../changes/blob-store';
import type { ChangeTracker } from '../changes/change-tracker';
import type { SubagentDirectory } from '../delegation/child-port';
import { ChildRecords } from '../delegation/child-records';
import { createChildRuns, type ChildRunPorts } from '../delegation/child-runs';
import { createFanoutReview, FanoutCaps } from '../delegation/fanout-review';
import type { FanoutGate } from '../delegation/fanout-gate';
import type { ChildIsolation } from '../delegation/child-isolation';
import { createSubagentDirectory } from '../delegation/subagent-directory';
import type { AgentResult, AgentSpec, ModelAccess, RunConfig, Spawner } from '../loop/types';
import type { HookRegistry } from '../policy/hooks';
import type { ModelPrice } from '../loop/budget';
import type { PermissionPolicy } from '../policy/permission-policy';
import { forecastAgents } from '../store/agent-forecast';
import type { TranscriptStore } from '../store/transcript-store';
import { replaySession, type ResumeState } from './replay';
import type { FileSettings, SessionPorts } from './session-config';
import type { ToolCatalog } from './tool-catalog';
import type { SessionSkills } from './session-skills';
import { preloadSkills } from '../skills/skill-preload';

export interface SessionChildrenOptions {
  workdir: string;
  transcriptRoot: string;
  files: FileSettings;
  /** Tool names agent files may list besides the base tools (web_search when the session offers it). */
  extraToolNames: readonly string[];
  resume: ResumeState | undefined;
  /** Runs a child's spec over the session's RunPorts (built after this: the call happens later). */
  run(spec: AgentSpec, signal: AbortSignal): Promise<AgentResult>;
  bus: EventBus;
  store: TranscriptStore;
  newAgentId(): string;
  config: RunConfig;
  catalog: ToolCatalog;
  models: ModelAccess;
  /** The price table (built-in and the user's): a call's own `model` is held to the session's cap by it. */
  prices: Readonly<Record<string, ModelPrice>>;
  hooks: HookRegistry;
  changes: ChangeTracker;
  permissions: PermissionPolicy;
  /** Subagents' own worktrees (isolation-rooms.ts). */
  isolation: ChildIsolation;
  ports: Pick<SessionPorts, 'review' | 'fanout'>;
  /** Agent files' `skills:` are preloaded from the session's skills (their allowed-tools applied to the child). */
  skills: Pick<SessionSkills, 'activate' | 'inherit'>;
  /** Starts an agent file's own MCP servers for one run (agent-mcp.ts). */
  agentServers?: ChildRunPorts['agentServers'];
  /** Installs an agent file's own hooks for one run (agent-hooks.ts). */
  agentHooks?: ChildRunPorts['agentHooks'];
}

export interface SessionChildren {
  spawner: Spawner;
  children: SubagentDirectory<AgentResult>;
  fanout?: FanoutGate;
  /** Agent files that could not be used (said once, as notices, at the first prompt). */
  problems: readonly AgentFileProblem[];
}

export async function createSessionChildren(o: SessionChildrenOptions): Promise<SessionChildren> {
  const agentFiles = o.files.agentFiles;
  const agentCatalog = agentFiles
    ? await loadAgentCatalog({ workdir: o.workdir, ...(agentFiles.home ? { home: agentFiles.home } : {}), includeProject: agentFiles.includeProject, knownTools: new Set([...o.catalog.current().names(), 'task', ...o.extraToolNames]) })
    : undefined;
  // `skills:` lists: read once now, so a child's spec is built without waiting.
  const preloaded = agentCatalog ? await preloadSkills(agentCatalog.agents.values(), o.files.skills?.skills ?? new Map()) : undefined;
  // Every subagent by id and name, finished ones too (send_message, read_subagent, the user's messages).
  const records = new ChildRecords((agentId) => o.store.agentFile(agentId), o.resume?.children);
  o.bus.subscribe(records.listener);
  const caps = new FanoutCaps();
  const aliases = o.models.modelAliases ? { modelAliases: o.models.modelAliases } : {};
  const runs: ChildRunPorts = {
    run: o.run,
    bus: o.bus,
    newAgentId: o.newAgentId,
    ...(agentCatalog ? { agentDefinitions: agentCatalog.agents } : {}),
    config: o.config,
    baseTools: () => o.catalog.current(),
    ...aliases,
    hooks: o.hooks,
    changes: o.changes,
    ...(o.ports.review ? { review: o.ports.review } : {}),
    caps,
    isolation: o.isolation,
    sessionModel: () => o.models.modelId,
    prices: o.prices,
    ...(preloaded?.byAgent.size
      ? {
          skills: {
            preloaded: (def) => {
              const p = preloaded.byAgent.get(def.name);
              return p && { prompt: p.prompt, names: p.skills.map((skill) => skill.name) };
            },
            activate: (agentId, def) => o.skills.activate(agentId, preloaded.byAgent.get(def.name)?.skills ?? []),
          },
        }
      : {}),
    inheritSkills: (parentId, forkId) => o.skills.inherit(parentId, forkId),
    ...(o.agentServers ? { agentServers: o.agentServers } : {}),
    ...(o.agentHooks ? { agentHooks: o.agentHooks } : {}),
    home: agentFiles?.home ?? homedir(),
    modelKnown: async (id) => o.models.model.knows?.(id),
    // `Agent(name)` / `Task(name)` deny rules (`--disallowed-tools`): that agent is neither offered nor started.
    refuses: (def) => ([def.name, def.displayName].some((n) => n !== undefined && o.permissions.deniesAgent(n)) ? `a rule of this session denies it (Agent(${def.displayName ?? def.name}))` : undefined),
  };
  const spawner = createChildRuns(runs);
  const card = o.ports.fanout;
  const fanout = card
    ? createFanoutReview({
        ...card,
        agentTypes: () => spawner.agentTypes(),
        defaultType: spawner.defaultType,
        modelId: () => o.models.modelId,
        ...aliases,
        mode: () => o.permissions.mode,
        forecast: (types) => forecastAgents(o.transcriptRoot, o.workdir, types),
        caps,
        emit: (parent, body) => o.bus.emit(parent.agentId, parent.parentId, body),
      })
    : undefined;
  const children = createSubagentDirectory(runs, {
    records,
    conversation: (events, agentId) => replaySession('', events, agentId),
    blobs: o.changes.blobs ?? new BlobStore(blobDirOf(o.store.sessionDir)),
  });
  return { spawner, children, ...(fanout ? { fanout } : {}), problems: [...(agentCatalog?.problems ?? []), ...(preloaded?.problems ?? [])] };
}
