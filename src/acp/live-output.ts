/**
 * A running command's output, live in its card: the core's `tool_output` events (bash's stdout and stderr as they
 * come) become `tool_call_update`s of that call, its content the output so far (its last 20,000 characters).
 * At most one update per call every FLUSH_MS, however chatty the command: a build's thousand lines a second would
 * otherwise be a thousand notifications. The call's end replaces the content with the result (updates.ts), and
 * anything still waiting here is dropped first, so a late flush never writes over it.
 *
 *   tool_output ─▶ buffer[call] += text ─▶ (first, or FLUSH_MS after the last) tool_call_update { content }
 *   the call's end ─▶ end(call): timer cleared, buffer dropped
 *
 * Why not the client's `terminal/create`: the client would run the command in its own process, with its own
 * environment (the credentials Delegate withholds from commands included: core/secrets) and outside Delegate's
 * sandbox, process groups and timeouts. Streaming the output Delegate's own process reads keeps all of those.
 */
import type { SendUpdate } from './updates';

const FLUSH_MS = 200;
const MAX_LIVE_CHARS = 20_000;

interface Pending {
  sessionId: string;
  text: string;
  /** Characters dropped from its head, to keep the last MAX_LIVE_CHARS. */
  dropped: number;
  timer?: NodeJS.Timeout;
  lastSent: number;
}

export class LiveOutput {
  private readonly calls = new Map<string, Pending>();

  constructor(private readonly send: SendUpdate) {}

  add(sessionId: string, callId: string, text: string): void {
    const call = this.calls.get(callId) ?? { sessionId, text: '', dropped: 0, lastSent: 0 };
    this.calls.set(callId, call);
    call.text += text;
    if (call.text.length > MAX_LIVE_CHARS) {
      call.dropped += call.text.length - MAX_LIVE_CHARS;
      call.text = call.text.slice(-MAX_LIVE_CHARS);
    }
    if (call.timer) return;
    const wait = Math.max(0, call.lastSent + FLUSH_MS - Date.now());
    call.timer = setTimeout(() => void this.flush(callId), wait);
  }

  /** The call ended (its result follows): nothing more of its live output goes out. */
  end(callId: string): void {
    const call = this.calls.get(callId);
    if (call?.timer) clearTimeout(call.timer);
    this.calls.delete(callId);
  }

  /** The session closes: no timer outlives it. */
  close(): void {
    for (const id of [...this.calls.keys()]) this.end(id);
  }

  private async flush(callId: string): Promise<void> {
    const call = this.calls.get(callId);
    if (!call) return;
    call.timer = undefined;
    call.lastSent = Date.now();
    const head = call.dropped ? `… (${call.dropped} earlier characters)\n` : '';
    const ticks = call.text.includes('```') ? '````' : '```';
    await this.send(call.sessionId, {
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: 'in_progress',
      content: [{ type: 'content', content: { type: 'text', text: `${ticks}\n${head}${call.text}\n${ticks}` } }],
    });
  }
}
