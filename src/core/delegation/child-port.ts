/**
 * The session's subagents as the tools that address them see them — task's `name`, send_message, read_subagent —
 * a port delegation implements (subagent-directory.ts over child-records.ts, child-runs.ts and child-pages.ts), so
 * the tools and the loop never import the code that runs or reads children:
 *
 *   task{name}          ─▶ claimName(name, id)          (unique in the session; a reused one is refused)
 *   send_message{to}    ─▶ find(to) ─▶ running? ─▶ agents.post (steering: its next turn reads it)
 *                                     └ finished ─▶ resume(id, message) ─▶ runChild(same id, its history + message)
 *   read_subagent{id}   ─▶ find(id) ─▶ page(id, what, offset, limit)  (its transcript and change manifest)
 *
 * `Result` is the run's AgentResult (loop/types.ts, which holds this port in RunPorts: a parameter, not an
 * import, so the two files do not import each other).
 *
 * An entry lives for the session (a resumed one's come back from the transcript): a finished child can be
 * messaged and read as long as the session exists.
 */
import type { ToolResult } from '../tools/types';
import type { AgentIdentity, AgentStatus } from '../vocabulary';

export interface ChildEntry {
  id: string;
  parentId: string;
  name?: string;
  description: string;
  /** 'running' from its agent_started to its agent_finished (each segment). */
  status: AgentStatus | 'running';
  /** Its last end was the user's Stop (not its parent's, not an interruption). */
  stoppedByUser: boolean;
  /** A fork (its history is its parent's conversation): not resumable. */
  fork: boolean;
  /** Its last final text. */
  result: string;
  /** How many times it started (1, then one more per resume). */
  segments: number;
}

export interface ResumeRequest<Result> {
  /** The child's id (find() first). */
  id: string;
  message: string;
  /** Its parent agent (send_message) or the user (the panel, `--agent`). */
  by: 'parent' | 'user';
  /** The agent sending it (the parent), for the child's permission mode. */
  sender?: AgentIdentity;
  /** What the sender's tool_result says about the child's end (task's own rule). */
  toToolResult(child: Result, senderStopped: boolean): ToolResult;
}

export type ReadWhat = 'calls' | 'files' | 'transcript' | 'output';

export interface PageRequest {
  id: string;
  what: ReadWhat;
  offset: number;
  limit: number;
  /** For `files`: each file's diff too. */
  diff: boolean;
}

export interface SubagentDirectory<Result> {
  /** A subagent by id or name; undefined when the session has none such. */
  find(ref: string): ChildEntry | undefined;
  /** The subagents `agentId` started, in starting order. */
  childrenOf(agentId: string): ChildEntry[];
  /** Reserves `name` for `agentId`; the refusal's text when another subagent has it. */
  claimName(name: string, agentId: string): string | undefined;
  /** Runs a finished or stopped child again with its whole history plus `message`: a new segment of the same agent. */
  resume(req: ResumeRequest<Result>, signal: AbortSignal): Promise<{ child: Result; result: ToolResult }>;
  /** One bounded page of a child's record, as text for the model. */
  page(req: PageRequest): Promise<ToolResult>;
  /**
   * A report that only points at a deliverable ("see report.md"): the line listing the files it names that the child
   * (or its own subagents) wrote, by its change manifest, with their sizes; undefined otherwise.
   */
  deliverables(child: Result): Promise<string | undefined>;
}
