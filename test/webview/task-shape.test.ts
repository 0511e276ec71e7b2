/**
 * The model and effort a task call chose, in headless Chromium: a task node whose agent started with `asked`
 * shows them beside its description (the tooltip names the model it ran on); a task that chose nothing shows none.
 */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { send, panelSuite } from './browser';
import { ROOT, Script } from './fixtures';
import { item } from './tree-dom';

function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

function session(): Script {
  const s = new Script();
  s.rootStart('Find the config loader, then prove the parser total.');
  s.turn(ROOT, null, 1);
  s.open(ROOT, null, 'tu-cheap', 'task', { description: 'find config', prompt: 'Find it.', model: 'haiku', effort: 'low' });
  s.emit('cheap', ROOT, { type: 'agent_started', prompt: 'Find it.', description: 'find config', depth: 1, model: 'claude-haiku-5-5', toolUseId: 'tu-cheap', agentType: 'general-purpose', asked: { model: 'haiku', effort: 'low' } });
  s.open(ROOT, null, 'tu-plain', 'task', { description: 'prove parser', prompt: 'Prove it.' });
  s.emit('plain', ROOT, { type: 'agent_started', prompt: 'Prove it.', description: 'prove parser', depth: 1, model: 'claude-sonnet-5-5', toolUseId: 'tu-plain', agentType: 'general-purpose' });
  return s;
}

describe('webview panel: the model and effort a task call chose', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('shows "haiku · effort low" on the task that chose them, the model it ran on in the tooltip; nothing on the other', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(session().events), running: true });
    const shape = panel.page.locator(`${item('task:tu-cheap')} .task-shape`).first();
    assert.equal(await shape.isVisible(), true);
    assert.equal((await shape.textContent())?.trim(), 'haiku · effort low');
    assert.equal(await shape.getAttribute('title'), "Chosen by its parent's task call: model claude-haiku-5-5, effort low");
    assert.equal(await panel.page.locator(`${item('task:tu-plain')} .task-shape`).first().isHidden(), true);
  });
});
