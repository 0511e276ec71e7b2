/**
 * What the client shows of each tool call (its "card"), as the session's own updates left it: the fields of every
 * `tool_call` and `tool_call_update` sent, merged per call. A permission request is a tool call update too (the
 * client applies its title, status, kind, input and content to the card it names): once answered, the card is put
 * back as it was, so a question's wording ("… wants to: …", `pending`) does not stay on the call for good.
 *
 *   send(tool_call / tool_call_update) ─▶ remember ─▶ the client
 *   session/request_permission on a card (hold) ─▶ answered, none other waiting ─▶ one tool_call_update with the
 *                                                                                  remembered fields
 */
import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import type { SendUpdate } from './updates';

type Card = Omit<ToolCallUpdate, 'toolCallId'>;
const FIELDS = ['title', 'kind', 'status', 'locations', 'rawInput', 'content'] as const;

export class CallCards {
  private readonly cards = new Map<string, Card>();
  /** Questions waiting on each card. */
  private readonly waiting = new Map<string, number>();

  constructor(private readonly sendOut: SendUpdate) {}

  /** The port SessionUpdates sends through: each call's fields are remembered on the way. */
  readonly send: SendUpdate = async (sessionId, update) => {
    this.remember(sessionId, update);
    await this.sendOut(sessionId, update);
  };

  /**
   * A question is about to go on this card; the returned function, called once it is answered, puts the card back
   * as the session's updates left it — when no other question waits on it (two subagents folded into one task call
   * may ask at once: the card stays a question until both are answered).
   */
  hold(sessionId: string, toolCallId: string): () => Promise<void> {
    const k = key(sessionId, toolCallId);
    this.waiting.set(k, (this.waiting.get(k) ?? 0) + 1);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const left = (this.waiting.get(k) ?? 1) - 1;
      if (left > 0) return void this.waiting.set(k, left);
      this.waiting.delete(k);
      await this.restore(sessionId, toolCallId);
    };
  }

  private async restore(sessionId: string, toolCallId: string): Promise<void> {
    const card = this.cards.get(key(sessionId, toolCallId));
    if (!card) return;
    await this.sendOut(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, ...card });
  }

  private remember(sessionId: string, update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const k = key(sessionId, update.toolCallId);
    // A finished call is asked nothing more: forgotten (a long session's outputs are not kept twice).
    if (update.status === 'completed' || update.status === 'failed') return void this.cards.delete(k);
    const card: Record<string, unknown> = { ...this.cards.get(k) };
    for (const field of FIELDS) if (update[field] !== undefined && update[field] !== null) card[field] = update[field];
    this.cards.set(k, card as Card);
  }
}

const key = (sessionId: string, toolCallId: string): string => `${sessionId}\u0000${toolCallId}`;
