/**
 * The editor's review of finished subagents (`delegate.reviewSubagentResults`): a result waits on its task
 * node until the user picks Accept, Edit result or Re-run (buttons on the node, posted by the panel).
 * Editing and re-running go through an untitled document, so long results and prompts stay editable.
 */
import * as vscode from 'vscode';
import type { ReviewDecision, ReviewGate, ReviewRequest } from '../core/session/ports';

interface Pending {
  request: ReviewRequest;
  resolve(decision: ReviewDecision): void;
}

export class ResultReview {
  private readonly pending = new Map<string, Pending>();
  /** Tests replace how Edit and Re-run ask for the new text (the real one opens a document). */
  askText: (title: string, text: string) => Promise<string | undefined> = editInDocument;

  /** The core's port: resolves when the user decides (or the run is stopped: then the result stands). */
  readonly gate: ReviewGate = (request, signal) =>
    new Promise<ReviewDecision>((resolve) => {
      const done = (decision: ReviewDecision): void => {
        this.pending.delete(request.agentId);
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = (): void => done({ action: 'accept' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.agentId, { request, resolve: done });
    });

  get waiting(): string[] {
    return [...this.pending.keys()];
  }

  /** A button on a held node. Edit and Re-run ask for the text first; dismissing that keeps the result held. */
  async act(agentId: string, action: ReviewDecision['action']): Promise<void> {
    const held = this.pending.get(agentId);
    if (!held) return;
    if (action === 'accept') return held.resolve({ action: 'accept' });
    if (action === 'edit') {
      const text = await this.askText(`Edit the result of “${held.request.description}”`, held.request.result);
      if (text !== undefined && this.pending.get(agentId) === held) held.resolve({ action: 'edit', result: text });
      return;
    }
    const prompt = await this.askText(`Re-run “${held.request.description}” with this prompt`, held.request.prompt);
    if (prompt !== undefined && prompt.trim() && this.pending.get(agentId) === held) held.resolve({ action: 'rerun', prompt });
  }
}

/** Opens the text in an untitled markdown document; resolves with what it holds when the user confirms. */
export async function editInDocument(title: string, text: string): Promise<string | undefined> {
  const doc = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: false });
  const choice = await vscode.window.showInformationMessage(`${title}: change the document, then confirm.`, { modal: false }, 'Use This Text');
  return choice === 'Use This Text' ? doc.getText() : undefined;
}
