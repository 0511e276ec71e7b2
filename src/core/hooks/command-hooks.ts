/**
 * The settings files' command hooks, installed as handlers on the session's one HookRegistry, so the parent and
 * every subagent go through them (isolation of context is not isolation of authority).
 *
 *   registry event ─▶ hooks whose matcher accepts the tool (either spelling), agent type or source
 *                  ─▶ Claude Code's stdin JSON ─▶ run in parallel ─▶ replies combined in configuration order
 *                  ─▶ the registry's answer          └─▶ a `hook` event for what the user should see
 *
 *   registry          settings file      a hook can
 *   PreToolUse        PreToolUse         deny (exit 2, "block", permissionDecision deny) · ask · allow · updatedInput
 *   PostToolUse       PostToolUse        add feedback to the output the model reads (exit 2, "block", additionalContext)
 *   UserPromptSubmit  UserPromptSubmit   block the prompt · add context (plain stdout or additionalContext)
 *   SessionStart      SessionStart       add context to the session's first prompt
 *   Stop (root)       Stop               make the agent go on (exit 2, "block" + reason)
 *   Stop (subagent)   SubagentStop       the same, for that subagent
 *   SubagentStart     SubagentStart      observe
 */
import type { EventBus } from '../events';
import type { HookRegistry, PreToolUseContext, PreToolUseDecision } from '../policy/hooks';
import { fromClaudeInput, toolNameAliases } from '../tools/tool-names';
import type { ProcessGroups } from '../tools/process-groups';
import type { ToolEnv } from '../secrets/tool-env';
import { agentTypeOf, basePayload, claudeToolInput, toolPayload, toolResponse, type Payload, type PayloadSession } from './hook-payload';
import { runHookProcess } from './hook-process';
import { clip, readReply, type HookReply } from './hook-reply';
import type { CommandHook, HookEventName, HookGroup, HookSettings } from './hook-settings';
import type { AgentIdentity } from '../vocabulary';

export interface CommandHookSession extends PayloadSession {
  bus: EventBus;
  /** The session's live process groups: every exit path of both hosts kills what a hook left running. */
  processes: ProcessGroups;
  /** The commands' environment, credentials withheld (the session's, with what the user named); the defaults when omitted. */
  env?: ToolEnv;
  /** A subagent's own transcript (SubagentStop's `agent_transcript_path`). */
  agentTranscriptPath(agentId: string): string;
  /** Which of the matching hooks may run (the folder's own wait for its trust: session/folder-trust.ts); all when absent. */
  admit?(hooks: CommandHook[]): Promise<CommandHook[]>;
  /** An agent's own WORKDIR when it is not `workdir` (an isolated subagent's worktree): its hooks run there. */
  workdirOf?(agentId: string): string | undefined;
}

interface Ran {
  hook: CommandHook;
  reply: HookReply;
}

/** Context a hook adds is for the model, not a dump: beyond this it is cut (Claude Code cuts at 10,000 too). */
const MAX_CONTEXT_CHARS = 10_000;

