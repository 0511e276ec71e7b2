/**
 * A workspace's MCP servers behind a host's gate (the editor: a modal once per server config, input boxes): the
 * files the editor reads and what happens before a server starts. The host answers two questions; the core keys
 * the answer, fills `${input:…}` and keeps the server's config:
 *
 *   <cwd>/.mcp.json, <cwd>/.vscode/mcp.json (VS Code's; wins for a name both define)
 *     ─▶ each server at its start ─▶ gate.approve(what it runs, a hash of its config) ─▶ gate.input(each ${input:id})
 *                                     (a changed command, argument, env or URL has another hash: asked again)
 */
import { createHash } from '../crypto-when-used';
import { join } from 'node:path';
import { describeServer, serverFingerprint, withInputs, type McpConfigFile, type McpInputSpec, type McpServerConfig } from '../mcp/config';

/** What the host shows before a workspace's server starts. */
export interface McpServerQuestion {
  server: string;
  /** The file it comes from, relative to the workspace. */
  file: string;
  /** What would run: the command and its arguments, or the URL. */
  runs: string;
  /** Names of the environment variables it gets (values can be secrets). */
  envNames: string[];
}

/** The host's port (ResolveInput.mcpGate): whether a workspace's server starts, and the values of its inputs. */
export interface McpServerGate {
  /** True: it starts; else why not (the session's notice says it). `key`: a hash of the server's config. */
  approve(question: McpServerQuestion, key: string): Promise<true | { skipped: string }>;
  /** The value of one `${input:id}`; undefined: not given (the server is not started). */
  input(spec: McpInputSpec, server: string): Promise<string | undefined>;
}

/** The editor's two files: Claude Code's format and VS Code's. */
export function gatedMcpFiles(cwd: string): McpConfigFile[] {
  return [
    { path: join(cwd, '.mcp.json'), origin: 'project', optional: true },
    { path: join(cwd, '.vscode', 'mcp.json'), origin: 'project', optional: true },
  ];
}

/** A server's start through the gate (SessionMcpConfig.host.prepare). */
export async function prepareGated(gate: McpServerGate, server: McpServerConfig, cwd: string): Promise<McpServerConfig | { skipped: string }> {
  const key = createHash('sha256').update(serverFingerprint(server)).digest('hex');
  const question: McpServerQuestion = { server: server.name, file: relative(cwd, server.source), runs: describeServer(server), envNames: Object.keys(server.env) };
  const approved = await gate.approve(question, key);
  if (approved !== true) return approved;
  const values = new Map<string, string>();
  for (const input of server.inputs) {
    const value = await gate.input(input, server.name);
    if (value === undefined) return { skipped: `the input "${input.id}" was not given` };
    values.set(input.id, value);
  }
  return withInputs(server, values);
}

function relative(cwd: string, file: string): string {
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}
