/**
 * The editor's side of Retry and "Re-run with an edited prompt…" on a task that failed, was stopped or hit a
 * limit (webview/task-outcome.ts): once the run has ended, the main agent is asked to delegate it again
 * (retry-text.ts); the edited re-run opens the prompt in an untitled document first, like the review's Re-run.
 */
import * as vscode from 'vscode';
import { allTasks } from '../view-model/session-view';
import { editInDocument } from './result-review';
import { retryPrompt } from './retry-text';
import type { SessionController } from './session-controller';

export class TaskRetry {
  /** Tests replace how the edited prompt is asked for (the real one opens a document). */
  askText: (title: string, text: string) => Promise<string | undefined> = editInDocument;

  constructor(private readonly controller: SessionController) {}

  /** False when nothing was sent (unknown task, a run still going, the edit dismissed). */
  async retry(agentId: string, edit: boolean): Promise<boolean> {
    const task = allTasks(this.controller.snapshot().state).find((t) => t.agentId === agentId);
    if (!task) return false;
    if (task.retriedBy?.taskId) {
      void vscode.window.showInformationMessage(`Delegate: "${task.description}" was retried already; retry the new task if it ended early too.`);
      return false;
    }
    if (this.controller.isRunning) {
      void vscode.window.showInformationMessage(`Delegate: the run is still going; retry "${task.description}" once it has ended (or stop it first).`);
      return false;
    }
    let prompt = task.prompt;
    if (edit) {
      const text = await this.askText(`Re-run “${task.description}” with this prompt`, task.prompt);
      if (text === undefined || !text.trim()) return false;
      prompt = text;
    }
    // The model gets the written prompt; the panel shows what the user did ("Retry: <description>").
    const retryOf = { agentId, description: task.description, ...(edit ? { edited: true } : {}) };
    await this.controller.ask(retryPrompt(task, prompt, edit), { retryOf });
    return true;
  }
}
