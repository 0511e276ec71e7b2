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
import type * as vscode from 'vscode';
import { lmMessageText } from './lm-messages';
import { estimateTextTokens } from '../core/session/model-port';

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
