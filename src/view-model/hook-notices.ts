/**
 * Hook and project-instruction events as conversation notices (the CLI prints the same events with -v):
 *
 *   instructions_loaded          info     "Project instructions: AGENTS.md, CLAUDE.md (3,210 characters)"
 *   hook error                   warning  a command failed or timed out; it did not block anything
 *   hook blocked (the prompt)    error    the prompt never reached the model
 *   hook continued / rewrote / message   info
 *
 * A blocked tool call needs no notice (its row shows the refusal), nor context a hook added (every prompt would
 * get one). Notices sit in the conversation even for a subagent's hooks: the tree's rows have no notice kind.
 */
import type { EventOf } from '../core/events';
import { getTask, nextLocalId, placeNode, type Touched } from './store';
import type { NoticeNode, SessionViewState } from './types';

export function onInstructionsLoaded(state: SessionViewState, e: EventOf<'instructions_loaded'>, touched: Touched): void {
  const chars = e.chars.toLocaleString('en-US');
  const cut = e.cut ? '; cut at the limit, the rest left out' : '';
  const skipped = e.skipped?.length ? `. Not taken: ${e.skipped.join('; ')}` : '';
  notice(state, 'info', `Project instructions: ${e.files.join(', ')} (${chars} characters${cut})${skipped}.`, e.time, touched);
}

export function onHook(state: SessionViewState, e: EventOf<'hook'>, touched: Touched): void {
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  const where = task ? ` in subagent "${task.description}"` : '';
  const what = e.command ? ` \`${e.command.length > 80 ? `${e.command.slice(0, 79)}…` : e.command}\`` : '';
  switch (e.outcome) {
    case 'error':
      return notice(state, 'warning', `${e.hookEvent} hook${what}${where} failed (not blocking): ${e.message}`, e.time, touched);
    case 'blocked':
      if (e.hookEvent === 'UserPromptSubmit') notice(state, 'error', `The prompt was blocked by a UserPromptSubmit hook: ${e.message}`, e.time, touched);
      return;
    case 'continued':
      return notice(state, 'info', `A ${e.hookEvent} hook${where} sent the agent back to work: ${e.message}`, e.time, touched);
    case 'rewrote':
      return notice(state, 'info', `A PreToolUse hook${where} rewrote a call's input (${e.message})`, e.time, touched);
    case 'message':
      return notice(state, 'info', `${e.hookEvent} hook${where}: ${e.message}`, e.time, touched);
    case 'context':
      return;
  }
}

function notice(state: SessionViewState, level: NoticeNode['level'], text: string, time: number, touched: Touched): void {
  placeNode(state, { kind: 'notice', id: nextLocalId(state, 'notice'), level, text, time }, null, touched);
}
