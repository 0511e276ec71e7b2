/**
 * The editor's gate on the workspace's MCP servers (the core reads `.mcp.json` and `.vscode/mcp.json` and asks it
 * before each server starts: core/settings/mcp-gate.ts). A project file can name any command, so a server starts only
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
import type { McpInputSpec, McpServerGate, McpServerQuestion } from '../core/session/ports';

export type { McpServerQuestion };
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

export class EditorMcpServers implements McpServerGate {
  private readonly inputValues = new Map<string, string>();
  private readonly declined = new Set<string>();
  /** One modal at a time, however many servers start together. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: vscode.Memento,
    public prompt: McpApprovalPrompt = modalMcpPrompt,
    public inputPrompt: McpInputPrompt = inputBoxPrompt,
  ) {}

  async approve(question: McpServerQuestion, key: string): Promise<true | { skipped: string }> {
    if (!vscode.workspace.isTrusted) return { skipped: 'the workspace is not trusted (trust it, then start a New Session)' };
    if (this.declined.has(key)) return { skipped: 'not approved' };
    const approved = this.state.get<string[]>(APPROVED_KEY, []);
    if (!approved.includes(key)) {
      const yes = await this.serial(() => this.prompt(question));
      if (!yes) {
        this.declined.add(key);
        return { skipped: 'not approved' };
      }
      await this.state.update(APPROVED_KEY, [...this.state.get<string[]>(APPROVED_KEY, []), key]);
    }
    return true;
  }

  /** An input's value, asked once and kept until the window reloads. */
  async input(spec: McpInputSpec, server: string): Promise<string | undefined> {
    const kept = this.inputValues.get(spec.id);
    if (kept !== undefined) return kept;
    const value = await this.serial(() => this.inputPrompt(spec, server));
    if (value !== undefined) this.inputValues.set(spec.id, value);
    return value;
  }

  private serial<T>(ask: () => Promise<T>): Promise<T> {
    const next = this.queue.then(ask);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
