/**
 * The MCP servers a session starts with. The CLI, ACP and the Action (through the CLI) read these; the editor
 * gives a gate instead (mcp-gate.ts: its two workspace files, each server approved before it starts):
 *
 *   <cwd>/.mcp.json (unless strictMcpConfig) ─┐
 *   mcpConfigs (--mcp-config files, inline JSON)├─▶ servers (a named file's wins over a same-named one; the
 *   mcpServers (an ACP client's) ──────────────┘    client's over both) + problems (said once, as notices)
 *   MCP_TIMEOUT, MCP_TOOL_TIMEOUT ─▶ the waits
 *
 * `${VAR}` in a config expands from what its servers may see (the tool environment: credentials withheld), so a
 * repository's config cannot ask for the key. A server still holding `${input:…}` needs the editor to ask for it:
 * here it is a problem, not a server. Without any server nor problem: undefined (no MCP SDK is loaded); with the
 * editor's gate the config stays, empty, as the approval step an agent file's own servers go through.
 */
import { resolve, join } from 'node:path';
import { loadMcpConfigs, type McpConfigFile, type McpServerConfig } from '../mcp/config';
import type { SessionMcpConfig } from '../mcp/mcp-manager';
import type { ToolEnv } from '../secrets/tool-env';
import type { SessionOverrides } from './setting-table';
import { gatedMcpFiles, prepareGated, type McpServerGate } from './mcp-gate';

declare const DELEGATE_VERSION: string;

/** Claude Code's variables for the two timeouts (milliseconds): MCP_TIMEOUT (start), MCP_TOOL_TIMEOUT (a call). */
function mcpTimeoutsFromEnv(env: Readonly<Record<string, string | undefined>>): Pick<SessionMcpConfig, 'connectTimeoutMs' | 'toolTimeoutMs'> {
  const ms = (raw: string | undefined): number | undefined => {
    const n = Number(raw);
    return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const connect = ms(env.MCP_TIMEOUT);
  const tool = ms(env.MCP_TOOL_TIMEOUT);
  return { ...(connect !== undefined ? { connectTimeoutMs: connect } : {}), ...(tool !== undefined ? { toolTimeoutMs: tool } : {}) };
}

export interface McpSettingsInput {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  toolEnv: ToolEnv;
  overrides: Pick<SessionOverrides, 'mcpConfigs' | 'strictMcpConfig' | 'mcpServers' | 'mcpTimeout' | 'mcpToolTimeout'>;
  /** The host approves each workspace server and gives its inputs (the editor): the gate's files, not the ones above. */
  gate?: McpServerGate;
}

export async function loadSessionMcp(input: McpSettingsInput): Promise<SessionMcpConfig | undefined> {
  const { cwd, home, env, toolEnv, overrides, gate } = input;
  if (gate) {
    const set = await loadMcpConfigs(gatedMcpFiles(cwd), { workspaceFolder: cwd, env: toolEnv.build(), withheld: (name) => toolEnv.withholds(name), userHome: home });
    // Without servers the config is still the approval step, which an agent file's own servers go through
    // (session/agent-mcp.ts); nothing starts and no MCP SDK loads for it.
    return { servers: set.servers, problems: set.problems, ...mcpTimeoutsFromEnv(env), host: { prepare: (server) => prepareGated(gate, server, cwd) } };
  }
  const files: McpConfigFile[] = [
    ...(overrides.strictMcpConfig ? [] : [{ path: join(cwd, '.mcp.json'), origin: 'project' as const, optional: true }]),
    ...(overrides.mcpConfigs ?? []).map((arg): McpConfigFile => {
      const inline = arg.trimStart().startsWith('{');
      // A relative path is the shell's, as for any file argument (not the session's folder).
      return { path: inline ? '--mcp-config (inline JSON)' : resolve(arg), origin: 'explicit', optional: false, ...(inline ? { text: arg } : {}) };
    }),
  ];
  const set = await loadMcpConfigs(files, { workspaceFolder: cwd, env: toolEnv.build(), withheld: (name) => toolEnv.withholds(name), userHome: home });
  const fromClient = overrides.mcpServers ?? [];
  const clientNames = new Set(fromClient.map((s) => s.name));
  const servers = [...set.servers.filter((s) => s.inputs.length === 0 && !clientNames.has(s.name)), ...fromClient];
  const problems = [...set.problems, ...set.servers.filter((s) => s.inputs.length > 0).map((s) => ({ file: s.source, server: s.name, message: needsInputs(s) }))];
  if (servers.length === 0 && problems.length === 0) return undefined;
  const timeouts = mcpTimeoutsFromEnv(env);
  return {
    servers,
    problems,
    ...timeouts,
    ...(overrides.mcpTimeout !== undefined ? { connectTimeoutMs: overrides.mcpTimeout } : {}),
    ...(overrides.mcpToolTimeout !== undefined ? { toolTimeoutMs: overrides.mcpToolTimeout } : {}),
    clientVersion: typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev',
  };
}

function needsInputs(server: McpServerConfig): string {
  return `it needs ${server.inputs.map((i) => `\${input:${i.id}}`).join(', ')}, which only the editor can ask for`;
}
