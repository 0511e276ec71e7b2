/**
 * MCP servers for a headless run: the folder's `.mcp.json` (unless --strict-mcp-config) and every --mcp-config;
 * the folder's start only where it is trusted (folder-trust.ts: the session holds them until it knows). What cannot
 * be used, and servers that fail or die, are the session's notices: one stderr line each (file and why). Without any
 * config nothing of the MCP SDK is loaded.
 *
 * The CLI does not read `.vscode/mcp.json`: its `${input:…}` values are asked for in the editor, and a headless
 * run has no one to ask. `--mcp-config .vscode/mcp.json` reads it all the same (servers needing inputs are reported).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliOptions } from './args';
import { loadMcpConfigs, type McpConfigFile, type McpServerConfig, mcpTimeoutsFromEnv, type SessionMcpConfig, type ToolEnv } from '../core/session';

declare const DELEGATE_VERSION: string;

/** `${VAR}` in the configs expands from `toolEnv` (what the servers may see), the timeouts come from `env`. */
export async function cliMcpConfig(options: CliOptions, workdir: string, env: NodeJS.ProcessEnv, toolEnv: ToolEnv): Promise<SessionMcpConfig | undefined> {
  const files: McpConfigFile[] = [
    ...(options.strictMcpConfig ? [] : [{ path: join(workdir, '.mcp.json'), origin: 'project' as const, optional: true }]),
    ...options.mcpConfigs.map((arg): McpConfigFile => {
      const inline = arg.trimStart().startsWith('{');
      // A relative path is the shell's, as for any file argument (not --cwd's).
      return { path: inline ? '--mcp-config (inline JSON)' : resolve(arg), origin: 'explicit', optional: false, ...(inline ? { text: arg } : {}) };
    }),
  ];
  const set = await loadMcpConfigs(files, { workspaceFolder: workdir, env: toolEnv.build(), withheld: (name) => toolEnv.withholds(name), userHome: homedir() });
  const servers = set.servers.filter((s) => s.inputs.length === 0);
  const problems = [...set.problems, ...set.servers.filter((s) => s.inputs.length > 0).map((s) => ({ file: s.source, server: s.name, message: needsInputs(s) }))];
  if (servers.length === 0 && problems.length === 0) return undefined;
  // Problems and server failures become the session's notices: stderr lines (connections too with -v).
  return {
    servers,
    problems,
    ...mcpTimeoutsFromEnv(env),
    clientVersion: typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev',
  };
}

function needsInputs(server: McpServerConfig): string {
  return `it needs ${server.inputs.map((i) => `\${input:${i.id}}`).join(', ')}, which only the editor can ask for`;
}
