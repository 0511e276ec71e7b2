/**
 * MCP in a session: the manager, and its tools as ordinary entries of the session's registry
 * (`services.baseTools`), so an agent's tool filter can name them like any other tool. Registries are not
 * changed in place: each new batch of tools makes a new one, which agents started from then on get.
 */
import type { RunServices } from '../agent/types';
import type { AnyTool } from '../tools/types';
import type { McpServerConfig } from './config';
import { McpManager, type McpHost } from './mcp-manager';

export interface SessionMcpConfig {
  servers: McpServerConfig[];
  host?: McpHost;
  /** How long a prompt's first request waits for servers still starting (see mcp-manager.ts). Default 5 s. */
  waitMs?: number;
  connectTimeoutMs?: number;
  toolTimeoutMs?: number;
  clientVersion?: string;
}

export const DEFAULT_MCP_WAIT_MS = 5000;

/** Claude Code's variables for the two timeouts (milliseconds): MCP_TIMEOUT (start), MCP_TOOL_TIMEOUT (a call). */
export function mcpTimeoutsFromEnv(env: Record<string, string | undefined>): Pick<SessionMcpConfig, 'connectTimeoutMs' | 'toolTimeoutMs'> {
  const ms = (raw: string | undefined): number | undefined => {
    const n = Number(raw);
    return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const connect = ms(env.MCP_TIMEOUT);
  const tool = ms(env.MCP_TOOL_TIMEOUT);
  return { ...(connect !== undefined ? { connectTimeoutMs: connect } : {}), ...(tool !== undefined ? { toolTimeoutMs: tool } : {}) };
}

export interface SessionMcp {
  readonly manager: McpManager;
  /** Before a prompt: servers still starting get their bounded wait (only the first prompt ever waits). */
  ready(): Promise<void>;
}

/** Starts the servers in the background; undefined (and nothing loaded) when there are none. */
export function attachMcp(config: SessionMcpConfig | undefined, services: RunServices, offers: (name: string) => boolean): SessionMcp | undefined {
  if (!config || config.servers.length === 0) return undefined;
  const waitMs = config.waitMs ?? DEFAULT_MCP_WAIT_MS;
  const manager = new McpManager(config.servers, {
    workdir: services.workdir,
    ...(config.host ? { host: config.host } : {}),
    ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
    ...(config.toolTimeoutMs !== undefined ? { toolTimeoutMs: config.toolTimeoutMs } : {}),
    ...(config.clientVersion !== undefined ? { clientVersion: config.clientVersion } : {}),
    onTools: (tools: AnyTool[]) => {
      const current = services.baseTools;
      const added = tools.filter((t) => offers(t.name) && !current.get(t.name));
      if (added.length > 0) services.baseTools = current.with(...added);
    },
  });
  void manager.start(waitMs);
  return { manager, ready: () => manager.start(waitMs) };
}
