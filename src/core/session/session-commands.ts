/**
 * What runs commands besides `bash`: MCP servers (started now, in the background; their tools join the catalog as
 * each connects) and the settings files' command hooks (installed into the session's registry). The folder's own
 * wait for the host's word on it (folder-trust.ts); both get the session's tool environment, never the credentials.
 *
 *   config.tools.mcp, config.files.commandHooks ─▶ gateFolderCommands(ports.folderTrust) ─┬─▶ attachMcp
 *                                                                                         ├─▶ installCommandHooks
 *                                                                                         └─▶ the first prompt's notice
 */
import type { EventBus } from '../events';
import type { ChangeTracker } from '../changes/change-tracker';
import { installCommandHooks } from '../hooks/command-hooks';
import type { HookRegistry } from '../policy/hooks';
import type { PermissionPolicy } from '../policy/permission-policy';
import type { ToolEnv } from '../secrets/tool-env';
import type { TranscriptStore } from '../store/transcript-store';
import type { ProcessGroups } from '../tools/process-groups';
import { gateFolderCommands } from './folder-trust';
import { attachMcp, type Notify, type SessionMcp } from './mcp';
import type { SessionConfig } from './session-config';
import type { ToolCatalog } from './tool-catalog';

export interface SessionCommandsOptions {
  sessionId: string;
  config: Pick<SessionConfig, 'workdir' | 'tools' | 'files' | 'ports'>;
  env: ToolEnv;
  catalog: ToolCatalog;
  hooks: HookRegistry;
  permissions: PermissionPolicy;
  bus: EventBus;
  store: TranscriptStore;
  processes: ProcessGroups;
  changes: ChangeTracker;
  notify: Notify;
  /** An isolated subagent's worktree (isolation-rooms.ts): its hooks run there. */
  workdirOf?: (agentId: string) => string | undefined;
}

export interface SessionCommands {
  mcp: SessionMcp | undefined;
  /** At the first prompt: the one line saying what of the folder's did not run, when something did not. */
  folderNotice(): Promise<string | undefined>;
  /** Whether the folder's own may run or apply (its skills' allowed-tools wait for it). */
  folderTrusted(): Promise<boolean>;
}

export function startSessionCommands(o: SessionCommandsOptions): SessionCommands {
  const { workdir } = o.config;
  const commandHooks = o.config.files?.commandHooks;
  // The folder's own hooks and servers wait for the host's word on the folder (the CLI, ACP; folder-trust.ts).
  const folder = gateFolderCommands(o.config.ports.folderTrust, workdir, commandHooks, o.config.tools?.mcp, o.config.files?.skills);
  // MCP servers start now; their tools join the catalog as each connects.
  const mcp = attachMcp(folder.mcp, workdir, o.catalog, (name) => o.permissions.offers(name), o.notify, (tool) => o.changes.wrapCall(tool), o.env);
  if (commandHooks) {
    installCommandHooks(o.hooks, commandHooks, {
      sessionId: o.sessionId,
      workdir,
      transcriptPath: o.store.sessionFile,
      agentTranscriptPath: (agentId) => o.store.agentFile(agentId),
      permissionMode: () => o.permissions.mode,
      bus: o.bus,
      processes: o.processes,
      ...(folder.admit ? { admit: folder.admit } : {}),
      ...(o.workdirOf ? { workdirOf: o.workdirOf } : {}),
      env: o.env,
    });
  }
  return { mcp, folderNotice: folder.notice, folderTrusted: folder.trusted };
}
