/**
 * Background subagents of one agent: `task{run_in_background: true}` returns at once with the child's id
 * and the parent goes on; the child keeps running (linked to the parent's own signal, so Stop reaches it).
 *
 *   parent turn n   task{…, run_in_background} ──▶ "started <id> in the background" (immediately)
 *   parent turn n+k before its request: children finished since ──▶ a note with their reports
 *   parent's final answer while children still run ──▶ it waits for the next one, then goes on with it
 *   task_output{id, wait?} ──▶ a child's status or report (waiting for it when asked)
 */
import { asRecord, type ParseResult, type Tool, type ToolResult } from '../tools/types';

interface Child {
  id: string;
  description: string;
  done: Promise<ToolResult>;
  result?: ToolResult;
  /** Its report already reached the parent (a note or task_output). */
  reported: boolean;
}

export class BackgroundChildren {
  private readonly children = new Map<string, Child>();

  start(id: string, description: string, run: Promise<ToolResult>): void {
    const child: Child = { id, description, done: run, reported: false };
    run.then(
      (result) => (child.result = result),
      (err: unknown) => (child.result = { content: `The subagent failed: ${err instanceof Error ? err.message : String(err)}`, isError: true }),
    );
    this.children.set(id, child);
  }

  /** How many were started in this run (finished or not). */
  get started(): number {
    return this.children.size;
  }

  get running(): number {
    return [...this.children.values()].filter((c) => c.result === undefined).length;
  }

  /** The reports of children that finished and were not told yet, as one note (undefined when none). */
  takeFinished(): string | undefined {
    const finished = [...this.children.values()].filter((c) => c.result !== undefined && !c.reported);
    if (finished.length === 0) return undefined;
    for (const c of finished) c.reported = true;
    return finished.map((c) => `[Background subagent ${c.id} ("${c.description}") finished${c.result?.isError ? ' with an error' : ''}:]\n${c.result?.content ?? ''}`).join('\n\n');
  }

  /** Resolves when any running child finishes (at once when none runs) or `signal` aborts. */
  async waitAny(signal: AbortSignal): Promise<void> {
    const running = [...this.children.values()].filter((c) => c.result === undefined).map((c) => c.done.then(() => undefined, () => undefined));
    if (running.length === 0 || signal.aborted) return;
    await Promise.race([...running, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]);
    // Let the result handlers above run before the caller looks.
    await Promise.resolve();
  }

  /** Waits for every child (they end by themselves when the agent is cancelled). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.children.values()].map((c) => c.done));
  }

  /** `task_output{id, wait?}`: one child's status or report. */
  tool(): Tool<{ id: string; wait: boolean }> {
    return {
      name: 'task_output',
      kind: 'read',
      description:
        'Check on a background subagent: its report once it has finished, else that it is still running (wait: true waits). ' +
        'Reports also reach you by themselves at the start of a later turn.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          wait: { type: 'boolean' },
        },
        required: ['id'],
      },
      parse: (raw): ParseResult<{ id: string; wait: boolean }> => {
        const rec = asRecord(raw);
        if (!rec || typeof rec.id !== 'string' || rec.id.trim() === '') return { ok: false, error: 'task_output needs "id" (the id a background task call returned)' };
        return { ok: true, input: { id: rec.id.trim(), wait: rec.wait === true } };
      },
      describe: (input) => ({ summary: `${input.id}${input.wait ? ' (wait)' : ''}`, paths: [] }),
      execute: async (input, ctx) => {
        const child = this.children.get(input.id);
        if (!child) {
          const ids = [...this.children.keys()];
          return { content: `No background subagent "${input.id}"${ids.length ? `; started so far: ${ids.join(', ')}` : ''}`, isError: true };
        }
        if (child.result === undefined && input.wait) {
          await Promise.race([child.done.catch(() => undefined), new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }))]);
          await Promise.resolve();
        }
        if (child.result === undefined) return { content: `Subagent ${child.id} ("${child.description}") is still running.` };
        child.reported = true;
        return { content: child.result.content, ...(child.result.isError ? { isError: true } : {}) };
      },
    };
  }
}
