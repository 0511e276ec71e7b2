import { emptyUsage, type Usage, type AgentIdentity } from '../vocabulary';
/**
 * The agents of a session that are running now, each with the AbortController it owns:
 *
 *   runAgent(root) ──start──▶ [main]  ◀── parent signal: the host's (Stop, Ctrl-C)
 *     task ─▶ runAgent(child) ──start──▶ [a1f3]  ◀── linked to main's signal
 *                                      cancel('a1f3') stops a1f3 and, through the links, its descendants;
 *                                      main and the siblings go on.
 *
 * Live counters (turns, tool calls, usage) live here too, so a host that must write the last lines of
 * a dying process (`interruptionRecords`) knows what every running agent had done.
 */

export type StopCause = 'user' | 'interrupted';

export interface RunningAgent {
  readonly identity: AgentIdentity;
  readonly signal: AbortSignal;
  readonly startedAt: number;
  turns: number;
  toolCalls: number;
  /** Own usage plus finished descendants'. */
  usage: Usage;
  /** Set when someone stopped this very agent (not when its parent was stopped). */
  stoppedBy?: StopCause;
  /** The agent's finish was already recorded (by an interruption): the loop must not record it again. */
  finishRecorded: boolean;
  /** Messages sent to it while it runs (send_message: steering), taken by its loop at the start of its next turn. */
  readonly inbox: string[];
}

interface Entry extends RunningAgent {
  readonly controller: AbortController;
  readonly unlink: () => void;
}

export class AgentRegistry {
  private readonly entries = new Map<string, Entry>();

  /** Registers an agent whose controller aborts with `parentSignal`. */
  start(identity: AgentIdentity, parentSignal: AbortSignal): RunningAgent {
    if (this.entries.has(identity.agentId)) throw new Error(`agent ${identity.agentId} is already running`);
    const controller = new AbortController();
    const relay = (): void => controller.abort();
    parentSignal.addEventListener('abort', relay, { once: true });
    if (parentSignal.aborted) controller.abort();
    const entry: Entry = {
      identity,
      controller,
      signal: controller.signal,
      startedAt: Date.now(),
      turns: 0,
      toolCalls: 0,
      usage: emptyUsage(),
      finishRecorded: false,
      inbox: [],
      unlink: () => parentSignal.removeEventListener('abort', relay),
    };
    this.entries.set(identity.agentId, entry);
    return entry;
  }

  end(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (!entry) return;
    entry.unlink();
    this.entries.delete(agentId);
  }

  get(agentId: string): RunningAgent | undefined {
    return this.entries.get(agentId);
  }

  /** Every running agent, parents before their children. */
  running(): RunningAgent[] {
    return [...this.entries.values()].sort((a, b) => a.identity.depth - b.identity.depth);
  }

  /** Queues a message for a running agent's next turn. False when it is not running. */
  post(agentId: string, text: string): boolean {
    const entry = this.entries.get(agentId);
    if (!entry || entry.signal.aborted) return false;
    entry.inbox.push(text);
    return true;
  }

  /** Stops one agent (and so its descendants). False when it is not running. */
  cancel(agentId: string, cause: StopCause = 'user'): boolean {
    const entry = this.entries.get(agentId);
    if (!entry) return false;
    entry.stoppedBy ??= cause;
    entry.controller.abort();
    return true;
  }

  cancelAll(cause: StopCause): void {
    for (const entry of this.entries.values()) {
      if (entry.identity.parentId === null) {
        entry.stoppedBy ??= cause;
        entry.controller.abort();
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
