/**
 * What the editor's settings and ports make of a new session: the `SessionConfig` the core's createSession takes.
 * The session controller hands in the ports it owns (approver, review, questions, fan-out card, MCP servers) and
 * the model picked for this prompt; everything else comes from `delegate.*` settings and the workspace's trust.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EditorApprover } from './approver';
import { confirmAboveUsd, fanoutRule, type EditorFanout } from './fanout-card';
import type { EditorMcpServers } from './mcp-servers';
import type { ModelSelection } from './model-choice';
import type { ResultReview } from './result-review';
import { readSettings } from './settings';
import { createHttpFetch, findRipgrep, loadWorkspaceFiles, ToolEnv, type ResumeState, type SessionConfig, type UserQuestions } from '../core/session';

export interface EditorSessionPorts {
  transcriptRoot: string;
  resume?: ResumeState;
  approver: EditorApprover;
  review: ResultReview;
  /** The credentials in use (by value): commands, hooks and MCP servers never get them. */
  credentials: () => readonly string[];
  mcpServers?: EditorMcpServers;
  questions?: UserQuestions;
  fanout?: EditorFanout;
}

export async function editorSessionConfig(folder: vscode.WorkspaceFolder, selection: ModelSelection, ports: EditorSessionPorts): Promise<SessionConfig> {
  const settings = readSettings();
  const contextWindow = settings.contextWindow ?? selection.contextWindow;
  const mcp = await ports.mcpServers?.configFor(folder.uri.fsPath);
  // Project hooks only in a trusted workspace; trust granted later applies from the next session.
  const workspaceFiles = await loadWorkspaceFiles({ workdir: folder.uri.fsPath, home: homedir(), trusted: vscode.workspace.isTrusted });
  const ripgrep = editorRipgrep();
  return {
    workdir: folder.uri.fsPath,
    model: {
      id: selection.modelId,
      ...(contextWindow ? { contextWindow } : {}),
      thinking: settings.thinking,
      ...(settings.maxTokens ? { maxTokens: settings.maxTokens } : {}),
      compactThreshold: settings.compactThreshold,
      ...(Object.keys(settings.modelAliases).length ? { aliases: settings.modelAliases } : {}),
    },
    permissions: { mode: settings.permissionMode, trusted: vscode.workspace.isTrusted },
    tools: {
      ...(mcp ? { mcp } : {}),
      // The Messages API's server-side tool: the Language Model API has no way to offer it.
      webSearch: settings.webSearch && selection.provider === 'anthropic',
      bashTimeoutMs: settings.bashTimeoutMs,
      sandbox: settings.sandbox,
      // Commands, hooks and MCP servers never get the credentials (the key in use, by value too), unless delegate.toolEnv names one.
      env: new ToolEnv({ pass: settings.toolEnv, secrets: ports.credentials }),
    },
    limits: {
      ...settings.limits,
      ...(settings.maxBudgetUsd ? { maxBudgetUsd: settings.maxBudgetUsd } : {}),
      ...(Object.keys(settings.prices).length ? { prices: settings.prices } : {}),
    },
    // Agent files: the user's always; the project's only in a trusted workspace.
    files: { ...workspaceFiles, agentFiles: { home: homedir(), includeProject: vscode.workspace.isTrusted } },
    persistence: { transcriptRoot: ports.transcriptRoot, ...(ports.resume ? { resume: ports.resume } : {}) },
    ports: {
      model: selection.port,
      approver: ports.approver,
      ...(settings.reviewSubagentResults ? { review: ports.review.gate } : {}),
      ...(ports.questions ? { questions: ports.questions } : {}),
      ...(ports.fanout ? { fanout: { prompt: ports.fanout, rule: fanoutRule, confirmAboveUsd } } : {}),
      ...(ripgrep ? { ripgrepPath: ripgrep } : {}),
      // web_fetch through the extension host's patched http/https: VS Code's proxy settings apply.
      fetch: createHttpFetch('host'),
    },
  };
}

/** The ripgrep VS Code ships (its folder moved across versions), else `rg` on PATH. */
function editorRipgrep(): string | undefined {
  const root = vscode.env.appRoot;
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const platform = `${process.platform}-${process.arch}`;
  return findRipgrep(
    ['node_modules', 'node_modules.asar.unpacked'].flatMap((dir) => [
      join(root, dir, '@vscode', 'ripgrep', 'bin', exe),
      join(root, dir, '@vscode', 'ripgrep-universal', 'bin', platform, exe),
    ]),
  );
}