export function installCommandHooks(registry: Pick<HookRegistry, 'on'>, settings: HookSettings, session: CommandHookSession): () => void {
  /** The session as `agent` sees it: its WORKDIR is its worktree's when it works in one. */
  const at = (agent: AgentIdentity): CommandHookSession => {
    const own = session.workdirOf?.(agent.agentId);
    return own ? { ...session, workdir: own } : session;
  };
  const g = settings.groups;
  const note = async (agent: AgentIdentity, event: HookEventName, outcome: 'error' | 'blocked' | 'rewrote' | 'context' | 'continued' | 'message', message: string, hook?: CommandHook): Promise<void> => {
    await session.bus.emit(agent.agentId, agent.parentId, {
      type: 'hook',
      hookEvent: event,
      outcome,
      message,
      ...(hook ? { command: hook.command, source: hook.source } : {}),
    });
  };

  /** Runs the hooks that match (`names` null: no matcher for this event), in parallel; errors and messages noted. */
  const run = async (event: HookEventName, groups: HookGroup[], names: readonly string[] | null, payload: Payload, agent: AgentIdentity, signal?: AbortSignal): Promise<Ran[]> => {
    const seen = new Set<string>();
    // The same command configured twice (user and project file) runs once, as in Claude Code.
    const matching = groups.filter((gr) => names === null || gr.matches(names)).flatMap((gr) => gr.hooks).filter((h) => !seen.has(h.command) && seen.add(h.command));
    const hooks = matching.length > 0 && session.admit ? await session.admit(matching) : matching;
    if (hooks.length === 0) return [];
    const stdin = JSON.stringify(payload);
    const { workdir } = at(agent);
    const env = { CLAUDE_PROJECT_DIR: workdir, DELEGATE_PROJECT_DIR: workdir };
    return Promise.all(
      hooks.map(async (hook): Promise<Ran> => {
        const ran = await runHookProcess(hook.command, stdin, { cwd: workdir, env, ...(session.env ? { toolEnv: session.env } : {}), timeoutMs: hook.timeoutMs, groups: session.processes, ...(signal ? { signal } : {}) });
        const reply = readReply(ran, hook.timeoutMs);
        // Stopped with its agent is what the user asked for, not a failure to report.
        if (reply.kind === 'error' && !ran.cancelled) await note(agent, event, 'error', reply.message, hook);
        if (reply.kind === 'ok' && reply.json?.systemMessage) await note(agent, event, 'message', reply.json.systemMessage, hook);
        return { hook, reply };
      }),
    );
  };

  const offs: (() => void)[] = [];

  if (g.PreToolUse.length) {
    offs.push(
      registry.on('PreToolUse', async (ctx) => {
        const ran = await run('PreToolUse', g.PreToolUse, toolNameAliases(ctx.toolName), toolPayload('PreToolUse', at(ctx.agent), ctx), ctx.agent, ctx.signal);
        return combinePreToolUse(ctx, ran, at(ctx.agent).workdir, note);
      }),
    );
  }

  if (g.PostToolUse.length) {
    offs.push(
      registry.on('PostToolUse', async (ctx) => {
        const payload = { ...toolPayload('PostToolUse', at(ctx.agent), ctx), tool_response: toolResponse(ctx.toolName, ctx.input, ctx.output, at(ctx.agent).workdir) };
        const ran = await run('PostToolUse', g.PostToolUse, toolNameAliases(ctx.toolName), payload, ctx.agent, ctx.signal);
        const notes = ran.flatMap(({ reply }) => {
          if (reply.kind === 'block') return [reply.reason];
          if (reply.kind !== 'ok' || !reply.json) return [];
          return [reply.json.decision === 'block' ? (reply.json.reason ?? 'a PostToolUse hook objected (no reason given)') : '', reply.json.additionalContext ?? ''].filter(Boolean);
        });
        if (notes.length === 0) return undefined;
        // The tool already ran: the model reads the hook's words beside its output (Claude Code's exit-2 behaviour).
        return { output: { content: `${ctx.output.content}\n\n[PostToolUse hook]\n${clip(notes.join('\n'), MAX_CONTEXT_CHARS)}`, isError: ctx.output.isError } };
      }),
    );
  }

  if (g.UserPromptSubmit.length) {
    offs.push(
      registry.on('UserPromptSubmit', async (ctx) => {
        const ran = await run('UserPromptSubmit', g.UserPromptSubmit, null, { ...basePayload('UserPromptSubmit', at(ctx.agent), ctx.agent), prompt: ctx.prompt }, ctx.agent, ctx.signal);
        // The first that blocks wins; the gate (core/session/prompt-gate.ts) reports it, whoever the handler was.
        for (const { reply } of ran) {
          const json = reply.kind === 'ok' ? reply.json : undefined;
          if (reply.kind === 'block') return { block: reply.reason };
          if (json?.decision === 'block' || json?.continue === false) return { block: json.reason ?? json.stopReason ?? 'blocked by a UserPromptSubmit hook' };
        }
        const context = await contextOf('UserPromptSubmit', ran, ctx.agent, note);
        return context ? { context: `<user-prompt-submit-hook>\n${context}\n</user-prompt-submit-hook>` } : undefined;
      }),
    );
  }

  if (g.SessionStart.length) {
    offs.push(
      registry.on('SessionStart', async (ctx) => {
        const ran = await run('SessionStart', g.SessionStart, [ctx.source], { ...basePayload('SessionStart', at(ctx.agent), ctx.agent), source: ctx.source }, ctx.agent, ctx.signal);
        for (const { hook, reply } of ran) if (reply.kind === 'block') await note(ctx.agent, 'SessionStart', 'message', `exit code 2 cannot block a session's start: ${reply.reason}`, hook);
        const context = await contextOf('SessionStart', ran, ctx.agent, note);
        return context ? { context: `<session-start-hook>\n${context}\n</session-start-hook>` } : undefined;
      }),
    );
  }

  if (g.Stop.length || g.SubagentStop.length) {
    offs.push(
      registry.on('Stop', async (ctx) => {
        const sub = ctx.agent.parentId !== null;
        const event = sub ? 'SubagentStop' : 'Stop';
        const payload = {
          ...basePayload(event, at(ctx.agent), ctx.agent),
          stop_hook_active: ctx.continuations > 0,
          last_assistant_message: ctx.result,
          ...(sub ? { agent_transcript_path: session.agentTranscriptPath(ctx.agent.agentId) } : {}),
        };
        const ran = await run(event, g[event], sub ? [agentTypeOf(ctx.agent)] : null, payload, ctx.agent, ctx.signal);
        // `continue: false` is the strongest word: the agent stops, whatever another hook asked.
        if (ran.some(({ reply }) => reply.kind === 'ok' && reply.json?.continue === false)) return undefined;
        const reasons = ran.flatMap(({ reply }) =>
          reply.kind === 'block' ? [reply.reason] : reply.kind === 'ok' && reply.json?.decision === 'block' ? [reply.json.reason ?? `a ${event} hook asked to go on (no reason given)`] : [],
        );
        if (reasons.length === 0) return undefined;
        // loop-hooks.ts says so when the agent really goes on (it may be past its limit).
        return { continueWith: clip(reasons.join('\n'), MAX_CONTEXT_CHARS) };
      }),
    );
  }

  if (g.SubagentStart.length) {
    offs.push(
      registry.on('SubagentStart', async (ctx) => {
        const ran = await run('SubagentStart', g.SubagentStart, [agentTypeOf(ctx.agent)], basePayload('SubagentStart', at(ctx.agent), ctx.agent), ctx.agent);
        for (const { hook, reply } of ran) if (reply.kind === 'block') await note(ctx.agent, 'SubagentStart', 'message', `exit code 2 cannot block a subagent's start: ${reply.reason}`, hook);
      }),
    );
  }

  return () => {
    for (const off of offs) off();
  };
}

