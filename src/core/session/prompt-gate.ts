/**
 * What happens to a root prompt before the loop sees it:
 *
 *   first prompt of this session ─▶ settings-file notices, the folder's skipped commands (untrusted) ─▶ `instructions_loaded`
 *                                   (when a file was found) ─▶ SessionStart hooks
 *   every prompt ─▶ UserPromptSubmit hooks ─┬─ blocked: a `hook` event and status `error`; the prompt reaches
 *                                           │  neither the model nor the conversation (Claude Code erases it too)
 *                                           └─ else: SessionStart's and UserPromptSubmit's context go after the prompt
 */
import type { AgentResult } from '../loop/types';
import { agentEmitter, type EventBus } from '../events';
import type { HookRegistry } from '../policy/hooks';
import type { ProjectInstructions } from '../instructions/project-instructions';
import type { SettingsNotice } from '../hooks/hook-settings';
import { emptyUsage, type AgentIdentity } from '../vocabulary';

export interface PromptGateOptions {
  hooks: HookRegistry;
  bus: EventBus;
  root: AgentIdentity;
  /** The session goes on from a transcript (SessionStart's `source: "resume"`). */
  resumed: boolean;
  instructions?: ProjectInstructions;
  /** Problems with the settings files (and notes such as hooks waiting for trust): said once, as notices. */
  notices?: readonly SettingsNotice[];
  /** The folder's own hooks and servers that did not run for want of trust, in one line (folder-trust.ts). */
  folderNotice?: () => Promise<string | undefined>;
  /** For the result of a blocked prompt. */
  modelId: string;
}

export type GateResult = { blocked: AgentResult } | { context: string[] };

export type PromptGate = (prompt: string, signal: AbortSignal) => Promise<GateResult>;

export function createPromptGate(opts: PromptGateOptions): PromptGate {
  const { hooks, root } = opts;
  const emit = agentEmitter(opts.bus, root.agentId, root.parentId);
  let started = false;
  const fail = async (event: string, failures: string[]): Promise<void> => {
    for (const message of failures) await emit({ type: 'hook', hookEvent: event, outcome: 'error', message });
  };

  return async (prompt, signal) => {
    const began = Date.now();
    const context: string[] = [];
    if (!started) {
      started = true;
      for (const n of opts.notices ?? []) await emit({ type: 'notice', level: n.level, text: n.text, source: n.source });
      const skipped = await opts.folderNotice?.();
      if (skipped) await emit({ type: 'notice', level: 'warning', text: skipped });
      const found = opts.instructions;
      if (found && found.files.length > 0) {
        await emit({ type: 'instructions_loaded', files: found.files, chars: found.chars, cut: found.cut, ...(found.skipped.length ? { skipped: found.skipped } : {}) });
      }
      const start = await hooks.runSessionStart({ agent: root, source: opts.resumed ? 'resume' : 'startup', signal });
      await fail('SessionStart', start.failures);
      context.push(...start.context);
    }
    const submit = await hooks.runUserPromptSubmit({ agent: root, prompt, signal });
    await fail('UserPromptSubmit', submit.failures);
    if (submit.blocked !== undefined) {
      await emit({ type: 'hook', hookEvent: 'UserPromptSubmit', outcome: 'blocked', message: submit.blocked });
      const error = `the prompt was blocked by a UserPromptSubmit hook: ${submit.blocked}`;
      return {
        blocked: { agentId: root.agentId, status: 'error', result: '', turns: 0, toolCalls: 0, usage: emptyUsage(), durationMs: Date.now() - began, error, messages: [], subagents: [], model: opts.modelId },
      };
    }
    context.push(...submit.context);
    return { context };
  };
}
