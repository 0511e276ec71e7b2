/**
 * The core's ModelPort over VS Code's Language Model API: any model an extension provides (Copilot's, or
 * another's) runs Delegate's agents. One request per call, its parts streamed back:
 *
 *   stream(request)
 *     model: request.model is this port's key ─▶ its model; else `others(id)` (an agent definition's
 *            `model`), and where no VS Code model has that name, this port's model and one notice
 *     the core's chat port (core/llm/chat-model.ts) maps the Messages API to plain parts; lm-messages.ts
 *     maps those to VS Code's (system prompt as a leading User message)
 *     sendRequest(…, { tools, toolMode: Auto, justification }, token)   token ◀── signal
 *       │ the editor's consent prompt, when the model needs one, is inside this call
 *       │ LanguageModelTextPart ─▶ onTextDelta     LanguageModelToolCallPart ─▶ tool_use
 *       ▼
 *     usage: the chat port counts each message and tool once, through countTokens (while the model answers)
 *
 * What the Messages API says that this API cannot:
 *   - toolChoice 'none' (the forced final answer): toolMode has Auto and Required only. The tools stay
 *     (a conversation holding tool calls needs them), the loop's "answer now" note asks for the answer,
 *     and the loop drops any tool call of that reply, as it does for the Messages API.
 *   - maxTokens and stop reasons: no such option or field. stopReason is tool_use when the reply calls a
 *     tool, else end_turn; a reply cut by the model's own limit is not continued.
 *   - server tools (web search): not sent.
 *   - no retries here: the provider owns its transport (Copilot retries itself); a failure is one line.
 */
import * as vscode from 'vscode';
import { lmFailure, modelLabel, noToolsFailure, supportsToolCalling, type LmFailure } from './lm-errors';
import { toLmMessage, toLmMessages, toLmTools } from './lm-messages';
import { chatModelPort, ModelError, type ChatProvider, type ModelPort } from '../core/session/model-port';

export interface LmModelOptions {
  model: vscode.LanguageModelChat;
  /** The model id the session uses for `model` (lm-catalog.ts: `vendor/id`). */
  key: string;
  /** Another VS Code model by the name an agent definition gives; undefined when none has it. */
  others?: (name: string) => Promise<vscode.LanguageModelChat | undefined>;
  /** Said once per name that names no VS Code model (the session's notice: the panel shows it). */
  onNotice?: (text: string) => void;
  /** While no part has come, tell the caller (onWaiting) every this many ms. Default 10 000. */
  waitingNoticeMs?: number;
}

export interface LmModelPort extends ModelPort {
  readonly key: string;
  readonly model: vscode.LanguageModelChat;
}

const JUSTIFICATION = "Delegate's agents use this model to work on your prompt: they read and change files in your workspace through tools, with your approval where you set it.";

export function createLmModel(opts: LmModelOptions): LmModelPort {
  const unmatched = new Set<string>();
  const modelFor = async (name: string): Promise<vscode.LanguageModelChat> => {
    if (name === opts.key || !name) return opts.model;
    const other = await opts.others?.(name);
    if (other) return other;
    if (!unmatched.has(name)) {
      unmatched.add(name);
      opts.onNotice?.(`no VS Code language model is called “${name}”: agents that ask for it run on ${modelLabel(opts.model)}`);
    }
    return opts.model;
  };
  const provider: ChatProvider = {
    knows: async (name) => name === opts.key || (await opts.others?.(name)) !== undefined,
    // An agent definition's model: its own input limit (the session's model: the session's window).
    async contextWindow(name) {
      if (name === opts.key || !name) return undefined;
      const other = await opts.others?.(name);
      return other && other.maxInputTokens > 0 ? other.maxInputTokens : undefined;
    },
    async countTokens(what, name) {
      const model = await modelFor(name);
      if (typeof what === 'string') return model.countTokens(what);
      if ('role' in what) return model.countTokens(toLmMessage(what));
      return model.countTokens(`${what.name}\n${what.description}\n${JSON.stringify(what.inputSchema ?? {})}`);
    },
    async send(request, signal, reply, waiting) {
      const model = await modelFor(request.model);
      return sendOnce(model, request, signal, reply, waiting, opts.waitingNoticeMs ?? 10_000);
    },
  };
  return { key: opts.key, model: opts.model, ...chatModelPort(provider) };
}

async function sendOnce(
  model: vscode.LanguageModelChat,
  request: Parameters<ChatProvider['send']>[0],
  signal: AbortSignal,
  reply: Parameters<ChatProvider['send']>[2],
  waiting: (waitedMs: number) => void,
  waitingMs: number,
): Promise<void> {
  if (request.tools.length > 0 && supportsToolCalling(model) === false) throw modelError(noToolsFailure(model));
  if (signal.aborted) throw new ModelError('request aborted', 'aborted');
  const messages = toLmMessages(request.system, request.messages);
  const tools = toLmTools(request.tools);
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  const asked = Date.now();
  let timer: NodeJS.Timeout | undefined = setInterval(() => waiting(Date.now() - asked), waitingMs);
  const stopWaiting = (): void => {
    clearInterval(timer);
    timer = undefined;
  };
  try {
    const options: vscode.LanguageModelChatRequestOptions = { justification: JUSTIFICATION, ...(tools.length ? { tools, toolMode: vscode.LanguageModelChatToolMode.Auto } : {}) };
    const pending = model.sendRequest(messages, options, cancel.token);
    reply.sent();
    const response = await pending;
    for await (const part of response.stream) {
      if (timer) stopWaiting();
      if (part instanceof vscode.LanguageModelTextPart) reply.text(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart) reply.toolCall({ id: part.callId, name: part.name, input: part.input });
      // Other parts (thinking, data) are not kept.
      if (signal.aborted) break;
    }
    if (signal.aborted) throw new ModelError('request aborted', 'aborted');
  } catch (err) {
    throw err instanceof ModelError ? err : modelError(lmFailure(err, model, signal.aborted));
  } finally {
    stopWaiting();
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

const modelError = (f: LmFailure): ModelError => new ModelError(f.message, f.kind);
