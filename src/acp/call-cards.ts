/**
 * What the client shows of each tool call (its "card"), as the session's own updates left it: the fields of every
 * `tool_call` and `tool_call_update` sent, merged per call. A permission request is a tool call update too (the
 * client applies its title, status, kind, input and content to the card it names): once answered, the card is put
 * back as it was, so a question's wording ("… wants to: …", `pending`) does not stay on the call for good.
 *
 *   send(tool_call / tool_call_update) ─▶ remember ─▶ the client
 *   session/request_permission on a card ─▶ answered ─▶ restore: one tool_call_update with the remembered fields
 */
import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import type { SendUpdate } from './updates';

type Card = Omit<ToolCallUpdate, 'toolCallId'>;
const FIELDS = ['title', 'kind', 'status', 'locations', 'rawInput', 'content'] as const;

export class CallCards {
  private readonly cards = new Map<string, Card>();

  constructor(private readonly sendOut: SendUpdate) {}

  /** The port SessionUpdates sends through: each call's fields are remembered on the way. */
  readonly send: SendUpdate = async (sessionId, update) => {
    this.remember(sessionId, update);
    await this.sendOut(sessionId, update);
  };

  /** Puts the card back as the session's updates left it (after a permission request changed it on the client). */
  async restore(sessionId: string, toolCallId: string): Promise<void> {
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
