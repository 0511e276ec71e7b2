/**
 * The workspace's MCP servers in the editor: `.mcp.json` (Claude Code's format) and `.vscode/mcp.json` (VS Code's,
 * which wins for a name both define). A project file can name any command, so a server starts only
 *
 *   in a trusted workspace ──▶ approved once (a modal with the exact command and arguments, or the URL) ──▶ inputs
 *                              remembered per workspace under a hash of its config:      `${input:id}` asked with an
 *                              a changed command, argument, env or URL asks again        input box (password when the
 *                                                                                         input says so), kept until reload
 *
 * A declined server is not asked about again until the window reloads. Problems with a file, servers that fail and
 * servers not started are the session's notices (the panel shows them). The prompts are injectable, so extension
 * tests answer them without the UI.
 */
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describeServer, loadMcpConfigs, serverFingerprint, withInputs, type McpInputSpec, type McpServerConfig, mcpTimeoutsFromEnv, type SessionMcpConfig, ToolEnv } from '../core/session';
import { readSettings } from './settings';

export interface McpServerQuestion {
  server: string;
  /** The file it comes from, relative to the workspace. */
  file: string;
  /** What would run: the command and its arguments, or the URL. */
  runs: string;
  /** Names of the environment variables it gets (values can be secrets). */
  envNames: string[];
}

export type McpApprovalPrompt = (question: McpServerQuestion) => Promise<boolean>;
export type McpInputPrompt = (input: McpInputSpec, server: string) => Promise<string | undefined>;

const APPROVED_KEY = 'delegate.mcpApprovedServers';
const START = 'Start Server';

export const modalMcpPrompt: McpApprovalPrompt = async (q) => {
  const env = q.envNames.length > 0 ? `\n\nEnvironment: ${q.envNames.join(', ')}` : '';
  const pick = await vscode.window.showWarningMessage(
    `Start the MCP server "${q.server}" from ${q.file}?`,
    { modal: true, detail: `It runs:\n${q.runs}${env}\n\nIts tools then ask before each call (unless the permission mode allows them). You are asked again if this changes.` },
    { title: START },
    { title: "Don't Start", isCloseAffordance: true },
  );
  return pick?.title === START;
};

export const inputBoxPrompt: McpInputPrompt = (input, server) =>
  Promise.resolve(
    vscode.window.showInputBox({ title: `Delegate: MCP server "${server}"`, prompt: input.description, password: input.password, ignoreFocusOut: true, ...(input.default !== undefined ? { value: input.default } : {}) }),
  );

export class EditorMcpServers {
  private readonly inputValues = new Map<string, string>();
  private readonly declined = new Set<string>();
  /** One modal at a time, however many servers start together. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: vscode.Memento,
    public prompt: McpApprovalPrompt = modalMcpPrompt,
    public inputPrompt: McpInputPrompt = inputBoxPrompt,
  ) {}

  /** The session's MCP config for this folder; undefined (nothing loaded) when it has no servers. */
  async configFor(workdir: string): Promise<SessionMcpConfig | undefined> {
    const toolEnv = new ToolEnv({ pass: readSettings().toolEnv });
    const set = await loadMcpConfigs(
      [
        { path: join(workdir, '.mcp.json'), origin: 'project', optional: true },
        { path: join(workdir, '.vscode', 'mcp.json'), origin: 'project', optional: true },
      ],
      // `${VAR}` expands from what the servers may see: a workspace's config cannot ask for a credential.
      { workspaceFolder: workdir, env: toolEnv.build(), withheld: (name) => toolEnv.withholds(name), userHome: homedir() },
    );
    if (set.servers.length === 0 && set.problems.length === 0) return undefined;
    // Problems and failures become the session's notices (the panel shows them).
    return {
      servers: set.servers,
      problems: set.problems,
      ...mcpTimeoutsFromEnv(process.env),
      host: { prepare: (server) => this.prepare(server, workdir) },
    };
  }

  private async prepare(server: McpServerConfig, workdir: string): Promise<McpServerConfig | { skipped: string }> {
    if (!vscode.workspace.isTrusted) return { skipped: 'the workspace is not trusted (trust it, then start a New Session)' };
    const key = createHash('sha256').update(serverFingerprint(server)).digest('hex');
    if (this.declined.has(key)) return { skipped: 'not approved' };
    const approved = this.state.get<string[]>(APPROVED_KEY, []);
    if (!approved.includes(key)) {
      const question: McpServerQuestion = { server: server.name, file: relative(workdir, server.source), runs: describeServer(server), envNames: Object.keys(server.env) };
      const yes = await this.serial(() => this.prompt(question));
      if (!yes) {
        this.declined.add(key);
        return { skipped: 'not approved' };
      }
      await this.state.update(APPROVED_KEY, [...this.state.get<string[]>(APPROVED_KEY, []), key]);
    }
    for (const input of server.inputs) {
      if (this.inputValues.has(input.id)) continue;
      const value = await this.serial(() => this.inputPrompt(input, server.name));
      if (value === undefined) return { skipped: `the input "${input.id}" was not given` };
      this.inputValues.set(input.id, value);
    }
    return withInputs(server, this.inputValues);
  }

  private serial<T>(ask: () => Promise<T>): Promise<T> {
    const next = this.queue.then(ask);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function relative(workdir: string, file: string): string {
  return file.startsWith(`${workdir}/`) ? file.slice(workdir.length + 1) : file;
}
