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
export { mcpTimeoutsFromEnv } from '../settings/mcp-settings';
export { modelIdOf, resolveSessionConfig, resolveSettingValues } from '../settings/resolve-settings';
export { OVERRIDE_DEFAULTS } from '../settings/defaults';
export type { SessionOverrides } from '../settings/setting-table';
export { folderCommands, type FolderCommand, type FolderTrust, type FolderTrustAnswer } from './folder-trust';
export type { ReviewDecision, ReviewGate, ReviewRequest } from '../delegation/child-review';

export type { AgentResult } from '../loop/types';
export { hasPrice } from '../loop/budget';
export { estimateTextTokens } from '../loop/context-size';
export { ModelError } from '../llm/types';
export type { ContentBlock, ContentBlockParam, MessageParam, ModelCallbacks, ModelPort, ModelRequest, ModelResponse, ToolResultBlockParam, ToolSchema } from '../llm/types';
export type { Approver, ToolCallRequest } from '../policy/types';
export type { UserQuestion, UserQuestions } from '../tools/ask-user';
export { FANOUT_RULES, type FanoutCard, type FanoutChild, type FanoutChoice, type FanoutPrompt, type FanoutRule } from '../delegation/fanout-review';
export { fetchHostOf, hostRule, PLAN_WHY, UNTRUSTED_WHY, WEB_FETCH } from '../policy/web-fetch-policy';
export { READ_ONLY_TOOL_PLAN_WHY, READ_ONLY_TOOL_UNTRUSTED_WHY, serverRuleOf } from '../policy/read-only-tool-policy';
export { PROTECTED_WHY } from '../policy/protected-paths';
export { formatManifest } from '../changes/change-manifest';
export { describeServer, loadMcpConfigs, serverFingerprint, withInputs, type McpInputSpec, type McpServerConfig } from '../mcp/config';
export { resolveSandbox } from '../sandbox/sandbox';
export { describeSandbox, type SandboxStatus } from '../sandbox/types';
export { isFolderTrusted, folderKey, rememberTrustedFolder, trustedFoldersFile } from '../store/trusted-folders';
export { findRipgrep } from '../tools/ripgrep';
export type { FileOps } from '../tools/types';
export { createNodeFileOps } from '../tools/node-file-ops';
export { createHttpFetch } from '../llm/http-fetch';
export { ToolEnv } from '../secrets/tool-env';
