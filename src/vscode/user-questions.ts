/**
 * `ask_user` in the editor: a quick pick titled with who asks (the main agent, or the subagent and its task), the
 * agent's options as items plus a typed answer of one's own. One question at a time, however many subagents ask;
 * the others wait their turn. A subagent's question waits in the panel's inbox instead while the panel is
 * visible (panel-inbox.ts), beside the others. Stopping the run closes the question. The prompt is injectable so extension tests
 * can answer it without the UI.
 */
import * as vscode from 'vscode';
import type { UserQuestion, UserQuestions } from '../core/session/ports';
import type { PanelPrompts } from './panel-inbox';
import { whoAsks } from './approval-text';

/** Shows one question; resolves to the answer, or undefined when the user dismissed it. */
export type QuestionPrompt = (question: UserQuestion, title: string, signal: AbortSignal) => Promise<string | undefined>;

export const quickPickPrompt: QuestionPrompt = (q, title, signal) =>
  new Promise<string | undefined>((resolve) => {
    const pick = vscode.window.createQuickPick();
    pick.title = title;
    pick.placeholder = q.options.length ? `${q.question} — pick one, or type your own answer` : `${q.question} — type your answer`;
    pick.ignoreFocusOut = true;
    const offered = q.options.map((label) => ({ label }));
    pick.items = offered;
    // What the user types becomes an item of its own, so Enter takes it even when it matches no option.
    pick.onDidChangeValue((value) => {
      pick.items = value.trim() && !q.options.includes(value.trim()) ? [{ label: value.trim(), description: 'your answer' }, ...offered] : offered;
    });
    let answer: string | undefined;
    pick.onDidAccept(() => {
      answer = pick.selectedItems[0]?.label ?? (pick.value.trim() || undefined);
      pick.hide();
    });
    const onAbort = () => pick.hide();
    signal.addEventListener('abort', onAbort, { once: true });
    pick.onDidHide(() => {
      signal.removeEventListener('abort', onAbort);
      pick.dispose();
      resolve(answer);
    });
    pick.show();
  });

export class EditorQuestions implements UserQuestions {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    public prompt: QuestionPrompt = quickPickPrompt,
    private readonly panel?: PanelPrompts,
  ) {}

  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    if (question.agent.depth > 0 && this.panel?.available) return this.panel.askQuestion(question, signal);
    const answer = this.queue.then(() => (signal.aborted ? undefined : this.prompt(question, titleFor(question), signal)));
    this.queue = answer.catch(() => undefined);
    return answer;
  }
}

function titleFor({ agent }: UserQuestion): string {
  const who = whoAsks(agent);
  return `Delegate: ${who.charAt(0).toLowerCase()}${who.slice(1)} asks`;
}
