/**
 * The panel's inbox: subagents' permission requests and ask_user questions wait here, side by side, while the
 * panel is visible — each child waits for its own answer only, none behind another's modal. The view provider
 * posts `items()` to the webview on every change and hands the user's answers back (`answer`, `reply`).
 *
 *   EditorApprover / EditorQuestions ──(depth > 0, panel visible)──▶ PanelInbox ──onChange──▶ view ──▶ webview
 *                                     ◀────── decision / text ───────────────── answer/reply ◀──
 *
 * A stopped run (its signal) takes its questions out: a permission then counts as denied, a question as
 * unanswered. An answer the item does not offer is ignored: no answer is ever an allow. No `vscode` import.
 */
import type { FanoutAnswer, InboxChoice, InboxItem } from '../protocol';
import type { PermissionDecision } from '../core/vocabulary';
import { approvalSubject, type FanoutCard, type ToolCallRequest, type UserQuestion } from '../core/session/ports';
import { approvalChoices, approvalText, type ApprovalQuestion, whoAsks } from './approval-text';
import { fanoutTitle, fanoutView } from './fanout-text';

/** What the approver and the questions need of the inbox. */
export interface PanelPrompts {
  /** The panel is on screen: a subagent's question may wait there. */
  readonly available: boolean;
  askPermission(question: ApprovalQuestion, signal: AbortSignal): Promise<PermissionDecision>;
  askQuestion(question: UserQuestion, signal: AbortSignal): Promise<string | undefined>;
  /** A fan-out card; a stopped run or a dismissed card is a cancel. */
  askFanout(card: FanoutCard, signal: AbortSignal): Promise<{ choice: FanoutAnswer; dontAsk: boolean }>;
}

interface Waiting {
  item: InboxItem;
  settle(value: string | undefined): void;
}

const MAX_INPUT = 4_000;

export class PanelInbox implements PanelPrompts {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<(items: InboxItem[]) => void>();
  private seq = 0;

  constructor(private readonly visible: () => boolean) {}

  get available(): boolean {
    return this.visible();
  }

  /** The waiting items, oldest first. */
  items(): InboxItem[] {
    return [...this.waiting.values()].map((w) => w.item);
  }

  onChange(listener: (items: InboxItem[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  askPermission(q: ApprovalQuestion, signal: AbortSignal): Promise<PermissionDecision> {
    const { message, why } = approvalText(q);
    const choices: InboxChoice[] = approvalChoices(q);
    const item = this.item(q.request.agent, 'permission', {
      title: message.startsWith(`${q.who} `) ? message.slice(q.who.length + 1) : message,
      input: exactInput(q.request),
      detail: why,
      choices,
      options: [],
    });
    return this.wait(item, signal).then((value) => (choices.some((c) => c.decision === value) ? (value as PermissionDecision) : 'deny'));
  }

  askQuestion(q: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    const item = this.item(q.agent, 'question', { title: q.question, input: '', detail: '', choices: [], options: q.options });
    return this.wait(item, signal);
  }

  askFanout(card: FanoutCard, signal: AbortSignal): Promise<{ choice: FanoutAnswer; dontAsk: boolean }> {
    const view = fanoutView(card);
    const item = this.item(card.parent, 'fanout', { title: fanoutTitle(card), input: '', detail: '', choices: [], options: [], fanout: view, ...(card.parent.depth === 0 ? { main: true } : {}) });
    return this.wait(item, signal).then((value) => {
      const [choice, never] = (value ?? '').split(':');
      return view.choices.some((c) => c.choice === choice) ? { choice: choice as FanoutAnswer, dontAsk: never === 'never' && choice !== 'cancel' } : { choice: 'cancel', dontAsk: false };
    });
  }

  /** The user's answer on a fan-out card; false when it is not waiting or the card does not offer that answer. */
  runFanout(id: string, choice: FanoutAnswer, dontAsk: boolean): boolean {
    const w = this.waiting.get(id);
    if (!w || w.item.kind !== 'fanout' || !w.item.fanout?.choices.some((c) => c.choice === choice)) return false;
    w.settle(`${choice}${dontAsk ? ':never' : ''}`);
    return true;
  }

  /** The user's button on a permission request; false when it is not waiting or the decision is not one of its own. */
  answer(id: string, decision: PermissionDecision): boolean {
    const w = this.waiting.get(id);
    if (!w || w.item.kind !== 'permission' || !w.item.choices.some((c) => c.decision === decision)) return false;
    w.settle(decision);
    return true;
  }

  /** The user's answer to a question (an option or typed text); an empty text is no answer. */
  reply(id: string, text: string): boolean {
    const w = this.waiting.get(id);
    const answer = text.trim();
    if (!w || w.item.kind !== 'question' || !answer) return false;
    w.settle(answer);
    return true;
  }

  private item(agent: ToolCallRequest['agent'], kind: InboxItem['kind'], rest: Omit<InboxItem, 'id' | 'kind' | 'agentId' | 'who' | 'agentType'>): InboxItem {
    return {
      id: `ask-${++this.seq}`,
      kind,
      agentId: agent.agentId,
      who: whoAsks(agent),
      ...(agent.agentType ? { agentType: agent.agentType } : {}),
      ...rest,
    };
  }

  private wait(item: InboxItem, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = (): void => settle(undefined);
      const settle = (value: string | undefined): void => {
        if (!this.waiting.delete(item.id)) return;
        signal.removeEventListener('abort', onAbort);
        resolve(value);
        this.changed();
      };
      this.waiting.set(item.id, { item, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      this.changed();
    });
  }

  private changed(): void {
    const items = this.items();
    for (const listener of this.listeners) listener(items);
  }
}

/** The exact thing decided on: the command, the path(s), or an MCP tool's whole input. */
function exactInput(request: ToolCallRequest): string {
  const input = request.input as Record<string, unknown> | null;
  const { fetchUrl } = approvalSubject(request);
  let text: string;
  if (request.kind === 'exec' && typeof input?.command === 'string') text = input.command;
  else if (request.privateDestination) text = request.privateDestination.url;
  else if (fetchUrl !== undefined) text = fetchUrl;
  else if (request.kind === 'external') text = JSON.stringify(request.input, null, 2) ?? String(request.input);
  else text = request.paths.length ? request.paths.join('\n') : request.summary;
  return text.length > MAX_INPUT ? `${text.slice(0, MAX_INPUT)}\n… (${text.length - MAX_INPUT} more characters)` : text;
}
