/**
 * The fork mark in headless Chromium: a task node whose agent started with `forkedFrom` carries a "fork"
 * badge (icon and word, the tooltip says what a fork is) and no agent-type chip; an ordinary subagent's
 * node has no badge.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { ARTIFACTS, send, panelSuite } from './browser';
import { ROOT, Script } from './fixtures';
import { item } from './tree-dom';


function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

function forkSession(): Script {
  const s = new Script();
  s.rootStart('Explain the config loader, then check the env overrides.');
  s.turn(ROOT, null, 1);
  s.open(ROOT, null, 'tu-fresh', 'task', { description: 'list config files', prompt: 'List the config files.' });
  s.emit('fresh', ROOT, { type: 'agent_started', prompt: 'List the config files.', description: 'list config files', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-fresh', agentType: 'general-purpose' });
  s.open(ROOT, null, 'tu-fork', 'task', { description: 'check env overrides', prompt: 'Check the env overrides.', fork: true });
  s.emit('forked', ROOT, {
    type: 'agent_started',
    prompt: 'Check the env overrides.',
    description: 'check env overrides',
    depth: 1,
    model: 'claude-sonnet',
    toolUseId: 'tu-fork',
    agentType: 'fork',
    forkedFrom: { agentId: ROOT, messageCount: 6 },
  });
  s.turn('forked', ROOT, 1);
  s.tool('forked', ROOT, 'f1', 'read_file', { path: 'src/config.ts' }, 'export const config = {}');
  return s;
}

describe('webview panel: the fork mark on a task node', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('a fork has a "fork" badge with a tooltip that says so, and no agent chip; an ordinary subagent has no badge', async () => {
    const state = snapshotOf(forkSession().events);
    const forkNode = state.nodes['task:tu-fork'];
    assert.equal(forkNode?.kind === 'task' && forkNode.fork, true, 'the view-model marks it');
    await send(panel.page, { type: 'snapshot', state, running: true });
    const badge = panel.page.locator(`${item('task:tu-fork')} .task-fork`).first();
    assert.equal(await badge.isVisible(), true);
    assert.equal((await badge.textContent())?.trim(), 'fork');
    assert.equal(await badge.locator('.codicon-repo-forked').count(), 1);
    assert.match((await badge.getAttribute('title')) ?? '', /^Fork: started from its parent's conversation so far .*cannot delegate · claude-sonnet$/);
    assert.equal(await panel.page.locator(`${item('task:tu-fork')} .task-agent`).first().isHidden(), true, 'no "fork" agent chip beside the badge');
    assert.equal(await panel.page.locator(`${item('task:tu-fresh')} .task-fork`).first().isHidden(), true);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'fork-mark.png') });
  });
});
