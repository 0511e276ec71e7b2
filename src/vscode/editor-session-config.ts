/**
 * What the editor's settings and ports make of a new session: the `SessionConfig` the core's createSession takes.
 * The session controller hands in the ports it owns (approver, review, questions, fan-out card, MCP servers) and
 * the model picked for this prompt; the `delegate.*` settings the user set go to the core's settings resolver
 * (core/settings/resolve-settings.ts, the CLI's and ACP's too) with the workspace's trust, which fills in the rest.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { EditorApprover } from './approver';
import type { EditorFanout } from './fanout-card';
import type { EditorMcpServers } from './mcp-servers';
import type { ModelSelection } from './model-choice';
import type { ResultReview } from './result-review';
import { fanoutSettings, readSettings } from './settings';
import { resolveSessionConfig, type SessionConfig } from '../core/session';
import { type UserQuestions } from '../core/session/ports';
import type { ResumeState } from '../core/session/history';

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
  const workdir = folder.uri.fsPath;
  const resolved = await resolveSessionConfig({
    cwd: workdir,
    env: process.env,
    overrides: {
      ...settings.session,
      // An editor model's own window when delegate.contextWindow names none.
      ...(settings.session.contextWindow ?? selection.contextWindow ? { contextWindow: settings.session.contextWindow ?? selection.contextWindow } : {}),
      transcriptRoot: ports.transcriptRoot,
    },
    // Project hooks and agent files only in a trusted workspace; trust granted later applies from the next session.
    trusted: vscode.workspace.isTrusted,
    host: 'editor',
    // Commands, hooks and MCP servers never get the credentials (the key in use, by value too), unless delegate.toolEnv names one.
    secrets: ports.credentials,
    // The Messages API's server-side web search: the Language Model API has no way to offer it.
    provider: selection.provider === 'anthropic' ? 'anthropic' : 'other',
    // The workspace's MCP servers: each approved (and its inputs asked) before it starts.
    ...(ports.mcpServers ? { mcpGate: ports.mcpServers } : {}),
  });
  // A setting that cannot be used (delegate.prices): the caller says the line.
  if ('error' in resolved) throw new Error(resolved.error);
  const { api: _api, notes: _notes, transcriptRoot, ...config } = resolved;
  return {
    ...config,
    model: { ...config.model, id: selection.modelId },
    persistence: { transcriptRoot, ...(ports.resume ? { resume: ports.resume } : {}) },
    ports: {
      model: selection.port,
      approver: ports.approver,
      ...(settings.reviewSubagentResults ? { review: ports.review.gate } : {}),
      ...(ports.questions ? { questions: ports.questions } : {}),
      ...(ports.fanout ? { fanout: { prompt: ports.fanout, rule: () => fanoutSettings().rule, confirmAboveUsd: () => fanoutSettings().confirmAboveUsd } } : {}),
      ripgrepCandidates: editorRipgrep(),
      // web_fetch through the extension host's patched http/https: VS Code's proxy settings apply.
      httpAgents: 'host',
    },
  };
}

/** Where VS Code ships ripgrep (its folder moved across versions); the core tries them, else `rg` on PATH. */
function editorRipgrep(): string[] {
  const root = vscode.env.appRoot;
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const platform = `${process.platform}-${process.arch}`;
  return ['node_modules', 'node_modules.asar.unpacked'].flatMap((dir) => [
    join(root, dir, '@vscode', 'ripgrep', 'bin', exe),
    join(root, dir, '@vscode', 'ripgrep-universal', 'bin', platform, exe),
  ]);
}
