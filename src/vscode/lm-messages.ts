/**
 * The Messages API's shapes ⇄ VS Code's Language Model API (1.95), for lm-model.ts, and their tokens (TokenCounter, below).
 *
 *   system prompt          ─▶ a leading User message (the stable API has no system role: the System role is
 *                             a proposal an installed extension may not use)
 *   text                   ⇄ LanguageModelTextPart
 *   tool_use               ⇄ LanguageModelToolCallPart (id ⇄ callId, input ⇄ input)
 *   tool_result            ─▶ LanguageModelToolResultPart (callId, text parts); is_error has no field: the
 *                             text starts with "Error:" instead; images are replaced by a line saying so
 *   thinking, server tools ─▶ dropped (another provider's blocks, from before a model switch)
 *   tool schemas           ─▶ LanguageModelChatTool { name, description, inputSchema }
 *
 * Converted messages are kept per message object (the loop appends and never mutates a sent message), so
 * a turn converts only what is new.
 */
import * as vscode from 'vscode';
import { estimateTextTokens, type ContentBlock, type ContentBlockParam, type MessageParam, type ToolResultBlockParam, type ToolSchema } from '../core/session/model-port';

type UserPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

const converted = new WeakMap<MessageParam, vscode.LanguageModelChatMessage>();

/** The request's messages for sendRequest: the system prompt first, then the conversation. */
export function toLmMessages(system: string, messages: readonly MessageParam[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  if (system) out.push(systemMessage(system));
  for (const m of messages) out.push(toLmMessage(m));
  return out;
}

const systemMessages = new Map<string, vscode.LanguageModelChatMessage>();

/** One per distinct system prompt (a session has a handful): the same object each turn, counted once. */
function systemMessage(system: string): vscode.LanguageModelChatMessage {
  let message = systemMessages.get(system);
  if (!message) {
    if (systemMessages.size > 64) systemMessages.clear();
    message = vscode.LanguageModelChatMessage.User(system);
    systemMessages.set(system, message);
  }
  return message;
}

function toLmMessage(message: MessageParam): vscode.LanguageModelChatMessage {
  const cached = converted.get(message);
  if (cached) return cached;
  const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const lm =
    message.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(blocks.flatMap(assistantPart))
      : vscode.LanguageModelChatMessage.User(blocks.flatMap(userPart));
  converted.set(message, lm);
  return lm;
}

function assistantPart(block: ContentBlockParam): AssistantPart[] {
  if (block.type === 'text') return block.text ? [new vscode.LanguageModelTextPart(block.text)] : [];
  if (block.type === 'tool_use') return [new vscode.LanguageModelToolCallPart(block.id, block.name, asObject(block.input))];
  return [];
}

function userPart(block: ContentBlockParam): UserPart[] {
  if (block.type === 'text') return block.text ? [new vscode.LanguageModelTextPart(block.text)] : [];
  if (block.type === 'tool_result') return [toolResultPart(block)];
  if (block.type === 'image' || block.type === 'document') return [new vscode.LanguageModelTextPart(OMITTED)];
  return [];
}

const OMITTED = '[an image or document was left out: this model is reached through the VS Code Language Model API, which Delegate sends text only]';

function toolResultPart(block: ToolResultBlockParam): vscode.LanguageModelToolResultPart {
  const texts = typeof block.content === 'string' ? [block.content] : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : OMITTED));
  const text = texts.join('\n');
  // No is_error field in the LM API: the model reads it from the text.
  const body = block.is_error && !/^error\b/i.test(text) ? `Error: ${text}` : text;
  return new vscode.LanguageModelToolResultPart(block.tool_use_id, [new vscode.LanguageModelTextPart(body || '(no output)')]);
}

/** A tool call's input must be an object for the LM API (the Messages API allows any JSON value). */
function asObject(input: unknown): object {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { value: input };
}

// Keyed by the tool's input schema: the registry builds new schema wrappers each turn around the same schema objects.
const convertedTools = new WeakMap<object, vscode.LanguageModelChatTool>();

