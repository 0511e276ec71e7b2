/**
 * Test-only extension: registers language models (vendor `delegate-test`) whose answers come from a
 * script (test/fixtures/lm-script.ts), so Delegate's Language Model API path runs in the real editor.
 *
 *   request ─▶ plain JSON (LmWireRequest) ─▶ responder ─▶ LmWireReply ─▶ streamed parts
 *   responder: the extension-host tests set one through this extension's exports (setResponder); with
 *   DELEGATE_TEST_LM_URL in the environment (the end-to-end tests), each request is POSTed there.
 *
 * Models: script-tools (calls tools), script-other (another family, for agent definitions' `model`),
 * script-no-tools (says it cannot call tools).
 */
import * as vscode from 'vscode';
import type { LmWirePart, LmWireReply, LmWireRequest, TestLmApi } from '../../fixtures/lm-script';

type Responder = (req: LmWireRequest) => LmWireReply | Promise<LmWireReply>;

const MODELS: vscode.LanguageModelChatInformation[] = [
  { id: 'script-tools', name: 'Script Model', family: 'script', version: '1', maxInputTokens: 120_000, maxOutputTokens: 8_000, capabilities: { toolCalling: true } },
  { id: 'script-other', name: 'Script Other', family: 'script-other', version: '1', maxInputTokens: 50_000, maxOutputTokens: 8_000, capabilities: { toolCalling: true } },
  { id: 'script-no-tools', name: 'Script Plain', family: 'script-plain', version: '1', maxInputTokens: 8_000, maxOutputTokens: 1_000, capabilities: { toolCalling: false } },
];

export function activate(context: vscode.ExtensionContext): TestLmApi {
  const url = process.env.DELEGATE_TEST_LM_URL;
  let responder: Responder = url ? httpResponder(url) : () => ({ error: { message: 'delegate-test-lm: no responder set' } });
  const timings: { model: string; ms: number }[] = [];
  const provider: vscode.LanguageModelChatProvider = {
    provideLanguageModelChatInformation: () => MODELS,
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      const started = performance.now();
      const request: LmWireRequest = { model: model.id, messages: messages.map(toWire), tools: (options.tools ?? []).map((t) => t.name), toolMode: options.toolMode };
      const reply = await responder(request);
      if (reply.delayMs) await sleep(reply.delayMs, token);
      if (reply.stall) await sleep(3_600_000, token);
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      if (reply.error) throw languageModelError(reply.error);
      // In a few pieces: the consumer must put streamed text back together.
      for (const piece of pieces(reply.text ?? '')) progress.report(new vscode.LanguageModelTextPart(piece));
      for (const call of reply.toolCalls ?? []) progress.report(new vscode.LanguageModelToolCallPart(call.callId ?? `call_${Math.random().toString(36).slice(2)}`, call.name, call.input as object));
      if (timings.length < 10_000) timings.push({ model: model.id, ms: performance.now() - started });
    },
    async provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : JSON.stringify(text.content.map(toPart));
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('delegate-test', provider));
  return {
    setResponder: (fn) => {
      responder = fn;
    },
    timings,
  };
}

function toWire(message: vscode.LanguageModelChatRequestMessage): LmWireRequest['messages'][number] {
  return { role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', parts: message.content.map(toPart) };
}

function toPart(part: unknown): LmWirePart {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { type: 'tool_call', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    const text = part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
    return { type: 'tool_result', callId: part.callId, text };
  }
  return { type: 'other' };
}

function languageModelError(error: { code?: string; message: string }): Error {
  switch (error.code) {
    case 'NoPermissions':
      return vscode.LanguageModelError.NoPermissions(error.message);
    case 'Blocked':
      return vscode.LanguageModelError.Blocked(error.message);
    case 'NotFound':
      return vscode.LanguageModelError.NotFound(error.message);
    default:
      return new Error(error.message);
  }
}

function pieces(text: string): string[] {
  if (text.length < 12) return text ? [text] : [];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

function sleep(ms: number, token: vscode.CancellationToken): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const sub = token.onCancellationRequested(done);
    function done(): void {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
}

/** The end-to-end tests' script lives in the test process: each request is POSTed to its server. */
function httpResponder(url: string): Responder {
  return async (req) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
    if (!res.ok) return { error: { message: `delegate-test-lm: the script server answered ${res.status}` } };
    return (await res.json()) as LmWireReply;
  };
}

export function deactivate(): void {}
