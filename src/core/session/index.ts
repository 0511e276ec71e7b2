/**
 * The hosts' face of the core: what src/cli/ and src/vscode/ may use, besides core/events.ts and
 * core/vocabulary.ts (`npm run lint:layers` holds them to it). Its export list is the contract:
 *
 *   a session          createSession (create-session.ts), its config and the Session it returns
 *   (sessions on disk  list, read, rename, delete, resume, revert: the history face, session/history.ts)
 *   ports a host fills ModelPort & co. (the editor's language-model adapter), Approver, ReviewGate, UserQuestions
 *   file access        FileOps (a host's own reads and writes, SessionConfig.fileOps) over createNodeFileOps
 *   settings           resolveSessionConfig (core/settings/: a host's overrides + the environment + the defaults →
 *                      the config's data), MCP configs (the editor's own), the sandbox, thinking notes
 *
 * Three pieces stay out so that loading this face does not load them: the Anthropic adapter and the HTTP client
 * the editor builds lazily (session/model.ts), the bubblewrap probe the CLI starts before anything else
 * (session/sandbox-probe.ts), and the clearing of credentials out of the process's environment block
 * (session/process-environment.ts).
 */
export { createSession, ROOT_AGENT_ID, type Session, type SessionConfig } from './create-session';
export type { SessionMcpConfig } from './mcp';
export { modelIdOf, resolveSessionConfig, resolveSettingValues } from '../settings/resolve-settings';
export { OVERRIDE_DEFAULTS } from '../settings/defaults';
export type { SessionOverrides } from '../settings/setting-table';

export type { AgentResult } from '../loop/types';
export { hasPrice } from '../loop/budget';
export { formatManifest } from '../changes/change-manifest';
export type { McpServerConfig } from '../mcp/config';
export { resolveSandbox } from '../sandbox/sandbox';
export { describeSandbox, type SandboxStatus } from '../sandbox/types';
