/**
 * MCP servers for a headless run: the folder's `.mcp.json` (unless --strict-mcp-config) and every --mcp-config,
 * started as found (the caller vouches for the folder, as with Claude Code's `-p`). What cannot be used is one
 * stderr line each (file and why); servers that fail or die are said as it happens. Without any config nothing
 * of the MCP SDK is loaded.
 *
 * The CLI does not read `.vscode/mcp.json`: its `${input:…}` values are asked for in the editor, and a headless
 * run has no one to ask. `--mcp-config .vscode/mcp.json` reads it all the same (servers needing inputs are reported).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeServer, loadMcpConfigs, type McpConfigFile, type McpServerConfig } from '../core/mcp/config';
import type { McpServerStatus } from '../core/mcp/server-connection';
import { mcpTimeoutsFromEnv, type SessionMcpConfig } from '../core/mcp/session-mcp';
import type { CliOptions } from './args';
import type { Writers } from './output';

declare const DELEGATE_VERSION: string;

export async function cliMcpConfig(options: CliOptions, workdir: string, env: NodeJS.ProcessEnv, out: Writers): Promise<SessionMcpConfig | undefined> {
  const files: McpConfigFile[] = [
    ...(options.strictMcpConfig ? [] : [{ path: join(workdir, '.mcp.json'), origin: 'project' as const, optional: true }]),
    ...options.mcpConfigs.map((arg): McpConfigFile => {
      const inline = arg.trimStart().startsWith('{');
      // A relative path is the shell's, as for any file argument (not --cwd's).
      return { path: inline ? '--mcp-config (inline JSON)' : resolve(arg), origin: 'explicit', optional: false, ...(inline ? { text: arg } : {}) };
    }),
  ];
  const set = await loadMcpConfigs(files, { workspaceFolder: workdir, env, userHome: homedir() });
  for (const problem of set.problems) {
    out.stderr(`delegate: MCP config ${problem.file}${problem.server !== undefined ? `, server "${problem.server}"` : ''}: ${problem.message}\n`);
  }
  if (set.servers.length === 0) return undefined;
  const byName = new Map(set.servers.map((s) => [s.name, s]));
  return {
    servers: set.servers,
    ...mcpTimeoutsFromEnv(env),
    clientVersion: typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev',
    host: {
      prepare: async (server) => (server.inputs.length > 0 ? { skipped: needsInputs(server) } : server),
      onStatus: (status) => {
        const line = statusLine(status, byName.get(status.server), options.verbose);
        if (line) out.stderr(line);
      },
    },
  };
}

function needsInputs(server: McpServerConfig): string {
  return `it needs ${server.inputs.map((i) => `\${input:${i.id}}`).join(', ')}, which only the editor can ask for`;
}

/** One stderr line: failures and restarts always, connections with -v. */
export function statusLine(status: McpServerStatus, server: McpServerConfig | undefined, verbose: boolean): string | undefined {
  const name = `MCP server "${status.server}"${server ? ` (${server.source})` : ''}`;
  switch (status.state) {
    case 'failed':
      return `delegate: ${name} failed: ${status.detail ?? 'unknown reason'}; its tools are not available${server ? ` (it runs: ${describeServer(server)})` : ''}\n`;
    case 'restarting':
      return `delegate: ${name} stopped: ${status.detail ?? 'unknown reason'}; restarting it once\n`;
    case 'closed':
      return status.detail ? `delegate: ${name} was not started: ${status.detail}\n` : undefined;
    case 'connected':
      return verbose ? `delegate: ${name}: connected (${status.detail ?? 'stdio'}), ${status.tools} tools\n` : undefined;
    default:
      return undefined;
  }
}
