/**
 * Each agent's thinking in the tree: a collapsed "Thinking" row in its own container (the conversation for the
 * main agent, before the reply's text; the task node for a subagent, before its calls), expandable to read the
 * text; a block the API sent without text (display omitted, redacted) is the row alone. Reducer and panel.
 * Screenshot in test-artifacts/webview/thinking.png (with the session's prompt-cache share in the totals line).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { ARTIFACTS, send, panelSuite } from './browser';
import { ROOT, Script } from './fixtures';
import { item } from './tree-dom';


function thinkingSession(): Script {
  const s = new Script();
  s.rootStart('Why does the build fail?');
  s.turn(ROOT, null, 1);
  s.emit(ROOT, null, { type: 'thinking', turn: 1, text: 'The build log points at **tsconfig**: check its paths first.' });
  s.rootText(1, 'I will hand the log reading to a subagent.');
  // 9,000 of the main agent's 10,000 input tokens and 1,200 of the subagent's 1,300 come from the prompt cache.
  s.emit(ROOT, null, { type: 'usage', turn: 1, usage: { input_tokens: 120, cache_read_input_tokens: 9000, cache_creation_input_tokens: 880, output_tokens: 300 } });
  s.taskStart(ROOT, null, 'tu-1', 'kid', 'read the build log', 1);
  s.turn('kid', ROOT, 1);
  s.emit('kid', ROOT, { type: 'thinking', turn: 1, text: '' });
  s.tool('kid', ROOT, 'k1', 'read_file', { path: 'build.log' }, 'error TS5023');
  s.emit('kid', ROOT, { type: 'usage', turn: 1, usage: { input_tokens: 100, cache_read_input_tokens: 1200, cache_creation_input_tokens: 0, output_tokens: 10 } });
  s.childFinish('kid', ROOT, 'completed', 1, 1, [100, 10], 'TS5023: an unknown compiler option.');
  s.taskEnd(ROOT, null, 'tu-1', 'TS5023');
  return s;
}

function ids(state: SessionViewState, list: string[]): string[] {
  return list.map((id) => state.nodes[id]?.kind ?? '?');
}

describe('thinking rows', () => {
  it('the reducer places each agent\'s thinking in its own container, before the text and calls of that reply', () => {
    const state = createSessionView();
    applyEvents(state, thinkingSession().events);
    assert.deepEqual(ids(state, state.items), ['user', 'thinking', 'text', 'task']);
    const task = state.nodes['task:tu-1'];
    assert.ok(task?.kind === 'task');
    assert.deepEqual(ids(state, task.children), ['thinking', 'tool']);
    const kidThinking = state.nodes[task.children[0] ?? ''];
    assert.ok(kidThinking?.kind === 'thinking' && kidThinking.text === '' && kidThinking.agentId === 'kid');
    // The main agent's row never holds the subagent's thinking.
    const rootThinking = state.nodes[state.items[1] ?? ''];
    assert.ok(rootThinking?.kind === 'thinking' && rootThinking.agentId === ROOT && rootThinking.text.includes('tsconfig'));
  });

  describe('in the panel (headless Chromium)', function () {
    this.timeout(60_000);
    const panel = panelSuite({ size: { width: 480, height: 600 } });

    it('shows a collapsed "Thinking" row that expands to the text; an omitted one is the row alone', async () => {
      const s = thinkingSession();
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
      const state = createSessionView();
      applyEvents(state, s.events);
      const rootId = state.items[1] ?? '';
      const row = panel.page.locator(item(rootId));
      await row.waitFor();
      assert.equal((await row.locator('.text-row-title').textContent())?.trim(), 'Thinking');
      assert.equal(await row.getAttribute('aria-expanded'), 'false', 'collapsed');
      assert.equal((await row.locator('.text-row-line').first().textContent())?.trim(), 'The build log points at tsconfig: check its paths first.', 'the one-line summary without markdown marks');
      assert.equal(await panel.page.locator('.detail-markdown', { hasText: 'check its paths first' }).count(), 0, 'the text is built only when opened');
      await row.locator('.text-row-title').click();
      await panel.page.locator('.detail-markdown', { hasText: 'check its paths first' }).waitFor();
      assert.equal(await panel.page.locator('.detail-markdown strong', { hasText: 'tsconfig' }).count(), 1, 'rendered as markdown');
      // The subagent's omitted thinking: a row with nothing to expand.
      await panel.page.locator(item('task:tu-1')).locator(':scope > .task-text .task-title').click();
      const task = state.nodes['task:tu-1'];
      const kidRow = panel.page.locator(item(task?.kind === 'task' ? (task.children[0] ?? '') : ''));
      await kidRow.waitFor();
      assert.equal((await kidRow.locator('.text-row-title').textContent())?.trim(), 'Thinking');
      assert.equal(await kidRow.getAttribute('aria-expanded'), null, 'no arrow: no text to show');
      assert.match((await kidRow.getAttribute('title')) ?? '', /display omitted/);
      // The session's totals say how much of the input the prompt cache served: 10,200 of 11,300 input tokens.
      const totals = panel.page.locator('.totals');
      assert.match((await totals.textContent()) ?? '', /12k tokens \(90% cached\)/);
      assert.equal(await totals.getAttribute('title'), 'Prompt cache: 90% of 11,300 input tokens read from cache');
      await panel.page.screenshot({ path: join(ARTIFACTS, 'thinking.png') });
    });
  });
});