export function toLmTools(tools: readonly ToolSchema[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => {
    let lm = convertedTools.get(t.input_schema);
    if (!lm || lm.name !== t.name || lm.description !== (t.description ?? '')) {
      lm = { name: t.name, description: t.description ?? '', inputSchema: t.input_schema };
      convertedTools.set(t.input_schema, lm);
    }
    return lm;
  });
}

/** A message's text as a model would read it (for estimating its tokens when the model cannot count them). */
function lmMessageText(message: vscode.LanguageModelChatMessage): string {
  return message.content
    .map((p) =>
      p instanceof vscode.LanguageModelTextPart
        ? p.value
        : p instanceof vscode.LanguageModelToolCallPart
          ? `${p.name} ${JSON.stringify(p.input)}`
          : p.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('\n'),
    )
    .join('\n');
}

/**
 * Builds the assistant message from the response stream's parts: consecutive text parts join into one
 * text block; a tool call becomes a tool_use block in its place. Other parts (thinking, data) are not kept.
 */
export class ResponseBuilder {
  readonly content: ContentBlock[] = [];
  /** The text block that text parts extend (-1 after a tool call: the next text starts a new block). */
  private textIndex = -1;

  /** Returns the text to stream, if the part was text. */
  add(part: unknown): string | undefined {
    if (part instanceof vscode.LanguageModelTextPart) {
      if (!part.value) return undefined;
      if (this.textIndex < 0) this.textIndex = this.content.push({ type: 'text', text: '', citations: null }) - 1;
      (this.content[this.textIndex] as { text: string }).text += part.value;
      return part.value;
    }
    if (part instanceof vscode.LanguageModelToolCallPart) {
      this.textIndex = -1;
      // The SDK's ToolUseBlock type also names a `caller`; the loop reads id, name and input only.
      this.content.push({ type: 'tool_use', id: part.callId, name: part.name, input: part.input } as ContentBlock);
    }
    return undefined;
  }

  get toolCalls(): number {
    return this.content.filter((b) => b.type === 'tool_use').length;
  }

  /** The whole reply as text, for counting its tokens. */
  countableText(): string {
    return this.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `${b.name} ${JSON.stringify(b.input)}` : '')).join('\n');
  }
}

/**
 * Token counts for a Language Model API reply. The stable API reports no usage, so the model's own
 * tokenizer counts (`countTokens`): the request's input (system prompt, tools, every message) and the
 * reply's output. Compaction measures the context from these figures, so they must be whole-request.
 *
 * Counting stays off the turn's path: each message, tool and system prompt is counted once (kept per
 * object), the input is counted while the model answers, and a count the model cannot give (an error,
 * or 0 for text that is not empty — a provider in another extension host answers 0) falls back to the
 * core's estimate.
 */
export class TokenCounter {
  private readonly counts = new WeakMap<object, Promise<number>>();

  constructor(private readonly model: vscode.LanguageModelChat) {}

  /** The request's input tokens (start it when the request is sent: it runs while the model answers). */
  async input(messages: readonly vscode.LanguageModelChatMessage[], tools: readonly vscode.LanguageModelChatTool[]): Promise<number> {
    const parts = [
      ...messages.map((m) => this.cached(m, () => this.count(m, lmMessageText(m)))),
      ...tools.map((t) => this.cached(t, () => {
        const text = `${t.name}\n${t.description}\n${JSON.stringify(t.inputSchema ?? {})}`;
        return this.count(text, text);
      })),
    ];
    const counts = await Promise.all(parts);
    return counts.reduce((a, b) => a + b, 0);
  }

  /** The reply's output tokens. */
  output(text: string): Promise<number> {
    return text ? this.count(text, text) : Promise.resolve(0);
  }

  private cached(key: object, count: () => Promise<number>): Promise<number> {
    let known = this.counts.get(key);
    if (!known) {
      known = count();
      this.counts.set(key, known);
    }
    return known;
  }

  private async count(what: string | vscode.LanguageModelChatMessage, text: string): Promise<number> {
    try {
      const n = await this.model.countTokens(what);
      if (typeof n === 'number' && Number.isFinite(n) && (n > 0 || text.trim() === '')) return n;
    } catch {
      // A model that cannot count: the estimate below.
    }
    return estimateTextTokens(text);
  }
}
