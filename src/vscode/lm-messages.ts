/**
 * The core's chat parts ⇄ VS Code's Language Model API (1.95), for lm-model.ts. The core maps the Messages API to
 * plain parts (core/llm/chat-model.ts); this maps those parts to VS Code's:
 *
 *   system prompt ─▶ a leading User message (the stable API has no system role: the System role is
 *                    a proposal an installed extension may not use)
 *   text          ⇄ LanguageModelTextPart
 *   tool-call     ⇄ LanguageModelToolCallPart (id ⇄ callId, input ⇄ input)
 *   tool-result   ─▶ LanguageModelToolResultPart (callId, one text part; the core already said an error in the text:
 *                    the LM API has no is_error field)
 *   tools         ─▶ LanguageModelChatTool { name, description, inputSchema }
 *
 * The core hands over the same ChatMessage object for the same message every turn: converted messages are kept per
 * object, so a turn converts only what is new and countTokens sees the same VS Code message.
 */
import * as vscode from 'vscode';
import type { ChatMessage, ChatTool } from '../core/session/model-port';

type UserPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;
type Part = ChatMessage['parts'][number];

const converted = new WeakMap<ChatMessage, vscode.LanguageModelChatMessage>();

/** The request's messages for sendRequest: the system prompt first, then the conversation. */
export function toLmMessages(system: string, messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  if (system) out.push(systemMessage(system));
  for (const m of messages) out.push(toLmMessage(m));
  return out;
}

const systemMessages = new Map<string, vscode.LanguageModelChatMessage>();

/** One per distinct system prompt (a session has a handful): the same object each turn. */
function systemMessage(system: string): vscode.LanguageModelChatMessage {
  let message = systemMessages.get(system);
  if (!message) {
    if (systemMessages.size > 64) systemMessages.clear();
    message = vscode.LanguageModelChatMessage.User(system);
    systemMessages.set(system, message);
  }
  return message;
}

export function toLmMessage(message: ChatMessage): vscode.LanguageModelChatMessage {
  const cached = converted.get(message);
  if (cached) return cached;
  const lm =
    message.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(message.parts.flatMap(assistantPart))
      : vscode.LanguageModelChatMessage.User(message.parts.flatMap(userPart));
  converted.set(message, lm);
  return lm;
}

function assistantPart(part: Part): AssistantPart[] {
  if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.text)];
  if (part.kind === 'tool-call') return [new vscode.LanguageModelToolCallPart(part.id, part.name, part.input)];
  return [];
}

function userPart(part: Part): UserPart[] {
  if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.text)];
  if (part.kind === 'tool-result') return [new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)])];
  return [];
}

const convertedTools = new WeakMap<ChatTool, vscode.LanguageModelChatTool>();

export function toLmTools(tools: readonly ChatTool[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => {
    let lm = convertedTools.get(t);
    if (!lm) {
      lm = { name: t.name, description: t.description, inputSchema: t.inputSchema };
      convertedTools.set(t, lm);
    }
    return lm;
  });
}
