/**
 * MCP in a session: the manager, its tools as ordinary entries of the session's tools (its ToolCatalog,
 * so an agent's tool filter can name them like any other tool), and what it has to say as `notice` events
 * (the panel shows them, the CLI prints them on stderr):
 *
 *   config problems (file, server, why)    warning    once, at the first prompt
 *   a server failed for good               error      when it happens (its tools then return errors)
 *   a server died and is restarted         warning
 *   a server was not started (declined…)   info
 *   a server connected                     info       (the CLI shows info notices with -v)
 *   the first request's wait ended with a  warning    naming the server, the step it is stuck at ("initialize")
 *   server still starting (a silent one)              and the wait that expired; dropped if it connects or
 *                                                     fails before anyone was told (that notice says it all)
 *
 * Notices wait for the first prompt (a host subscribes to the bus after creating the session); after that they
 * go out as they happen. Registries are not changed in place: each new batch of tools makes a new one, which
 * agents started from then on get.
 */
import type { AnyTool } from '../tools/types';
import type { McpServerConfig } from '../mcp/config';
import { McpManager, type SessionMcpConfig } from '../mcp/mcp-manager';
import { seconds, type McpServerStatus, type McpStartPhase } from '../mcp/server-connection';
import type { ToolCatalog } from './tool-catalog';
import type { ToolEnv } from '../secrets/tool-env';

export type { SessionMcpConfig } from '../mcp/mcp-manager';

const DEFAULT_MCP_WAIT_MS = 5000;

export type NoticeLevel = 'info' | 'warning' | 'error';
export type Notify = (level: NoticeLevel, text: string, source?: string) => Promise<void>;

export interface SessionMcp {
  /** Undefined when the session has no servers (only config problems to say). */
  readonly manager: McpManager | undefined;
  /** Before a prompt: servers still starting get their bounded wait (only the first prompt ever waits). */
  ready(): Promise<void>;
}

/**
 * Starts the servers in the background; undefined (and nothing loaded) when there is nothing to start or say.
 * `watch` wraps each tool as it joins (the change tracker: the files a call changes are found and journalled).
 */
export function attachMcp(
  config: SessionMcpConfig | undefined,
  workdir: string,
  catalog: ToolCatalog,
  offers: (name: string) => boolean,
  notify: Notify,
  watch: (tool: AnyTool) => AnyTool = (tool) => tool,
  toolEnv?: ToolEnv,
): SessionMcp | undefined {
  if (!config || (config.servers.length === 0 && !config.problems?.length)) return undefined;
  const pending: [NoticeLevel, string, string | undefined, string?][] = [];
  let live = false;
  /** `slow`: a "still starting" notice about that server, which its connect or failure makes moot. */
  const say = (level: NoticeLevel, text: string, source?: string, slow?: string): void => {
    if (live) void notify(level, text, source);
    else pending.push([level, text, source, slow]);
  };
  const unsaySlow = (server: string): void => {
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i]?.[3] === server) pending.splice(i, 1);
  };
  for (const p of config.problems ?? []) say('warning', p.server !== undefined ? `MCP server "${p.server}": ${p.message}` : `MCP config ${p.message}`, p.file);
  const sources = new Map(config.servers.map((s) => [s.name, s]));
  const waitMs = config.waitMs ?? DEFAULT_MCP_WAIT_MS;
  const manager =
    config.servers.length === 0
      ? undefined
      : new McpManager(config.servers, {
          workdir,
          ...(toolEnv ? { toolEnv } : {}),
          host: {
            ...(config.host?.prepare ? { prepare: config.host.prepare } : {}),
            onStatus: (status) => {
              config.host?.onStatus?.(status);
              if (status.state === 'connected' || status.state === 'failed') unsaySlow(status.server);
              const notice = statusNotice(status, sources.get(status.server));
              if (notice) say(...notice);
            },
          },
          onStillStarting: ({ server, phase, waitedMs, connectTimeoutMs }) => say('warning', stillStarting(server, phase, waitedMs, connectTimeoutMs), sources.get(server)?.source, server),
          ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
          ...(config.toolTimeoutMs !== undefined ? { toolTimeoutMs: config.toolTimeoutMs } : {}),
          ...(config.clientVersion !== undefined ? { clientVersion: config.clientVersion } : {}),
          onTools: (tools: AnyTool[]) => {
            catalog.add(tools.filter((t) => offers(t.name)).map(watch));
          },
        });
  void manager?.start(waitMs);
  return {
    manager,
    ready: async () => {
      await manager?.start(waitMs);
      if (live) return;
      live = true;
      for (const [level, text, source] of pending.splice(0)) await notify(level, text, source);
    },
  };
}

/** `MCP server "docs" has not answered "initialize" within 5 s: …`: the wait that expired, and what happens next. */
function stillStarting(server: string, phase: McpStartPhase, waitedMs: number, connectTimeoutMs: number): string {
  const what = phase === 'spawn' ? 'has not started' : phase === 'initialize' ? 'has not answered "initialize"' : 'has not sent its tool list';
  // The wait is MCP_TIMEOUT when that is shorter: then its first start has just timed out and one more follows.
  return connectTimeoutMs > waitedMs
    ? `MCP server "${server}" ${what} within ${seconds(waitedMs)}: the first request goes without its tools (they join later if it answers; MCP_TIMEOUT gives it ${seconds(connectTimeoutMs)}, and one restart)`
    : `MCP server "${server}" ${what} within ${seconds(waitedMs)} (MCP_TIMEOUT): the first request goes without its tools (it is started once more; they join later if it answers)`;
}

function statusNotice(status: McpServerStatus, server: McpServerConfig | undefined): [NoticeLevel, string, string | undefined] | undefined {
  const name = `MCP server "${status.server}"`;
  const source = server?.source;
  switch (status.state) {
    case 'failed':
      return ['error', `${name} failed: ${status.detail ?? 'unknown reason'}; its tools are not available`, source];
    case 'restarting':
      return ['warning', `${name} stopped: ${status.detail ?? 'unknown reason'}; restarting it once`, source];
    case 'closed':
      return status.detail ? ['info', `${name} was not started: ${status.detail}`, source] : undefined;
    case 'connected':
      return ['info', `${name}: connected (${status.detail ?? 'stdio'}), ${status.tools} tools`, source];
    default:
      return undefined;
  }
}
