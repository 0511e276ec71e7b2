// The reducer's side of hooks and project instructions: which events become notices, and that hook context
// or a Stop hook's note never shows as something the user typed.
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, settleInterrupted, type NoticeNode, type SessionViewState } from '../../src/view-model/session-view';
import { ROOT, Script, usage } from './fixtures';

function notices(state: SessionViewState): string[] {
  return state.items.flatMap((id) => {
    const n = state.nodes[id];
    return n?.kind === 'notice' ? [`${(n as NoticeNode).level}: ${n.text}`] : [];
  });
}

function kinds(state: SessionViewState): string[] {
  return state.items.map((id) => state.nodes[id]?.kind ?? '?');
}

describe('session view: hooks and project instructions', () => {
  it('instructions_loaded is an info notice naming the files, the size and whether it was cut', () => {
    const s = new Script();
    s.emit(ROOT, null, { type: 'instructions_loaded', files: ['AGENTS.md', 'CLAUDE.md'], chars: 3210, cut: false });
    s.emit(ROOT, null, { type: 'instructions_loaded', files: ['CLAUDE.md'], chars: 40000, cut: true, skipped: ['~/.ssh/id_rsa (imported by CLAUDE.md): outside the workspace and ~/.claude'] });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(notices(state), [
      'info: Project instructions: AGENTS.md, CLAUDE.md (3,210 characters).',
      'info: Project instructions: CLAUDE.md (40,000 characters; cut at the limit, the rest left out). Not taken: ~/.ssh/id_rsa (imported by CLAUDE.md): outside the workspace and ~/.claude.',
    ]);
  });

  it('hook errors warn (naming the subagent), a blocked prompt is an error, Stop go-ons are info; blocked calls and context are not notices', () => {
    const s = new Script();
    s.rootStart('fix it');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'toolu_t', 'kid', 'check the tests', 1);
    s.emit('kid', ROOT, { type: 'hook', hookEvent: 'PreToolUse', outcome: 'error', message: 'exit code 1: jq: command not found', command: './.claude/hooks/x.sh', source: '.claude/settings.json' });
    s.emit('kid', ROOT, { type: 'hook', hookEvent: 'PreToolUse', outcome: 'blocked', message: 'bash: no rm' });
    s.emit(ROOT, null, { type: 'hook', hookEvent: 'UserPromptSubmit', outcome: 'context', message: 'added 75 characters of context' });
    s.emit(ROOT, null, { type: 'hook', hookEvent: 'Stop', outcome: 'continued', message: 'Run the tests first.' });
    s.emit(ROOT, null, { type: 'hook', hookEvent: 'UserPromptSubmit', outcome: 'blocked', message: 'That prompt has a key in it.' });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(notices(state), [
      'warning: PreToolUse hook `./.claude/hooks/x.sh` in subagent "check the tests" failed (not blocking): exit code 1: jq: command not found',
      'info: A Stop hook sent the agent back to work: Run the tests first.',
      'error: The prompt was blocked by a UserPromptSubmit hook: That prompt has a key in it.',
    ]);
  });

  it('the prompt row shows what was typed, not the hooks\' context; later user notes of the run are not prompts', () => {
    const s = new Script();
    const prompt = 'add a helper';
    s.emit(ROOT, null, { type: 'prompt', text: prompt });
    s.emit(ROOT, null, { type: 'agent_started', prompt, depth: 0, model: 'm' });
    s.emit(ROOT, null, { type: 'message', message: { role: 'user', content: [{ type: 'text', text: prompt }, { type: 'text', text: '<user-prompt-submit-hook>\nConventions\n</user-prompt-submit-hook>' }] } });
    s.turn(ROOT, null, 1);
    s.rootText(1, 'Done.');
    s.emit(ROOT, null, { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'A Stop hook did not let you finish yet. Its reason:\nRun the tests.' }] } });
    s.turn(ROOT, null, 2);
    s.rootText(2, 'Tests pass.');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'Tests pass.', turns: 2, toolCalls: 0, usage: usage(1, 1), durationMs: 5 });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(kinds(state), ['user', 'text', 'text']);
    const user = state.nodes[state.items[0] ?? ''];
    assert.equal(user?.kind === 'user' && user.text, prompt);
    // Rebuilt from a transcript written before the prompt event, the prompt row is still there, once.
    const replayed = createSessionView();
    applyEvents(replayed, s.events.filter((e) => e.type !== 'prompt'));
    assert.deepEqual(kinds(replayed), ['user', 'text', 'text']);
  });

  it('a blocked prompt (a hook event and no agent) does not look like an interrupted run when the session is reopened', () => {
    const s = new Script();
    s.emit(ROOT, null, { type: 'prompt', text: 'my key is sk-123' });
    s.emit(ROOT, null, { type: 'hook', hookEvent: 'UserPromptSubmit', outcome: 'blocked', message: 'no' });
    // Live: what was typed, then why it went no further; nothing runs.
    const live = createSessionView();
    applyEvents(live, s.events);
    assert.deepEqual(kinds(live), ['user', 'notice']);
    assert.equal(live.running, false);
    // Reopened from the transcript, which keeps no prompt event (a blocked prompt stays off the disk).
    const state = createSessionView();
    applyEvents(state, s.events.filter((e) => e.type !== 'prompt'));
    settleInterrupted(state, 'the editor closed');
    assert.deepEqual(notices(state), ['error: The prompt was blocked by a UserPromptSubmit hook: no']);
    assert.deepEqual(kinds(state), ['notice']);
    assert.equal(state.running, false);
  });
});
