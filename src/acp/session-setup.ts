/**
 * What a Delegate session needs for one ACP session: the settings resolver's (core/settings/resolve-settings.ts,
 * the CLI's too) from the environment the client started `delegate acp` in, its flags, and the session request's
 * folder and MCP servers (the client's win over the folder's `.mcp.json` on a shared name); the model port on top.
 *
 *   env (ANTHROPIC_API_KEY…, DELEGATE_*) ───────┐
 *   delegate acp --model, --tool-env … ──────────┼─▶ resolveSessionConfig ─▶ SessionConfig minus the host's ports
 *   session/new | session/load (cwd, mcpServers) ┘                            (approver, fileOps), + the model port
 */
import type { McpServer } from '@agentclientprotocol/sdk/unstable';
import { createAnthropicModel } from '../core/session/model';
import { resolveSessionConfig, type McpServerConfig, type SessionConfig, type SessionOverrides } from '../core/session';
import { type ModelPort } from '../core/session/model-port';

export interface AcpSettings {
  /** What `delegate acp`'s flags set (--model, --permission-mode, --tool-env); the rest comes from the environment. */
  overrides: SessionOverrides;
  /** `--trust-folder`: every session's folder runs its own hooks and servers without asking (acp/folder-trust.ts). */
  trustFolder?: boolean;
  /** `--confirm-fanout`: when the client is asked before subagents start (acp/fanout-request.ts); default auto. */
  confirmFanout?: 'auto' | 'always' | 'never';
}

/** The key the session runs with, or undefined: then the client is told to authenticate. */
export function credentials(env: NodeJS.ProcessEnv): { apiKey?: string; authToken?: string } | undefined {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  if (!apiKey && !authToken) return undefined;
  return { ...(apiKey ? { apiKey } : {}), ...(authToken ? { authToken } : {}) };
}

/** A session's config less what the ACP session adds (approver, questions, file ops, folder trust), with the model port. */
export type AcpSessionConfig = Omit<SessionConfig, 'ports'> & { port: ModelPort };

export const HOW_TO_AUTHENTICATE =
  'set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the environment the client starts `delegate acp` with (e.g. the "env" of its agent server entry), then restart the agent';

/** The session's config, and the lines to log (a --tool-env name not set); a bad setting's one line otherwise. */
export async function sessionSettings(
  cwd: string,
  clientServers: readonly McpServer[],
  settings: AcpSettings,
  env: NodeJS.ProcessEnv,
  transcriptRoot: string,
): Promise<{ config: AcpSessionConfig; notes: string[] } | { error: string }> {
  const mcpServers = clientServers.map(fromAcp).filter((s): s is McpServerConfig => s !== undefined);
  const resolved = await resolveSessionConfig({ cwd, env, overrides: { ...settings.overrides, mcpServers, transcriptRoot }, trusted: true, host: 'acp' });
  if ('error' in resolved) return resolved;
  const { api, notes, transcriptRoot: root, ...config } = resolved;
  const port = createAnthropicModel({ ...api.credentials, ...(api.baseUrl ? { baseURL: api.baseUrl } : {}), retryWait: api.retryWait });
  return { config: { ...config, persistence: { transcriptRoot: root }, port }, notes };
}

/** A client's MCP server as Delegate's config (stdio, HTTP or SSE; an `acp` transport is not offered). */
function fromAcp(server: McpServer): McpServerConfig | undefined {
  const base = { name: server.name, source: 'the ACP client', origin: 'explicit' as const, inputs: [] };
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { ...base, transport: server.type, args: [], env: {}, url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) };
  }
  if ('command' in server) {
    return { ...base, transport: 'stdio', command: server.command, args: server.args, env: Object.fromEntries(server.env.map((v) => [v.name, v.value])), headers: {} };
  }
  return undefined;
}
