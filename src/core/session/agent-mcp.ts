/**
 * An agent file's own MCP servers (Claude Code's `mcpServers`): started when that agent starts, its tools for it
 * alone, stopped when it finishes — the session and its other agents never see them.
 *
 *   child starts ─▶ its inline entries, read as .mcp.json's are ─▶ the folder's trust (a project agent's) and the
 *                   host's prepare (the editor's approval) ─▶ one McpManager ─▶ connected, or failed (a notice)
 *   child runs with them ─▶ child ends (any way) ─▶ close(): TERM, then KILL, of every server process
 *
 * A name (`- github`) refers to a server the session configured: it already has its tools (shared connection);
 * a name the session does not have is one notice. A project agent file's servers are the folder's commands, as its
 * .mcp.json's are: they wait for the same answer about the folder and are skipped, with a notice, when it is no.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { loadAgentCatalog } from '../agent-files/agent-catalog';
import type { AgentDefinition } from '../agent-files/agent-definition';
import { loadMcpConfigs, type McpServerConfig } from '../mcp/config';
import { McpManager, type McpHost } from '../mcp/mcp-manager';
import type { ToolEnv } from '../secrets/tool-env';
import type { AnyTool } from '../tools/types';
import type { FolderCommand, FolderTrust } from './folder-trust';
import type { Notify } from './mcp';

export interface AgentServers {
  /** Its servers' tools (what connected, wrapped as the session's are). */
  tools: AnyTool[];
  /** Stops its servers: called when the agent's run ends. */
  close(): Promise<void>;
}

export interface AgentServersOptions {
  workdir: string;
  home: string;
  env: ToolEnv;
  folderTrust: FolderTrust | undefined;
  /** The host's own step before a server starts (the editor's approval), as for the session's servers. */
  prepare?: McpHost['prepare'];
  connectTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** The session's configured servers, for names in `mcpServers`. */
  sessionServers(): readonly string[];
  /** A disallowed tool is not offered (the session's rules). */
  offers(name: string): boolean;
  /** The change tracker's wrapper, as every MCP tool of the session gets. */
  watch(tool: AnyTool): AnyTool;
  notify: Notify;
}

