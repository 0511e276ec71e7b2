/**
 * A scripted in-process model for fast tests and the benchmark. Strict, like agents-js's fake model:
 * a request with no step left fails loudly, and `assertDone()` fails on any step left unconsumed.
 *
 *   route(request) ──▶ "child-a" ──▶ [step, step, …]   (concurrent subagents get their own script)
 *                 └──▶ "default" ──▶ [step, step, …]
 */
import { abortableDelay } from '../../src/core/errors';
import type { ContentBlock, ModelCallbacks, ModelPort, ModelRequest, ModelResponse } from '../../src/core/llm/types';
import { ModelError } from '../../src/core/llm/types';
import { emptyUsage, type Usage } from '../../src/core/vocabulary';

export interface ScriptedReply {
  text?: string;
  toolUses?: { name: string; input: unknown; id?: string }[];
  usage?: Partial<Usage>;
  /** Defaults to tool_use when there are tool uses, else end_turn. */
  stopReason?: string;
  /** Reject with this error instead of answering (e.g. a fatal API error). */
  error?: ModelError;
  /** Wait this long (abortable) before answering. */
  delayMs?: number;
}

export type ScriptedStep = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

export interface RecordedModelRequest {
  route: string;
  request: ModelRequest;
}

let idCounter = 0;

export class ScriptedModel implements ModelPort {
  readonly requests: RecordedModelRequest[] = [];
  private readonly scripts = new Map<string, ScriptedStep[]>();
  private readonly failures: string[] = [];

  constructor(private readonly route: (request: ModelRequest) => string = () => 'default') {}

  /** Appends steps to the script of one route. */
  script(route: string, ...steps: ScriptedStep[]): this {
    const list = this.scripts.get(route) ?? [];
    list.push(...steps);
    this.scripts.set(route, list);
    return this;
  }

  async stream(request: ModelRequest, signal: AbortSignal, callbacks: ModelCallbacks): Promise<ModelResponse> {
    // Snapshot: the loop keeps appending to its arrays after the call.
    const snapshot: ModelRequest = { ...request, messages: structuredClone(request.messages), tools: [...request.tools] };
    const route = this.route(snapshot);
    this.requests.push({ route, request: snapshot });
    const step = this.scripts.get(route)?.shift();
    if (!step) {
      const failure = `ScriptedModel: unexpected request on route "${route}" (no step left); last message: ${describeLast(snapshot)}`;
      this.failures.push(failure);
      throw new Error(failure);
    }
    const reply = typeof step === 'function' ? step(snapshot) : step;
    if (reply.delayMs) await abortableDelay(reply.delayMs, signal);
    if (signal.aborted) throw new ModelError('request aborted', 'aborted');
    if (reply.error) throw reply.error;
    const content: ContentBlock[] = [];
    if (reply.text !== undefined) {
      callbacks.onTextDelta?.(reply.text);
      content.push({ type: 'text', text: reply.text, citations: null });
    }
    for (const use of reply.toolUses ?? []) {
      content.push({ type: 'tool_use', id: use.id ?? `toolu_scripted_${++idCounter}`, name: use.name, input: use.input, caller: { type: 'direct' } } as ContentBlock);
    }
    return {
      content,
      stopReason: reply.stopReason ?? (reply.toolUses?.length ? 'tool_use' : 'end_turn'),
      usage: { ...emptyUsage(), input_tokens: 10, output_tokens: 5, ...reply.usage },
    };
  }

  /** Fails if any route still has steps, or if any request found none. */
  assertDone(): void {
    const left = [...this.scripts].filter(([, steps]) => steps.length > 0).map(([route, steps]) => `${route}: ${steps.length} step(s)`);
    const problems = [...this.failures, ...(left.length ? [`ScriptedModel: unconsumed steps: ${left.join(', ')}`] : [])];
    if (problems.length) throw new Error(problems.join('\n'));
  }
}

function describeLast(request: ModelRequest): string {
  const last = request.messages.at(-1);
  return last ? JSON.stringify(last.content).slice(0, 200) : '(none)';
}

/** The text of a request's first user message: a handy routing key for concurrent subagents. */
export function firstUserText(request: ModelRequest): string {
  const first = request.messages[0];
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
