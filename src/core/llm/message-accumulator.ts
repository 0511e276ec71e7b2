/**
 * Builds one assistant message from the Messages API's raw stream events, as the SDK's MessageStream
 * would — except that a tool input that is not valid JSON does not throw (the SDK's accumulator throws
 * from inside the stream, which reads as a transport failure and re-requests the whole turn). Such an
 * input is kept as `{ [INVALID_TOOL_INPUT]: raw text }`; the tool executor turns it into an error result
 * for that one call and the run goes on.
 *
 *   message_start ─▶ content_block_start / _delta* / _stop (per index) ─▶ message_delta ─▶ message_stop
 */
import type Anthropic from '@anthropic-ai/sdk';
import { INVALID_TOOL_INPUT, type ContentBlock } from './types';
import type { Usage } from '../vocabulary';


type RawEvent = Anthropic.RawMessageStreamEvent;
type Block = ContentBlock & { [jsonBuffer]?: string };
const jsonBuffer = Symbol('json');

export interface AccumulatedMessage {
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
}

export class MessageAccumulator {
  private readonly blocks: Block[] = [];
  private stopReason: string | null = null;
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  private started = false;
  private stopped = false;

  constructor(
    private readonly onText: (text: string) => void,
    /** A thinking block finished ('' text: display omitted, or redacted). */
    private readonly onThinking: (block: { text: string; redacted: boolean }) => void = () => undefined,
  ) {}

  add(event: RawEvent): void {
    switch (event.type) {
      case 'message_start':
        this.started = true;
        this.takeUsage(event.message.usage);
        for (const block of event.message.content) this.blocks.push({ ...block } as Block);
        break;
      case 'content_block_start':
        this.blocks[event.index] = { ...event.content_block } as Block;
        break;
      case 'content_block_delta':
        this.delta(event.index, event.delta);
        break;
      case 'content_block_stop':
        this.finishBlock(event.index);
        break;
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.takeUsage(event.usage);
        break;
      case 'message_stop':
        this.stopped = true;
        break;
    }
  }

  /** The message, once `message_stop` arrived; throws (a transport failure) when the stream ended early. */
  result(): AccumulatedMessage {
    if (!this.started || !this.stopped) throw new Error('stream ended without producing a message');
    return { content: this.blocks.filter((b) => b !== undefined), stopReason: this.stopReason, usage: { ...this.usage } };
  }

  private delta(index: number, d: Anthropic.RawContentBlockDeltaEvent['delta']): void {
    const block = this.blocks[index];
    if (!block) return;
    switch (d.type) {
      case 'text_delta':
        if (block.type === 'text') {
          block.text += d.text;
          this.onText(d.text);
        }
        break;
      case 'input_json_delta':
        block[jsonBuffer] = (block[jsonBuffer] ?? '') + d.partial_json;
        break;
      case 'thinking_delta':
        if (block.type === 'thinking') block.thinking += d.thinking;
        break;
      case 'signature_delta':
        if (block.type === 'thinking') block.signature = d.signature;
        break;
      case 'citations_delta':
        if (block.type === 'text') block.citations = [...(block.citations ?? []), d.citation];
        break;
      default:
        break;
    }
  }

  private finishBlock(index: number): void {
    const block = this.blocks[index];
    if (block?.type === 'thinking') this.onThinking({ text: block.thinking, redacted: false });
    if (block?.type === 'redacted_thinking') this.onThinking({ text: '', redacted: true });
    if (!block || !('input' in block)) return;
    const raw = block[jsonBuffer];
    block[jsonBuffer] = undefined; // symbol-keyed: never serialized, never sent back
    if (raw === undefined || raw.trim() === '') return; // no deltas: the input from content_block_start stands
    try {
      (block as { input: unknown }).input = JSON.parse(raw);
    } catch {
      (block as { input: unknown }).input = { [INVALID_TOOL_INPUT]: raw };
    }
  }

  private takeUsage(u: Partial<Record<keyof Usage, number | null>> | null | undefined): void {
    if (!u) return;
    // message_delta's counts are cumulative: the latest figure wins.
    for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const value = u[key];
      // Only a count: a negative or non-finite figure (an endpoint that lies) would make spend run backwards or
      // poison every sum after it, and a budget would never be reached.
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) this.usage[key] = value;
    }
  }
}
