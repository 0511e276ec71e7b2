/**
 * One Delegate run as a Chat view response: the session's events in, the response stream's parts out.
 *
 *   main agent's text_delta ──────────────▶ markdown, as it streams
 *   a subagent starts ────────────────────▶ progress line naming every subagent still running
 *   a subagent finishes ──────────────────▶ one line: status, description, turns · tool calls · tokens,
 *                                            a button that reveals its node in the Delegate panel, and
 *                                            the progress line again for those still running
 *
 * The Chat view spins only on the newest progress part and drops it once anything follows: a finished
 * sibling's line would otherwise leave a subagent that still runs with nothing saying so.
 *
 * The panel shows everything else (every tool call, the approvals): the chat stays a summary.
 */
import type * as vscode from 'vscode';
import type { DelegateEvent } from '../core/events';
import { isRootEvent } from '../core/session/history';
import { formatDuration, formatTokens } from '../view-model/format';
import type { AgentStatus } from '../core/vocabulary';

const STATUS_MARK: Record<AgentStatus, string> = { completed: '✓', max_turns: '◐', budget_exceeded: '◐', error: '✗', cancelled: '■' };
const STATUS_WORD: Record<AgentStatus, string> = { completed: '', max_turns: ' (turn limit reached)', budget_exceeded: ' (budget reached)', error: ' (failed)', cancelled: ' (stopped)' };

export class ChatProgress {
  /** Subagents seen starting: their description (the finish line names it). */
  private readonly subagents = new Map<string, string>();
  /** Those not finished yet, in the order they started. */
  private readonly running = new Set<string>();
  /** True after a progress or summary line: the main agent's next text starts a new paragraph. */
  private afterLine = false;
  /** The main agent streamed some text (else the final answer is written at the end). */
  streamedText = false;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    /** The main agent's events (its text streams into the response); tests pass their own. */
    private readonly isRoot: (event: DelegateEvent) => boolean = isRootEvent,
  ) {}

  onEvent(event: DelegateEvent): void {
    switch (event.type) {
      case 'text_delta':
        if (!this.isRoot(event) || !event.text) return;
        this.stream.markdown(this.afterLine ? `\n\n${event.text}` : event.text);
        this.afterLine = false;
        this.streamedText = true;
        return;
      case 'agent_started':
        if (event.parentId === null) return;
        this.subagents.set(event.agentId, event.description ?? 'subagent');
        this.running.add(event.agentId);
        this.showRunning();
        this.afterLine = true;
        return;
      case 'agent_finished': {
        const description = this.subagents.get(event.agentId);
        if (description === undefined) return;
        this.running.delete(event.agentId);
        const mark = STATUS_MARK[event.status];
        const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
        const figures = [plural(event.turns, 'turn'), plural(event.toolCalls, 'tool call'), formatTokens({ input: event.usage.input_tokens + event.usage.cache_read_input_tokens + event.usage.cache_creation_input_tokens, output: event.usage.output_tokens }), formatDuration(event.durationMs)];
        this.stream.markdown(`\n\n${mark} **${escapeMarkdown(description)}**${STATUS_WORD[event.status]} — ${figures.join(' · ')}\n\n`);
        this.stream.button({ title: 'Show in Delegate panel', command: 'delegate.revealAgent', arguments: [event.agentId] });
        this.showRunning();
        this.afterLine = true;
        return;
      }
      default:
        return;
    }
  }

  /** One progress line for every subagent still running ("Subagent: a" or "Subagents: a, b"). */
  private showRunning(): void {
    if (this.running.size === 0) return;
    const names = [...this.running].map((id) => this.subagents.get(id) ?? 'subagent');
    this.stream.progress(`${names.length === 1 ? 'Subagent' : 'Subagents'}: ${names.join(', ')}`);
  }
}

/** A description is the model's words: it must not turn into links or emphasis. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}