/** What starts an agent's own servers; undefined for an agent without any. Every open manager is in `live` until closed. */
export function agentServerStarter(o: AgentServersOptions): { start(def: AgentDefinition): Promise<AgentServers | undefined>; killNow(): void } {
  const live = new Set<McpManager>();
  const start = async (def: AgentDefinition): Promise<AgentServers | undefined> => {
    const servers = def.mcpServers;
    if (!servers) return undefined;
    const who = `agent "${def.displayName ?? def.name}"`;
    const known = new Set(o.sessionServers());
    for (const ref of servers.refs) {
      if (!known.has(ref) && !(ref in servers.inline)) await o.notify('warning', `${who} names the MCP server "${ref}", which this session has not configured: it runs without it`, def.source);
    }
    if (Object.keys(servers.inline).length === 0) return undefined;
    const origin = def.scope === 'project' ? 'project' : 'explicit';
    const set = await loadMcpConfigs([{ path: def.source, origin, optional: false, text: JSON.stringify({ mcpServers: servers.inline }) }], {
      workspaceFolder: o.workdir,
      env: o.env.build(),
      withheld: (name) => o.env.withholds(name),
      userHome: o.home,
    });
    for (const p of set.problems) await o.notify('warning', `${who}: MCP server${p.server !== undefined ? ` "${p.server}"` : 's'}: ${p.message}`, def.source);
    const usable = set.servers.filter((s) => s.inputs.length === 0);
    if (usable.length === 0) return undefined;
    const tools: AnyTool[] = [];
    const notices: Promise<void>[] = [];
    const manager = new McpManager(usable, {
      workdir: o.workdir,
      toolEnv: o.env,
      host: {
        prepare: (server) => prepare(server, o),
        onStatus: (status) => {
          if (status.state === 'failed') notices.push(o.notify('error', `${who}: MCP server "${status.server}" failed: ${status.detail ?? 'unknown reason'}; it runs without its tools`, def.source));
          else if (status.state === 'closed' && status.detail) notices.push(o.notify('warning', `${who}: MCP server "${status.server}" was not started: ${status.detail}`, def.source));
          else if (status.state === 'connected') notices.push(o.notify('info', `${who}: MCP server "${status.server}": connected, ${status.tools} tools (for this agent only)`, def.source));
        },
      },
      ...(o.connectTimeoutMs !== undefined ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
      ...(o.toolTimeoutMs !== undefined ? { toolTimeoutMs: o.toolTimeoutMs } : {}),
      onTools: (fresh) => tools.push(...fresh.filter((t) => o.offers(t.name)).map(o.watch)),
    });
    live.add(manager);
    // The agent starts once each server is connected or has failed: its tool list is fixed for its run.
    await manager.start(Number.MAX_SAFE_INTEGER);
    await Promise.all(notices);
    return {
      tools,
      close: async () => {
        await manager.close();
        live.delete(manager);
      },
    };
  };
  return { start, killNow: () => [...live].forEach((m) => m.killNow()) };
}

/** A project agent's server waits for the folder's trust, as .mcp.json's do; then the host's own step. */
async function prepare(server: McpServerConfig, o: AgentServersOptions): Promise<McpServerConfig | { skipped: string }> {
  if (server.origin === 'project' && o.folderTrust) {
    const answer = await o.folderTrust.answer();
    if (!answer.trusted) return { skipped: `this folder is not trusted, and the agent file is the folder's (it runs ${server.command ?? server.url ?? 'a command'} outside the sandbox): ${answer.howToTrust}` };
  }
  return o.prepare ? o.prepare(server) : server;
}

/**
 * What the folder's agent files would run (their inline `mcpServers`, their `hooks`), for the host's question about the folder
 * beside folderCommands' hooks and .mcp.json servers: a host asks only when the folder has something to run.
 */
export async function agentFileCommands(workdir: string, agentFiles: { includeProject: boolean } | undefined): Promise<FolderCommand[]> {
  if (!agentFiles?.includeProject || !(await mayRunCommands(workdir))) return [];
  const { agents } = await loadAgentCatalog({ workdir, includeProject: true, knownTools: new Set() });
  return [...agents.values()]
    .filter((def) => def.scope === 'project')
    .flatMap((def) => {
      const file = relative(workdir, def.source) || def.source;
      const who = `agent "${def.displayName ?? def.name}"`;
      const servers = Object.entries(def.mcpServers?.inline ?? {}).map(([name, entry]) => ({
        file,
        what: `MCP server "${name}" of ${who}`,
        command: typeof entry.url === 'string' ? entry.url : [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].map(String).join(' '),
      }));
      // Its hooks (agent-hooks.ts), as settings.json writes them: {Event: [{matcher, hooks: [{command}]}]}.
      const hooks = Object.entries(def.hooks ?? {}).flatMap(([event, groups]) =>
        (Array.isArray(groups) ? groups : []).flatMap((group: { hooks?: unknown }) =>
          (Array.isArray(group?.hooks) ? group.hooks : []).flatMap((hook: { command?: unknown }) => (typeof hook?.command === 'string' ? [{ file, what: `${event} hook of ${who}`, command: hook.command }] : [])),
        ),
      );
      return [...servers, ...hooks];
    });
}

/** Whether any project agent file has a `mcpServers:` or `hooks:` line: only then is the catalog read (start-up cost). */
async function mayRunCommands(workdir: string): Promise<boolean> {
  for (const [dir, suffix] of [[join(workdir, '.claude', 'agents'), '.md'], [join(workdir, '.github', 'agents'), '.agent.md']] as const) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith(suffix))) {
      // Looked at first: a FIFO (or a link to /dev/stdin) would wait for ever, /dev/zero never end.
      const file = join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.size > 1_000_000) continue;
      const text = await readFile(file, 'utf8').catch(() => '');
      if (/^(?:mcpServers|hooks)\s*:/m.test(text)) return true;
    }
  }
  return false;
}
