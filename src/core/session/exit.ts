/**
 * How a session ends when its host goes away (a signal, the editor closing, a crash), so that no process
 * group outlives it and the transcript says what happened to every agent that was still running:
 *
 *   shutdown(reason)    cancel every agent ─▶ TERM every group, ≤ grace, KILL ─▶ let loops record `cancelled`
 *                       ─▶ agents still running: an `agent_finished` {cancelled, "interrupted: reason"} each
 *   shutdownNow(reason) the same without waiting (a process 'exit' handler): KILL, records written synchronously
 */
import type { AgentRegistry } from '../loop/agent-registry';
import type { EventBus } from '../events';
import type { ProcessGroups } from '../tools/process-groups';

export interface SessionExit {
  shutdown(reason: string, graceMs?: number): Promise<void>;
  shutdownNow(reason: string): void;
}

export function createSessionExit(agents: AgentRegistry, processes: ProcessGroups, bus: EventBus): SessionExit {
  /** One `agent_finished` per agent still running, written now (the bus's synchronous path). */
  const recordInterruption = (reason: string): void => {
    for (const live of agents.running().reverse()) {
      if (live.finishRecorded) continue;
      live.finishRecorded = true;
      const { agentId, parentId } = live.identity;
      bus.emitNow(agentId, parentId, {
        type: 'agent_finished',
        status: 'cancelled',
        result: '',
        turns: live.turns,
        toolCalls: live.toolCalls,
        usage: { ...live.usage },
        durationMs: Date.now() - live.startedAt,
        error: `interrupted: ${reason}`,
      });
    }
  };

  return {
    async shutdown(reason, graceMs = 1000) {
      agents.cancelAll('interrupted');
      await processes.terminateAll(graceMs);
      // Give the loops a moment to record their own `cancelled` ends; whatever still runs is recorded here.
      const until = Date.now() + Math.min(graceMs, 500);
      while (agents.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      recordInterruption(reason);
    },
    shutdownNow(reason) {
      agents.cancelAll('interrupted');
      processes.killAllNow();
      recordInterruption(reason);
    },
  };
}
