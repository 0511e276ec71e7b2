/**
 * The hook registry: one instance per run, shared by the parent and every subagent, so
 * delegating never becomes a way around policy.
 *
 *   PreToolUse   → allow (skip the approval question) | deny with reason | replace the input
 *   PostToolUse  → replace the output
 *   SubagentStart / SubagentStop → observe (audit, metrics)
 *
 * Handlers run in registration order. A handler that throws denies the call (PreToolUse) or is
 * reported and ignored (others): a broken hook must fail closed, never crash the run.
 */
import { errorText } from '../errors';
import type { AgentStatus } from '../events';
import type { ToolResult } from '../tools/types';
import type { AgentIdentity } from './types';

export interface PreToolUseContext {
  agent: AgentIdentity;
  toolUseId: string;
  toolName: string;
  input: unknown;
}

export type PreToolUseDecision =
  | { decision: 'allow' }
  | { decision: 'deny'; reason: string }
  | { decision: 'replace'; input: unknown };

export interface PostToolUseContext extends PreToolUseContext {
  output: ToolResult;
}

export interface SubagentStartContext {
  agent: AgentIdentity;
  prompt: string;
}

export interface SubagentStopContext {
  agent: AgentIdentity;
  status: AgentStatus;
  result: string;
  turns: number;
}

type Awaitable<T> = T | Promise<T>;

export interface HookHandlers {
  PreToolUse: (ctx: PreToolUseContext) => Awaitable<PreToolUseDecision | undefined>;
  PostToolUse: (ctx: PostToolUseContext) => Awaitable<{ output: ToolResult } | undefined>;
  SubagentStart: (ctx: SubagentStartContext) => Awaitable<void>;
  SubagentStop: (ctx: SubagentStopContext) => Awaitable<void>;
}

export type HookEvent = keyof HookHandlers;

/** What PreToolUse handlers decided together: denial wins, replacements chain. */
export interface PreToolUseOutcome {
  denied?: string;
  /** A hook explicitly allowed the call: no approval question (confinement and deny list still hold). */
  allowed: boolean;
  input: unknown;
}

export class HookRegistry {
  private readonly handlers: { [E in HookEvent]: HookHandlers[E][] } = {
    PreToolUse: [],
    PostToolUse: [],
    SubagentStart: [],
    SubagentStop: [],
  };

  /** Registers a handler; returns a function that removes it. */
  on<E extends HookEvent>(event: E, handler: HookHandlers[E]): () => void {
    const list = this.handlers[event] as HookHandlers[E][];
    list.push(handler);
    return () => {
      const i = list.indexOf(handler);
      if (i >= 0) list.splice(i, 1);
    };
  }

  async runPreToolUse(ctx: PreToolUseContext): Promise<PreToolUseOutcome> {
    let input = ctx.input;
    let allowed = false;
    for (const handler of this.handlers.PreToolUse) {
      let decision: PreToolUseDecision | undefined;
      try {
        decision = await handler({ ...ctx, input });
      } catch (err) {
        return { denied: `a PreToolUse hook failed: ${errorText(err)}`, allowed: false, input };
      }
      if (!decision) continue;
      if (decision.decision === 'deny') return { denied: decision.reason, allowed: false, input };
      if (decision.decision === 'replace') input = decision.input;
      if (decision.decision === 'allow') allowed = true;
    }
    return { allowed, input };
  }

  async runPostToolUse(ctx: PostToolUseContext): Promise<ToolResult> {
    let output = ctx.output;
    for (const handler of this.handlers.PostToolUse) {
      try {
        const replaced = await handler({ ...ctx, output });
        if (replaced) output = replaced.output;
      } catch (err) {
        output = { content: `${output.content}\n[PostToolUse hook failed: ${errorText(err)}]`, isError: output.isError };
      }
    }
    return output;
  }

  async runSubagentStart(ctx: SubagentStartContext): Promise<string[]> {
    return this.observe(this.handlers.SubagentStart, ctx);
  }

  async runSubagentStop(ctx: SubagentStopContext): Promise<string[]> {
    return this.observe(this.handlers.SubagentStop, ctx);
  }

  /** Runs observers; returns the failures so the caller can report them as events. */
  private async observe<C>(list: ((ctx: C) => Awaitable<void>)[], ctx: C): Promise<string[]> {
    const failures: string[] = [];
    for (const handler of list) {
      try {
        await handler(ctx);
      } catch (err) {
        failures.push(errorText(err));
      }
    }
    return failures;
  }
}
