/**
 * The session's ToolGate (loop/tool-gate.ts): the settings-file hooks, the permission policy and the host's
 * approver as the one object every agent's tool calls go through. One instance serves the parent and all its
 * subagents (context isolation is not isolation of authority).
 *
 *   policy verdict deny ─▶ refusal
 *                  ask (or a hook's ask) ─▶ permission_asked ─▶ approver ─▶ permission_answered ─▶ deny: refusal
 *                                                                                          allow_session: remembered
 *                  allow (or a hook's allow) ─▶ runs
 */
import { errorText } from '../errors';
import { stopHookNote } from '../hooks/loop-hooks';
import type { HookRegistry } from '../policy/hooks';
import type { Approver, PermissionChecker, ToolCallRequest } from '../policy/types';
import { privateSummary } from '../policy/web-fetch-policy';
import type { GateScope, ToolGate } from '../loop/tool-gate';

export interface ToolGateParts {
  hooks: HookRegistry;
  permissions: PermissionChecker;
  approver: Approver;
}

export function createToolGate({ hooks, permissions, approver }: ToolGateParts): ToolGate {
  /** Returns a refusal text, or undefined when the call may run. */
  const permit = async (scope: GateScope, request: ToolCallRequest, hook: { allowed: boolean; asked?: string }): Promise<string | undefined> => {
    const { toolName: name, input, toolUseId } = request;
    const checked = await permissions.check(request);
    if (checked.behavior === 'deny') return `Permission denied: ${checked.reason}`;
    // A hook's `ask` turns an allow into a question; its `allow` skips one (a deny above still stands).
    const verdict = hook.asked !== undefined ? { behavior: 'ask' as const, reason: `a PreToolUse hook asks: ${hook.asked}` } : checked;
    if (verdict.behavior === 'allow') return undefined;
    if (hook.allowed) return undefined;

    await scope.emit({ type: 'permission_asked', toolUseId, name, input, reason: verdict.reason });
    let answer: Awaited<ReturnType<Approver['ask']>>;
    try {
      answer = await approver.ask(request, verdict.reason, scope.signal);
    } catch (err) {
      answer = { decision: 'deny', reason: `the approval prompt failed: ${errorText(err)}` };
    }
    await scope.emit({
      type: 'permission_answered',
      toolUseId,
      name,
      decision: answer.decision,
      ...(answer.reason ? { reason: answer.reason } : {}),
    });
    if (answer.decision === 'deny') {
      return `Permission denied: ${answer.reason ?? 'the user denied this call'}. Do not retry it; continue without it or explain what you need.`;
    }
    if (answer.decision === 'allow_session') permissions.rememberForSession(request);
    if (answer.decision === 'allow_server') permissions.rememberForSession(request, 'server');
    // Only a subagent's question can be answered for it or its task; from the main agent it is a plain allow.
    if ((answer.decision === 'allow_agent' || answer.decision === 'allow_task') && request.agent.depth > 0) {
      permissions.rememberForAgent(request, answer.decision === 'allow_agent' ? 'agent' : 'task');
    }
    return undefined;
  };
  return {
    preToolUse: (scope, call) => hooks.runPreToolUse({ agent: scope.identity, ...call, signal: scope.signal }),
    permit,
    // Its own question, in every mode: a hook's allow or a whole-tool rule does not answer it.
    permitPrivate: (scope, request, destination) => permit(scope, { ...request, summary: privateSummary(destination), privateDestination: destination }, { allowed: false }),
    postToolUse: (scope, call) => hooks.runPostToolUse({ agent: scope.identity, ...call, signal: scope.signal }),
    stopNote: (scope, answer, continuations) => stopHookNote({ hooks, identity: scope.identity, emit: scope.emit, signal: scope.signal }, answer, continuations),
  };
}
