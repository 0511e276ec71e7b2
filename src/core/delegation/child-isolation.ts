/**
 * The port through which a subagent gets a WORKDIR of its own (`isolation: worktree`), declared by delegation and
 * built by the session (session/isolation-rooms.ts, over isolation/worktree.ts). Delegation learns no git: a room is
 * a folder, the tools that work in it, the change record of what they did, and a close that says what became of it.
 *
 *   runChild: the call's isolation ?? its agent file's ?? the session's
 *     worktree ─▶ open(agentId, parent's folder) ─▶ room          (refused: the child does not start; IsolationRefused)
 *                  cheap checks awaited, the WORKDIR's path known ─▶ the child's first request goes out
 *                  room.ready: the checkout, verified ─────────────▶ its tools and hooks run (rejected: the request
 *                                                                     in flight aborted, nothing ran, IsolationRefused)
 *     a subagent of an isolated one ─▶ join(its room)              (it works in its ancestor's worktree, whatever it asks)
 *     a resolver (land{resolve}) ─▶ open(…, resolves) ─▶ a room of the live tree with the conflicting child's changes
 *                                   merged in, conflicts as markers (isolation/landing.ts seedConflicts)
 *     shared ─▶ the session's folder and tools
 *   the child ends ─▶ close() ─▶ a line for its parent: where its changes are kept, or that it changed nothing
 */
import type { ChangeTracker } from '../changes/change-tracker';
import type { ToolRegistry } from '../tools/types';
import type { IsolationMode } from '../vocabulary';
import type { WorktreeBase } from '../events';
import type { ResolveTarget } from './steward-port';

export interface ChildRoom {
  /** The child's WORKDIR: its tools, hooks, commands and sandbox work here. Known before it exists (see `ready`). */
  workdir: string;
  /**
   * Resolves once the WORKDIR is made and verified: the checkout runs while the child's first request is sent (its
   * prompt reads nothing from the folder), and nothing acts in the folder before this. Rejects with IsolationRefused,
   * what was half made removed.
   */
  ready: Promise<void>;
  /** The session's tools made over `workdir` (MCP tools as they are). */
  tools(): ToolRegistry;
  /** What the room's agents changed and ran (the child's manifest). */
  changes: ChangeTracker;
  /** The child ended: its changes kept (a branch and a patch) or the room removed; the line its parent reads. */
  close(description: string): Promise<string>;
}

/** What an isolated child kept when it last ran (its `worktree_kept`): a resume goes on from `commit`. */
export interface KeptWork {
  base: WorktreeBase;
  snapshot: string;
  commit: string;
  /** It was a resolver of that child's conflicts: what it keeps next still stands in for that child's. */
  resolves?: string;
}

export interface ChildIsolation {
  /** The session's default (`--isolation`, `delegate.isolation`). */
  readonly mode: IsolationMode;
  /** The room `agentId` works in, when it works in one. */
  roomOf(agentId: string): ChildRoom | undefined;
  /** Whether `agentId` ran isolated and kept changes (a resume goes on in them, whatever it would ask). */
  kept(agentId: string): boolean;
  /**
   * A room of its own for `agentId`, made from the live tree at `from` (or from its kept changes; or, for a resolver,
   * with `resolves`'s changes merged in). Resolves once the cheap refusals are passed (no git, not a repository, no
   * commit, submodules…: rejects with IsolationRefused), before the checkout: that one settles `ready`.
   */
  open(agentId: string, parentId: string | null, from: string, kept?: KeptWork, resolves?: ResolveTarget): Promise<ChildRoom>;
  /** `agentId` works in `room` too (a subagent of an isolated subagent). */
  join(agentId: string, room: ChildRoom): void;
}

/** A child that asked for a worktree and could not have one: it does not start, and its parent is told why. */
export class IsolationRefused extends Error {
  override name = 'IsolationRefused';

  /** The tool_result its parent gets: why, and how to run it shared instead. */
  get toolResult(): string {
    return `The subagent did not start: isolation "worktree" was asked, and ${this.message}. Nothing ran. To run it in your own folder instead (shared with you and other subagents), call task again with isolation: "shared".`;
  }
}
