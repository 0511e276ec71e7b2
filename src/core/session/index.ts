/**
 * The hosts' session face: what src/cli/, src/vscode/, src/acp/ and src/action/ use to start and drive a session
 * (`npm run lint:layers` holds them to the faces). The other faces, by what a host does:
 *
 *   sessions on disk   session/history.ts     history(root): list, read, rename, delete, resume, revert plans
 *   ports it fills     session/ports.ts       Approver, UserQuestions, ReviewGate, FanoutPrompt, FolderTrust,
 *                                             McpServerGate, FileOps, and what a question is about (approvalSubject)
 *   its own model      session/model-port.ts  ModelPort and the Messages wire types (the editor's adapter)
 *   run-wide words     core/events.ts, core/vocabulary.ts
 *
 * Here: createSession and the Session it returns (run, messageSubagent, cancel, compact, setModel, setMode, status,
 * subscribe, shutdown, transcript), the settings resolver (core/settings/: a host's overrides + the environment +
 * the defaults → the config's data), and the words a host shows (a result, a change manifest, the sandbox).
 *
 * Three pieces stay out so that loading this face does not load them: the Anthropic adapter and the HTTP client
 * the editor builds lazily (session/model.ts), the bubblewrap probe the CLI starts before anything else
 * (session/sandbox-probe.ts), and the clearing of credentials out of the process's environment block
 * (session/process-environment.ts).
 */
export { createSession, ROOT_AGENT_ID, type Session, type SessionConfig } from './create-session';
export type { SessionMcpConfig } from './mcp';
export { modelIdOf, resolveSessionConfig, resolveSettingValues } from '../settings/resolve-settings';
// The model aliases a host's model picker offers besides the session's model (ACP's config options).
export { DEFAULT_MODEL_ALIASES } from '../agent-files/agent-catalog';
export type { SessionOverrides } from '../settings/setting-table';
export { editorFanoutSettings, editorSettings, type EditorFanoutSettings, type EditorSettings } from '../settings/editor-settings';

export type { AgentResult } from '../loop/types';
export { PromptRefused } from './prompt-check';
export { hasPrice } from '../loop/budget';
export { formatManifest } from '../changes/change-manifest';
export type { McpServerConfig } from '../mcp/config';
export { resolveSandbox } from '../sandbox/sandbox';
export { describeSandbox, type SandboxStatus } from '../sandbox/types';
