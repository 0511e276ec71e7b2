/**
 * What the isolation events carry (events.ts: `worktree_created`, `worktree_kept`, `changes_landed`): a worktree's
 * base, the files a subagent kept, and what landing did: isolation's contract, as llm/types.ts is the model's.
 */
/** What an isolated subagent's worktree was made from: the parent's HEAD and a hash of the uncommitted files copied on it. */
export interface WorktreeBase {
  commit: string;
  changes: string;
  files: number;
}

/** A file an isolated subagent changed: A added, M modified, D deleted (the repository's path). */
export interface KeptFile {
  path: string;
  status: string;
}

/**
 * One subagent's landing: `landed` (all its files applied), `conflict` (none applied), `check_failed`, `discarded`,
 * `reverted`, `failed`; `resolved`: its conflicts were settled by resolver `resolvedBy`, whose changes landed instead.
 */
export interface LandOutcome {
  agentId: string;
  outcome: 'landed' | 'conflict' | 'check_failed' | 'discarded' | 'reverted' | 'failed' | 'resolved';
  files: string[];
  conflicts?: LandConflict[];
  reason?: string;
  resolvedBy?: string;
}

/** A file a 3-way merge could not settle: where (line numbers in the merged text), and whose changes meet there. */
export interface LandConflict {
  path: string;
  hunks: { line: number; lines: number }[];
  /** The other side: earlier subagents of this landing that changed it, or "the parent's tree". */
  with: string[];
}

/** The land check (`delegate.landCheck`, `--land-check`) on the combined result, in a scratch worktree. */
export interface LandCheck {
  command: string;
  ok: boolean;
  /** Its output's end. */
  output: string;
  /** The first subagent whose change made it fail (bisected over the landing order), or "the parent's tree". */
  brokenBy?: string;
}
