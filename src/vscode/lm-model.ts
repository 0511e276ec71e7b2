/**
 * The core's ModelPort over VS Code's Language Model API: any model an extension provides (Copilot's, or
 * another's) runs Delegate's agents. One request per call, its parts streamed back:
 *
 *   stream(request)
 *     model: request.model is this port's key ─▶ its model; else `others(id)` (an agent definition's
 *            `model`), and where no VS Code model has that name, this port's model and one notice
 *     messages, tools ─▶ lm-messages.ts (system prompt as a leading User message)
 *     sendRequest(…, { tools, toolMode: Auto, justification }, token)   token ◀── signal
 *       │ the editor's consent prompt, when the model needs one, is inside this call
 *       │ LanguageModelTextPart ─▶ onTextDelta     LanguageModelToolCallPart ─▶ tool_use
 *       ▼
 *     usage: lm-messages.ts's TokenCounter (countTokens, while the model answers)
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
import { ResponseBuilder, TokenCounter, toLmMessages, toLmTools } from './lm-messages';
import { emptyUsage } from '../core/vocabulary';
import { ModelError, type ModelCallbacks, type ModelPort, type ModelRequest, type ModelResponse } from '../core/session/model-port';

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

/** A host callback threw: rethrown as it is (the host's bug, not the model's). */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

const JUSTIFICATION = "Delegate's agents use this model to work on your prompt: they read and change files in your workspace through tools, with your approval where you set it.";

export function createLmModel(opts: LmModelOptions): LmModelPort {
  const counters = new WeakMap<vscode.LanguageModelChat, TokenCounter>();
  const counterFor = (model: vscode.LanguageModelChat): TokenCounter => {
    let counter = counters.get(model);
    if (!counter) counters.set(model, (counter = new TokenCounter(model)));
    return counter;
  };
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
  return {
    key: opts.key,
    model: opts.model,
    knows: async (name) => name === opts.key || (await opts.others?.(name)) !== undefined,
    // An agent definition's model: its own input limit (the session's model: the session's window).
    async contextWindow(name) {
      if (name === opts.key || !name) return undefined;
      const other = await opts.others?.(name);
      return other && other.maxInputTokens > 0 ? other.maxInputTokens : undefined;
    },
    async stream(request, signal, callbacks) {
      const model = await modelFor(request.model);
      return streamOnce(model, counterFor(model), request, signal, callbacks, opts.waitingNoticeMs ?? 10_000);
    },
  };
}

async function streamOnce(
  model: vscode.LanguageModelChat,
  counter: TokenCounter,
  request: ModelRequest,
  signal: AbortSignal,
  callbacks: ModelCallbacks,
  waitingMs: number,
): Promise<ModelResponse> {
  if (request.tools.length > 0 && supportsToolCalling(model) === false) throw modelError(noToolsFailure(model));
  if (signal.aborted) throw new ModelError('request aborted', 'aborted');
  const messages = toLmMessages(request.system, request.messages);
  const tools = toLmTools(request.tools);
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  const asked = Date.now();
  let waiting: NodeJS.Timeout | undefined = setInterval(() => callbacks.onWaiting?.({ attempt: 1, waitedMs: Date.now() - asked }), waitingMs);
  const stopWaiting = (): void => {
    clearInterval(waiting);
    waiting = undefined;
  };
  let input: Promise<number> | undefined;
  try {
    const options: vscode.LanguageModelChatRequestOptions = { justification: JUSTIFICATION, ...(tools.length ? { tools, toolMode: vscode.LanguageModelChatToolMode.Auto } : {}) };
    const pending = model.sendRequest(messages, options, cancel.token);
    // Counted while the model answers (a consent prompt included): off the turn's path.
    input = counter.input(messages, tools);
    const response = await pending;
    const reply = new ResponseBuilder();
    for await (const part of response.stream) {
      if (waiting) stopWaiting();
      const text = reply.add(part);
      try {
        if (text) callbacks.onTextDelta?.(text);
      } catch (error) {
        throw new CallbackFailure(error);
      }
    }
    if (signal.aborted) throw new ModelError('request aborted', 'aborted');
    const [inputTokens, outputTokens] = await Promise.all([input, counter.output(reply.countableText())]);
    return {
      content: reply.content,
      stopReason: reply.toolCalls > 0 ? 'tool_use' : 'end_turn',
      usage: { ...emptyUsage(), input_tokens: inputTokens, output_tokens: outputTokens },
    };
  } catch (err) {
    if (err instanceof CallbackFailure) {
      cancel.cancel();
      throw err.error;
    }
    throw err instanceof ModelError ? err : modelError(lmFailure(err, model, signal.aborted));
  } finally {
    stopWaiting();
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
    // A failed request's counting still settles; nobody waits for it.
    input?.catch(() => undefined);
  }
}

const modelError = (f: LmFailure): ModelError => new ModelError(f.message, f.kind);
