/**
 * The hook registry: one instance per run, shared by the parent and every subagent, so
 * delegating never becomes a way around policy.
 *
 *   PreToolUse       → allow (skip the approval question) | ask (force it) | deny with reason | replace the input
 *   PostToolUse      → replace the output
 *   UserPromptSubmit → block the prompt (it never reaches the model) | add context after it
 *   SessionStart     → add context to the session's first prompt
 *   Stop             → an agent (root or subagent) is about to end with its answer: make it go on, with a reason
 *   SubagentStart / SubagentStop → observe (audit, metrics)
 *
 * Handlers run in registration order. A handler that throws denies the call (PreToolUse) or is
 * reported and ignored (others): a broken hook must fail closed, never crash the run. The settings
 * files' command hooks (Claude Code's format) are one client of this registry: see ../hooks/.
 */
import { errorText } from '../errors';
import type { ToolResult } from '../tools/types';
import type { AgentStatus, AgentIdentity } from '../vocabulary';

export interface PreToolUseContext {
  agent: AgentIdentity;
  toolUseId: string;
  toolName: string;
  input: unknown;
  /** The calling agent's signal: a hook still running when it is stopped should stop too. */
  signal?: AbortSignal;
}

/** `input` on allow/ask replaces the input as well (Claude Code's `updatedInput` beside a decision). */
export type PreToolUseDecision =
  | { decision: 'allow'; input?: unknown }
  | { decision: 'ask'; reason: string; input?: unknown }
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

export interface UserPromptSubmitContext {
  agent: AgentIdentity;
  prompt: string;
  signal?: AbortSignal;
}

export interface SessionStartContext {
  agent: AgentIdentity;
  /** `resume`: the session goes on from its transcript. */
  source: 'startup' | 'resume';
  signal?: AbortSignal;
}

export interface StopContext {
  agent: AgentIdentity;
  /** The answer the agent is about to end with. */
  result: string;
  /** How many times a Stop handler already made this agent go on during this run (Claude Code's `stop_hook_active`). */
  continuations: number;
  signal?: AbortSignal;
}

type Awaitable<T> = T | Promise<T>;

export interface HookHandlers {
  PreToolUse: (ctx: PreToolUseContext) => Awaitable<PreToolUseDecision | undefined>;
  PostToolUse: (ctx: PostToolUseContext) => Awaitable<{ output: ToolResult } | undefined>;
  UserPromptSubmit: (ctx: UserPromptSubmitContext) => Awaitable<{ block?: string; context?: string } | undefined>;
  SessionStart: (ctx: SessionStartContext) => Awaitable<{ context?: string } | undefined>;
  Stop: (ctx: StopContext) => Awaitable<{ continueWith: string } | undefined>;
  SubagentStart: (ctx: SubagentStartContext) => Awaitable<void>;
  SubagentStop: (ctx: SubagentStopContext) => Awaitable<void>;
}

export type HookEvent = keyof HookHandlers;

/** What PreToolUse handlers decided together: denial wins, then ask, then allow; replacements chain. */
export interface PreToolUseOutcome {
  denied?: string;
  /** A hook explicitly allowed the call: no approval question (confinement and deny list still hold). */
  allowed: boolean;
  /** A hook wants the user asked even where the policy would allow: why. */
  asked?: string;
  input: unknown;
}

/** Context handlers added, and the failures of those that threw (the caller reports them). */
export interface ContextOutcome {
  context: string[];
  failures: string[];
}

export class HookRegistry {
  private readonly handlers: { [E in HookEvent]: HookHandlers[E][] } = {
    PreToolUse: [],
    PostToolUse: [],
    UserPromptSubmit: [],
    SessionStart: [],
    Stop: [],
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
    let asked: string | undefined;
    for (const handler of this.handlers.PreToolUse) {
      let decision: PreToolUseDecision | undefined;
      try {
        decision = await handler({ ...ctx, input });
      } catch (err) {
        return { denied: `a PreToolUse hook failed: ${errorText(err)}`, allowed: false, input };
      }
      if (!decision) continue;
      if (decision.decision === 'deny') return { denied: decision.reason, allowed: false, input };
      if (decision.input !== undefined) input = decision.input;
      if (decision.decision === 'allow') allowed = true;
      if (decision.decision === 'ask') asked ??= decision.reason;
    }
    // Ask beats allow: a hook that wants a human to look must not be overridden by another that waves it through.
    return asked !== undefined ? { allowed: false, asked, input } : { allowed, input };
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

  /** The first handler that blocks wins (the prompt never reaches the model); context from the others is kept in order. */
  async runUserPromptSubmit(ctx: UserPromptSubmitContext): Promise<ContextOutcome & { blocked?: string }> {
    const out: ContextOutcome & { blocked?: string } = { context: [], failures: [] };
    for (const handler of this.handlers.UserPromptSubmit) {
      try {
        const r = await handler(ctx);
        if (r?.block !== undefined) return { ...out, blocked: r.block };
        if (r?.context) out.context.push(r.context);
      } catch (err) {
        out.failures.push(errorText(err));
      }
    }
    return out;
  }

  async runSessionStart(ctx: SessionStartContext): Promise<ContextOutcome> {
    const out: ContextOutcome = { context: [], failures: [] };
    for (const handler of this.handlers.SessionStart) {
      try {
        const r = await handler(ctx);
        if (r?.context) out.context.push(r.context);
      } catch (err) {
        out.failures.push(errorText(err));
      }
    }
    return out;
  }

  /** Reasons to go on, joined (none: the agent ends); a handler that throws is a failure, never a reason. */
  async runStop(ctx: StopContext): Promise<{ continueWith?: string; failures: string[] }> {
    const reasons: string[] = [];
    const failures: string[] = [];
    for (const handler of this.handlers.Stop) {
      try {
        const r = await handler(ctx);
        if (r) reasons.push(r.continueWith);
      } catch (err) {
        failures.push(errorText(err));
      }
    }
    return reasons.length ? { continueWith: reasons.join('\n'), failures } : { failures };
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
