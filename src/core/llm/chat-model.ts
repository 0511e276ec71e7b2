/**
 * A ModelPort over a plain chat API — role, text and tool parts, no Messages wire types — so a host's own model
 * API (the editor's Language Model API) maps only between those parts and its own, and never learns the
 * Messages API's blocks:
 *
 *   loop ── ModelRequest (Messages blocks) ──▶ chatModelPort ── ChatRequest (parts) ──▶ provider.send
 *        ◀── ModelResponse (blocks, usage) ──                 ◀── ChatReply (parts) ───
 *                                                     usage: provider.countTokens per message/tool, cached per
 *                                                     object, the estimate where it can't count
 *
 *   system prompt          ─▶ ChatRequest.system (the provider decides where it goes)
 *   text                   ⇄ { kind: 'text' }            (empty text is dropped: providers refuse it)
 *   tool_use               ⇄ { kind: 'tool-call' }       (input always an object; another JSON value is wrapped)
 *   tool_result            ─▶ { kind: 'tool-result' }    (its texts joined; is_error as a flag, and said in the
 *                                                         text for APIs with no such field; images as a line)
 *   image, document        ─▶ a text line saying it was left out (text-only providers)
 *   thinking, server tools ─▶ dropped (another provider's blocks, from before a model switch)
 *
 * Converted messages and tools are kept per object (the loop appends and never mutates a sent message; the tool
 * registry rebuilds wrappers around the same input schemas), so a turn converts and counts only what is new — and
 * the provider gets the same ChatMessage object for the same message every turn, to key its own caches on.
 */
import type { ContentBlock, ContentBlockParam, MessageParam, ModelCallbacks, ModelPort, ModelRequest, ModelResponse, ToolResultBlockParam, ToolSchema } from './types';
import { estimateTextTokens, ModelError } from './types';
import { emptyUsage } from '../vocabulary';

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; id: string; name: string; input: object }
  | { kind: 'tool-result'; callId: string; text: string; isError: boolean };

export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ChatPart[];
}

export interface ChatTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
}

export interface ChatRequest {
  /** The model the loop asked for (an agent definition's `model`, or the session's). */
  model: string;
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ChatTool[];
}

/** What a provider streams back: text and tool calls in order, each reported as it comes. */
export interface ChatReplySink {
  /** The request is on its way (counting its input starts here, to run while the model answers). */
  sent(): void;
  text(delta: string): void;
  toolCall(call: { id: string; name: string; input: object }): void;
}

export interface ChatProvider {
  /**
   * One request. Streams through `reply` (calling `reply.sent()` once the request is made); calls `waiting` while
   * nothing has come yet. Rejects with ModelError (kind 'aborted' when the signal fired).
   */
  send(request: ChatRequest, signal: AbortSignal, reply: ChatReplySink, waiting: (waitedMs: number) => void): Promise<void>;
  /**
   * The provider's own token count for a message, a tool or a text, when it has one; a failure, or 0 for text that
   * is not empty, falls back to the core's estimate. Called once per object.
   */
  countTokens?(what: ChatMessage | ChatTool | string, model: string): Promise<number>;
  /** The input window of another model this provider reaches by name (ModelPort.contextWindow). */
  contextWindow?(modelId: string): Promise<number | undefined>;
  /** Whether it can run a model by that name (ModelPort.knows). */
  knows?(modelId: string): Promise<boolean>;
}

