/**
 * The hook before each model request where compaction lives (compaction-edits.ts: what it does to the messages):
 * measures the context, stubs old tool results, asks the model for a summary when that is not enough,
 * and records what it did as a `compacted` event. Shared by the loop (auto, overflow) and the session
 * (manual: `Delegate: Compact Conversation`, `delegate --compact`).
 */
import { type AgentEmit } from '../events';
import type { MessageParam, ModelPort } from '../llm/types';
import { applyCompaction, KEEP_TURNS, stubOldToolResults, stubText, SUMMARY_SYSTEM, summaryCut, summaryPrompt, transcriptText } from './compaction-edits';
import { estimateMessagesTokens, type ContextMeter } from './context-size';
import { addUsage, type Usage } from '../vocabulary';

export type CompactionTrigger = 'auto' | 'manual' | 'overflow';

export interface ContextSettings {
  /** The model's context window in tokens. */
  window: number;
  /** Fraction of the window at which compaction starts (0.8 = 80%). */
  threshold: number;
}

export interface CompactionDeps {
  model: ModelPort;
  modelId: string;
  /** max_tokens for a request to this model (the session's override, else the model's default). */
  maxTokensFor(modelId: string): number;
  context: ContextSettings;
  /** Saves a dropped tool result's full text; returns where. */
  saveFullOutput(toolUseId: string, content: string): Promise<string>;
}

export interface CompactionScope {
  messages: readonly MessageParam[];
  meter: ContextMeter;
  /** System prompt + tool schemas, in tokens (what the compacted conversation is sent with). */
  fixedTokens: number;
  emit: AgentEmit;
  signal: AbortSignal;
  /** The summary request's usage is added here (the agent pays for its own compaction). */
  usage: Usage;
  turn: number;
}

/**
 * Stubs alone must bring the context under this share of the limit, else the older turns are summarized too. Each
 * compaction rewrites the prompt cache from its first change on (the whole conversation, at 1.25× the input price):
 * with stubs that free only a little, it came every few turns once the turns' own framing filled the window, and the
 * billed input per turn doubled from 20 to 200 turns (bench section 13) while the context stayed the same.
 */
const LOW_WATER = 0.5;

/** Returns the compacted conversation, or undefined when nothing needed (or could) be done. */
export async function compactIfNeeded(scope: CompactionScope, deps: CompactionDeps, trigger: CompactionTrigger): Promise<MessageParam[] | undefined> {
  const limit = Math.floor(deps.context.window * deps.context.threshold);
  const before = scope.meter.size(scope.messages);
  if (trigger === 'auto' && before < limit) return undefined;

  const stubs = await stubOldToolResults(scope.messages, KEEP_TURNS, async (id, text) => stubText(text.length, await deps.saveFullOutput(id, text)));
  let out = applyCompaction(scope.messages, { stubs });
  let after = scope.fixedTokens + estimateMessagesTokens(out);
  let summary: string | undefined;
  let keptMessages: number | undefined;

  // Asked for by the user: everything but the last turn is summarized (automatic compaction keeps more).
  const cut = summaryCut(out, trigger === 'manual' ? 1 : KEEP_TURNS);
  if ((after >= limit * LOW_WATER || trigger !== 'auto') && cut > 0) {
    summary = await summarize(out.slice(0, cut), scope, deps);
    if (summary !== undefined) {
      const kept = out.length - cut;
      const summarized = applyCompaction(scope.messages, { stubs, summary, keptMessages: kept });
      const size = scope.fixedTokens + estimateMessagesTokens(summarized);
      // A summary longer than what it replaces (a short conversation) is not a compaction.
      if (size < after) {
        out = summarized;
        after = size;
        keptMessages = kept;
      } else summary = undefined;
    }
  }
  if (Object.keys(stubs).length === 0 && summary === undefined) return undefined;
  await scope.emit({
    type: 'compacted',
    trigger,
    tokensBefore: before,
    tokensAfter: after,
    stubs,
    ...(summary !== undefined ? { summary, keptMessages } : {}),
  });
  scope.meter.reset();
  return out;
}

/** One request without tools; a failure is reported and leaves the stubs as the only compaction. */
async function summarize(head: readonly MessageParam[], scope: CompactionScope, deps: CompactionDeps): Promise<string | undefined> {
  const budget = Math.floor(deps.context.window * 0.5);
  try {
    const response = await deps.model.stream(
      {
        model: deps.modelId,
        maxTokens: Math.min(deps.maxTokensFor(deps.modelId), 8000),
        // A summary needs no deliberation, and an unrequested default (adaptive, high effort) would eat its 8,000 tokens.
        thinking: 'off',
        system: SUMMARY_SYSTEM,
        messages: [{ role: 'user', content: summaryPrompt(transcriptText(head, budget)) }],
        tools: [],
      },
      scope.signal,
      {},
    );
    addUsage(scope.usage, response.usage);
    await scope.emit({ type: 'usage', turn: scope.turn, usage: response.usage });
    const text = response.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
    return text || undefined;
  } catch (err) {
    if (scope.signal.aborted) throw err;
    await scope.emit({ type: 'error', message: `compaction: the summary request failed (${err instanceof Error ? err.message : String(err)}); old tool outputs were dropped instead`, retrying: false });
    return undefined;
  }
}

/** The API's answer to a request over the window (an error, or a run's error text): compact once and try again instead of ending the run. */
export function isPromptTooLong(err: unknown): boolean {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : undefined;
  return text !== undefined && /prompt is too long|context.{0,20}(length|window).{0,20}exceed|too many tokens/i.test(text);
}
