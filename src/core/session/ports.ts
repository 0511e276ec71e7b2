/**
 * The ports face: what a host implements for a session and the words it needs to do so (core/session/index.ts
 * takes the implementations in SessionConfig.ports). One group per port:
 *
 *   approvals     Approver (asked when the policy says "ask"), the ToolCallRequest it is asked about, and
 *                 approvalSubject (what the question is about: a fetch's host, an MCP server, why the mode asks)
 *   questions     UserQuestions (the ask_user tool), UserQuestion
 *   review        ReviewGate (a subagent's result shown before its parent reads it), its request and decision
 *   fan-out       FanoutPrompt (the card before many children start), its card, children and choices (the rules: settings/editor-settings.ts)
 *   folder trust  FolderTrust (may a folder's own hooks and MCP servers run), the commands it would run, and the
 *                 remembered answers (rememberedTrust)
 *   MCP servers   McpServerGate (may a workspace's server start; its `${input:…}` values), what it is asked
 *   file access   FileOps (a host's own reads and writes) over createNodeFileOps
 *
 * The model port (ModelPort and the Messages wire types) has its own face: session/model-port.ts.
 */
export { approvalSubject } from '../policy/approval-subject';
export type { Approver, ToolCallRequest } from '../policy/types';
export type { UserQuestion, UserQuestions } from '../tools/ask-user';
export type { ReviewDecision, ReviewGate, ReviewRequest } from '../delegation/child-review';
export type { FanoutCard, FanoutChild, FanoutChoice, FanoutPrompt } from '../delegation/fanout-review';
export { agentFileCommands } from './agent-mcp';
export { folderCommands, rememberedTrust, type FolderCommand, type FolderTrust, type FolderTrustAnswer, type RememberedTrust } from './folder-trust';
export type { McpServerGate, McpServerQuestion } from '../settings/mcp-gate';
export type { McpInputSpec } from '../mcp/config';
export type { FileOps } from '../tools/types';
export { createNodeFileOps } from '../tools/node-file-ops';