export function chatModelPort(provider: ChatProvider): ModelPort {
  // Per model name: per message/tool object, and per system prompt (a session has a handful).
  const counts = new Map<string, { objects: WeakMap<object, Promise<number>>; systems: Map<string, Promise<number>> }>();
  const countsFor = (model: string) => {
    let known = counts.get(model);
    if (!known) counts.set(model, (known = { objects: new WeakMap(), systems: new Map() }));
    return known;
  };
  const counted = (model: string, key: ChatMessage | ChatTool, text: () => string): Promise<number> => {
    const { objects } = countsFor(model);
    let known = objects.get(key);
    if (!known) {
      known = countOrEstimate(provider, key, text(), model);
      objects.set(key, known);
    }
    return known;
  };
  const countedSystem = (model: string, system: string): Promise<number> => {
    const { systems } = countsFor(model);
    let known = systems.get(system);
    if (!known) {
      if (systems.size > 64) systems.clear();
      known = countOrEstimate(provider, system, system, model);
      systems.set(system, known);
    }
    return known;
  };
  const contextWindow = provider.contextWindow?.bind(provider);
  const knows = provider.knows?.bind(provider);
  return {
    ...(contextWindow ? { contextWindow } : {}),
    ...(knows ? { knows } : {}),
    async stream(request: ModelRequest, signal: AbortSignal, callbacks: ModelCallbacks): Promise<ModelResponse> {
      if (signal.aborted) throw new ModelError('request aborted', 'aborted');
      const messages = request.messages.map(toChatMessage);
      const tools = request.tools.map(toChatTool);
      const chat: ChatRequest = { model: request.model, system: request.system, messages, tools };
      const content: ContentBlock[] = [];
      let text: { type: 'text'; text: string; citations: null } | undefined;
      // The provider's signal: the caller's, or a host callback that threw.
      const inner = new AbortController();
      const onAbort = (): void => inner.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      let callbackFailure: { error: unknown } | undefined;
      let input: Promise<number> | undefined;
      const startCounting = (): Promise<number> =>
        (input ??= Promise.all([
          request.system ? countedSystem(request.model, request.system) : Promise.resolve(0),
          ...messages.map((m) => counted(request.model, m, () => chatMessageText(m))),
          ...tools.map((t) => counted(request.model, t, () => `${t.name}\n${t.description}\n${JSON.stringify(t.inputSchema)}`)),
        ]).then((n) => n.reduce((a, b) => a + b, 0)));
      const sink: ChatReplySink = {
        // Counted while the model answers (a consent prompt included): off the turn's path.
        sent: () => void startCounting().catch(() => undefined),
        text(delta) {
          if (!delta || callbackFailure) return;
          if (!text) content.push((text = { type: 'text', text: '', citations: null }));
          text.text += delta;
          try {
            callbacks.onTextDelta?.(delta);
          } catch (error) {
            // The host's bug, not the model's: the request is cancelled and the error rethrown as it is.
            callbackFailure ??= { error };
            inner.abort();
          }
        },
        toolCall(call) {
          text = undefined;
          // The SDK's ToolUseBlock type also names a `caller`; the loop reads id, name and input only.
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input } as ContentBlock);
        },
      };
      try {
        await provider.send(chat, inner.signal, sink, (waitedMs) => callbacks.onWaiting?.({ attempt: 1, waitedMs }));
      } catch (err) {
        if (callbackFailure) throw callbackFailure.error;
        throw err;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
      if (callbackFailure) throw callbackFailure.error;
      if (signal.aborted) throw new ModelError('request aborted', 'aborted');
      const replyText = content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `${b.name} ${JSON.stringify(b.input)}` : '')).join('\n');
      const [inputTokens, outputTokens] = await Promise.all([startCounting(), replyText ? countOrEstimate(provider, replyText, replyText, request.model) : 0]);
      return {
        content,
        stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        usage: { ...emptyUsage(), input_tokens: inputTokens, output_tokens: outputTokens },
      };
    },
  };
}

async function countOrEstimate(provider: ChatProvider, what: ChatMessage | ChatTool | string, text: string, model: string): Promise<number> {
  try {
    const n = await provider.countTokens?.(what, model);
    if (typeof n === 'number' && Number.isFinite(n) && (n > 0 || text.trim() === '')) return n;
  } catch {
    // A model that cannot count: the estimate below.
  }
  return estimateTextTokens(text);
}

/** A message's text as a model would read it (for the estimate when the provider cannot count). */
function chatMessageText(message: ChatMessage): string {
  return message.parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'tool-call' ? `${p.name} ${JSON.stringify(p.input)}` : p.text)).join('\n');
}

const convertedMessages = new WeakMap<MessageParam, ChatMessage>();

function toChatMessage(message: MessageParam): ChatMessage {
  const cached = convertedMessages.get(message);
  if (cached) return cached;
  const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const chat: ChatMessage = {
    role: message.role === 'assistant' ? 'assistant' : 'user',
    parts: blocks.flatMap((b) => (message.role === 'assistant' ? assistantPart(b) : userPart(b))),
  };
  convertedMessages.set(message, chat);
  return chat;
}

function assistantPart(block: ContentBlockParam): ChatPart[] {
  if (block.type === 'text') return block.text ? [{ kind: 'text', text: block.text }] : [];
  if (block.type === 'tool_use') return [{ kind: 'tool-call', id: block.id, name: block.name, input: asObject(block.input) }];
  return [];
}

function userPart(block: ContentBlockParam): ChatPart[] {
  if (block.type === 'text') return block.text ? [{ kind: 'text', text: block.text }] : [];
  if (block.type === 'tool_result') return [toolResultPart(block)];
  if (block.type === 'image' || block.type === 'document') return [{ kind: 'text', text: OMITTED }];
  return [];
}

const OMITTED = '[an image or document was left out: Delegate sends this model text only]';

function toolResultPart(block: ToolResultBlockParam): ChatPart {
  const texts = typeof block.content === 'string' ? [block.content] : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : OMITTED));
  const text = texts.join('\n');
  const isError = block.is_error === true;
  // APIs without an error field: the model reads it from the text.
  const body = isError && !/^error\b/i.test(text) ? `Error: ${text}` : text;
  return { kind: 'tool-result', callId: block.tool_use_id, text: body || '(no output)', isError };
}

/** A tool call's input must be an object for chat APIs (the Messages API allows any JSON value). */
function asObject(input: unknown): object {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { value: input };
}

// Keyed by the tool's input schema: the registry builds new schema wrappers each turn around the same schema objects.
const convertedTools = new WeakMap<object, ChatTool>();

function toChatTool(tool: ToolSchema): ChatTool {
  let chat = convertedTools.get(tool.input_schema);
  if (!chat || chat.name !== tool.name || chat.description !== (tool.description ?? '')) {
    chat = { name: tool.name, description: tool.description ?? '', inputSchema: tool.input_schema };
    convertedTools.set(tool.input_schema, chat);
  }
  return chat;
}
