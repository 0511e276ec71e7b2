/**
 * A memory agent (an agent file's `memory: user|project|local`) on its task row: the view model keeps the scope and
 * folder its agent_started records, the packed snapshot carries them, and the row shows "memory: project" whose
 * tooltip and accessible name give the folder; pressed (keyboard alone), it asks the host to open its MEMORY.md. A
 * folder the core refused says so and opens nothing. Screenshot: test-artifacts/webview/memory-mark-250-dark.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState, type TaskNode } from '../../src/view-model/session-view';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { ARTIFACTS, frames, panelSuite, posted, send } from './browser';
import { ROOT, Script, usage } from './fixtures';
import { item } from './tree-dom';

const DIR = '/work/app/.claude/agent-memory/reviewer';

function session(): Script {
  const s = new Script();
  s.rootStart('Review the login form.');
  s.turn(ROOT, null, 1);
  s.open(ROOT, null, 'tu-rev', 'task', { description: 'review the form', prompt: 'Review it.', subagent_type: 'reviewer' });
  s.emit('rev-1', ROOT, { type: 'agent_started', prompt: 'Review it.', description: 'review the form', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-rev', agentType: 'reviewer', memory: { scope: 'project', dir: DIR } });
  s.emit('rev-1', ROOT, { type: 'agent_finished', status: 'completed', result: 'Looks fine.', turns: 2, toolCalls: 2, usage: usage(3000, 300), durationMs: 8000 });
  s.open(ROOT, null, 'tu-bad', 'task', { description: 'audit the form', prompt: 'Audit it.', subagent_type: 'auditor' });
  s.emit('aud-1', ROOT, { type: 'agent_started', prompt: 'Audit it.', description: 'audit the form', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-bad', agentType: 'auditor', memory: { scope: 'local', dir: '/work/app/.claude/agent-memory-local/auditor', refused: true } });
  s.open(ROOT, null, 'tu-plain', 'task', { description: 'list the fields', prompt: 'List them.' });
  s.emit('plain-1', ROOT, { type: 'agent_started', prompt: 'List them.', description: 'list the fields', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-plain', agentType: 'general-purpose' });
  return s;
}

function stateOf(s: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
}

describe('a memory agent on the view model and the packed snapshot', () => {
  it('its task node has the scope and folder of its agent_started, through the packed snapshot too', () => {
    const state = stateOf(session());
    assert.deepEqual((state.nodes['task:tu-rev'] as TaskNode).memory, { scope: 'project', dir: DIR });
    assert.equal((state.nodes['task:tu-plain'] as TaskNode).memory, undefined);
    assert.deepEqual((decodeSnapshot(encodeSnapshot(state)).nodes['task:tu-rev'] as TaskNode).memory, { scope: 'project', dir: DIR });
  });
});

interface PageDoc {
  document: { activeElement: { matches(s: string): boolean } | null; documentElement: { className: string } };
}

describe('panel: the memory marker (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 250, height: 520 } });

  it('"memory: project" with the folder in its name; Enter opens MEMORY.md; a refused folder says so; none on a plain agent', async () => {
    const page: Page = panel.page;
    await send(page, { type: 'snapshot', packed: encodeSnapshot(stateOf(session())), running: true });
    const mark = page.locator(`${item('task:tu-rev')} .task-memory`).first();
    assert.equal(await mark.isVisible(), true);
    assert.equal((await mark.innerText()).trim(), 'memory: project');
    const name = await mark.getAttribute('aria-label');
    assert.ok(name?.includes(DIR), `the folder is in its accessible name: ${name}`);
    assert.equal(await mark.getAttribute('title'), name);
    const box = await mark.boundingBox();
    assert.ok(box && box.x + box.width <= 250, 'it fits the 250 px panel');
    const refused = page.locator(`${item('task:tu-bad')} .task-memory`).first();
    assert.equal((await refused.innerText()).trim(), 'memory: local (refused)');
    assert.match((await refused.getAttribute('aria-label')) ?? '', /leads out of the workspace/);
    assert.equal(await page.locator(`${item('task:tu-plain')} .task-memory`).first().isHidden(), true);
    await page.evaluate(() => ((globalThis as unknown as PageDoc).document.documentElement.className = 'vscode-dark'));
    await frames(page, 2);
    await page.waitForTimeout(200); // codicon font
    await page.screenshot({ path: join(ARTIFACTS, 'memory-mark-250-dark.png') });

    const open = await page.locator(item('task:tu-rev')).getAttribute('aria-expanded');
    await mark.focus();
    await page.keyboard.press('Enter');
    assert.equal(await refused.isDisabled(), true, 'a refused folder has nothing to open');
    assert.deepEqual((await posted(page)).filter((m) => m.type === 'open_file'), [{ type: 'open_file', path: `${DIR}/MEMORY.md` }]);
    assert.equal(await page.locator(item('task:tu-rev')).getAttribute('aria-expanded'), open, 'pressing does not fold the row');
  });
});
