/**
 * The port through which the main agent's `land` tool (land-tool.ts) reaches the session's merge steward
 * (session/land-isolated.ts over isolation/landing.ts), and what a resolver child starts from. Declared here, built
 * by the session: the loop and the tool learn no git.
 */
import type { LandCheck, LandOutcome } from '../events';

/** An isolated child whose kept changes conflicted on landing: a resolver's room starts with them merged in. */
export interface ResolveTarget {
  agentId: string;
  snapshot: string;
  commit: string;
}

/** A landing's outcomes, the folder, and each conflicting child's kept commits (what its resolver starts from). */
export type StewardReport = { outcomes: LandOutcome[]; check?: LandCheck; workdir: string; kept: Record<string, ResolveTarget> } | { error: string };

/** Lands (or discards) the session's kept isolated changes: the session's landIsolated in its own process. */
export interface Steward {
  /** `check`: undefined, the session's land check; '' none. */
  land(request: { action: 'land' | 'discard'; agents: string[]; check?: string }): Promise<StewardReport>;
  /** The files of a subagent's kept changes that still hold a conflict marker (a resolver that did not resolve). */
  markersLeft(agentId: string): Promise<string[]>;
}
