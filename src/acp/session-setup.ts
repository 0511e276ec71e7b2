/**
 * What a Delegate session needs for one ACP session, from the environment the client started `delegate acp` in
 * and the session request: the key, the model, the folder's settings files, and the MCP servers (the folder's
 * `.mcp.json` and the client's, the client's winning on a shared name).
 *
 *   env (ANTHROPIC_API_KEY…, DELEGATE_MODEL…) ─┐
 *   session/new | session/load (cwd, mcpServers)├─▶ SessionConfig minus the host's ports (approver, fileOps)
 *   <cwd>/.mcp.json, settings, AGENTS.md … ────┘
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk/unstable';
import { DEFAULT_MODEL, parseAliases } from '../cli/run';
import { createAnthropicModel } from '../core/session/model';
import { loadMcpConfigs, loadWorkspaceFiles, mcpTimeoutsFromEnv, ToolEnv, type McpServerConfig, type ModelPort, type SessionConfig, type SessionMcpConfig } from '../core/session';
import type { PermissionMode } from '../core/vocabulary';

declare const DELEGATE_VERSION: string;

export interface AcpSettings {
  model?: string;
  mode: PermissionMode;
  /** `--trust-folder`: every session's folder runs its own hooks and servers without asking (acp/folder-trust.ts). */
  trustFolder?: boolean;
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

export async function sessionSettings(
  cwd: string,
  clientServers: readonly McpServer[],
  settings: AcpSettings,
  env: NodeJS.ProcessEnv,
  transcriptRoot: string,
): Promise<AcpSessionConfig> {
  const key = credentials(env) ?? {};
  const model = createAnthropicModel({ ...key, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) });
  // Commands, hooks and MCP servers get this environment less the credentials (the key above among them).
  const toolEnv = new ToolEnv({ secrets: () => Object.values(key), source: () => env });
  const [workspaceFiles, mcp] = await Promise.all([loadWorkspaceFiles({ workdir: cwd, home: homedir() }), mcpConfig(cwd, clientServers, env, toolEnv)]);
  return {
    workdir: cwd,
    model: { id: settings.model ?? env.DELEGATE_MODEL ?? DEFAULT_MODEL, ...(env.DELEGATE_MODEL_ALIASES ? { aliases: parseAliases(env.DELEGATE_MODEL_ALIASES) } : {}) },
    permissions: { mode: settings.mode },
    tools: { env: toolEnv, ...(mcp ? { mcp } : {}), webSearch: !env.ANTHROPIC_BASE_URL },
    files: { ...workspaceFiles, agentFiles: { home: homedir(), includeProject: true } },
    persistence: { transcriptRoot },
    port: model,
  };
}

async function mcpConfig(cwd: string, clientServers: readonly McpServer[], env: NodeJS.ProcessEnv, toolEnv: ToolEnv): Promise<SessionMcpConfig | undefined> {
  // `${VAR}` in the folder's .mcp.json expands from what its servers may see: a repository's config cannot ask for the key.
  const set = await loadMcpConfigs([{ path: join(cwd, '.mcp.json'), origin: 'project', optional: true }], { workspaceFolder: cwd, env: toolEnv.build(), withheld: (name) => toolEnv.withholds(name), userHome: homedir() });
  const fromClient = clientServers.map(fromAcp).filter((s): s is McpServerConfig => s !== undefined);
  const names = new Set(fromClient.map((s) => s.name));
  const servers = [...set.servers.filter((s) => s.inputs.length === 0 && !names.has(s.name)), ...fromClient];
  if (servers.length === 0 && set.problems.length === 0) return undefined;
  return { servers, problems: set.problems, ...mcpTimeoutsFromEnv(env), clientVersion: typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev' };
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
