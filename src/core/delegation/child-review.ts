/**
 * The host's review of a finished child (the editor's opt-in `delegate.reviewSubagentResults`): the result waits
 * on its task node for Accept, Edit result or Re-run; the parent gets only what the user accepted (a task's result
 * and a resumed child's reply to send_message alike). The session's
 * child runs (child-runs.ts) ask it; the editor implements it (vscode/result-review.ts).
 */

export type ReviewDecision = { action: 'accept' } | { action: 'edit'; result: string } | { action: 'rerun'; prompt: string };

export interface ReviewRequest {
  agentId: string;
  parentId: string;
  description: string;
  prompt: string;
  result: string;
  isError: boolean;
}

/** Resolves with the user's choice. */
export type ReviewGate = (request: ReviewRequest, signal: AbortSignal) => Promise<ReviewDecision>;