type Note = (agent: AgentIdentity, event: HookEventName, outcome: 'blocked' | 'rewrote' | 'context', message: string, hook?: CommandHook) => Promise<void>;

/** Deny beats ask beats allow; `updatedInput` (Claude Code's field names) is mapped back and merged over the input. */
async function combinePreToolUse(ctx: PreToolUseContext, ran: Ran[], workdir: string, note: Note): Promise<PreToolUseDecision | undefined> {
  // Its hooks were killed with the agent: they decided nothing, so the call must not run as if they had allowed it.
  if (ctx.signal?.aborted) return { decision: 'deny', reason: 'the run was stopped while the PreToolUse hooks ran' };
  let allow = false;
  let ask: string | undefined;
  let updated: { input: Record<string, unknown>; hook: CommandHook } | undefined;
  for (const { hook, reply } of ran) {
    const denial = denialOf(reply);
    if (denial !== undefined) {
      await note(ctx.agent, 'PreToolUse', 'blocked', `${ctx.toolName}: ${denial}`, hook);
      return { decision: 'deny', reason: denial };
    }
    const json = reply.kind === 'ok' ? reply.json : undefined;
    if (!json) continue;
    if (json.permissionDecision === 'ask') ask ??= json.permissionDecisionReason || `a hook asks before this call (${hook.source})`;
    if (json.permissionDecision === 'allow' || json.decision === 'approve') allow = true;
    if (json.updatedInput) updated = { input: json.updatedInput, hook };
  }
  let input: Record<string, unknown> | undefined;
  if (updated) {
    const original = typeof ctx.input === 'object' && ctx.input !== null ? (ctx.input as Record<string, unknown>) : {};
    const merged = { ...original, ...(fromClaudeInput(ctx.toolName, updated.input) as Record<string, unknown>) };
    // A hook that hands the input back as it got it (paths made absolute included) changed nothing.
    if (JSON.stringify(claudeToolInput(ctx.toolName, merged, workdir)) !== JSON.stringify(claudeToolInput(ctx.toolName, original, workdir))) {
      input = merged;
      await note(ctx.agent, 'PreToolUse', 'rewrote', `${ctx.toolName}: input replaced by ${clip(JSON.stringify(merged), 300)}`, updated.hook);
    }
  }
  const replaced = input !== undefined ? { input } : {};
  if (ask !== undefined) return { decision: 'ask', reason: ask, ...replaced };
  if (allow) return { decision: 'allow', ...replaced };
  return input !== undefined ? { decision: 'replace', input } : undefined;
}

function denialOf(reply: HookReply): string | undefined {
  if (reply.kind === 'block') return reply.reason;
  const json = reply.kind === 'ok' ? reply.json : undefined;
  if (!json) return undefined;
  if (json.continue === false) return json.stopReason ?? 'a PreToolUse hook stopped this call (continue: false)';
  if (json.permissionDecision === 'deny') return json.permissionDecisionReason || json.reason || 'denied by a PreToolUse hook';
  if (json.decision === 'block') return json.reason ?? 'blocked by a PreToolUse hook';
  return undefined;
}

/** Plain stdout, or `additionalContext` from JSON, of every hook that went on; cut to the limit. */
async function contextOf(event: HookEventName, ran: Ran[], agent: AgentIdentity, note: Note): Promise<string | undefined> {
  const parts = ran.flatMap(({ reply }) => (reply.kind !== 'ok' ? [] : reply.json ? [reply.json.additionalContext ?? ''] : [reply.stdout])).map((t) => t.trim()).filter(Boolean);
  if (parts.length === 0) return undefined;
  const text = parts.join('\n\n');
  const cut = text.length > MAX_CONTEXT_CHARS;
  await note(agent, event, 'context', `added ${Math.min(text.length, MAX_CONTEXT_CHARS).toLocaleString('en-US')} characters of context${cut ? ` (cut from ${text.length.toLocaleString('en-US')})` : ''}`);
  return cut ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n[… cut: the hook's output was longer than ${MAX_CONTEXT_CHARS.toLocaleString('en-US')} characters]` : text;
}
