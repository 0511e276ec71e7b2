/**
 * The panel's session features in headless Chromium: the history list (and opening a session from
 * it), the Stop action of a running task row, compaction lines and rows.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import type { SessionListItem } from '../../src/protocol';
import { ARTIFACTS, frames, posted, send, panelSuite } from './browser';
import { ROOT, runningSession, Script, usage } from './fixtures';
import { childIds, item } from './tree-dom';
import { callEnded } from '../kit/call-patches';


function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

/** Times relative to when the list is shown (a module-level `now` made "2 min ago" read "3 min ago" on a slow run). */
const listed = (now = Date.now()): SessionListItem[] => [
  { id: 'sess-new', title: 'Make the flaky integration test deterministic', startedAt: now - 600_000, updatedAt: now - 120_000, prompts: 3, turns: 14, tokens: 182_000, status: 'completed' },
  { id: 'sess-mid', title: 'Upgrade esbuild to 0.28 and fix the build', startedAt: now - 7_200_000, updatedAt: now - 7_000_000, prompts: 1, turns: 6, tokens: 48_200, status: 'interrupted' },
  { id: 'sess-old', title: 'Explain how the config loader resolves environment overrides', startedAt: now - 3 * 86_400_000, updatedAt: now - 3 * 86_400_000, prompts: 2, turns: 4, tokens: 9_800, status: 'cancelled' },
];
const sessions = listed();

describe('webview panel: history, stop one subagent, compaction', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('lists sessions newest first with title, when, turns, tokens and status; opening one posts open_session', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(runningSession().events), running: false }, { type: 'history', sessions: listed(), currentId: 'sess-mid' });
    assert.equal(await panel.page.locator('.log').isHidden(), true, 'the list replaces the conversation');
    const rows = panel.page.locator('.history-row');
    assert.equal(await rows.count(), 3);
    assert.equal(await rows.nth(0).locator('.history-row-text').textContent(), sessions[0]?.title);
    assert.match((await rows.nth(0).locator('.history-row-meta').textContent()) ?? '', /2 min ago · 3 prompts · 14 turns · 182k tokens · completed/);
    assert.match((await rows.nth(1).locator('.history-row-meta').textContent()) ?? '', /interrupted · open/);
    assert.ok(await rows.nth(1).evaluate((e) => (e as unknown as { classList: { contains(c: string): boolean } }).classList.contains('is-current')));
    await panel.page.screenshot({ path: join(ARTIFACTS, 'history-list.png') });
    await rows.nth(2).click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_session', id: 'sess-old' });
    assert.equal(await panel.page.locator('.history').isHidden(), true);
    assert.equal(await panel.page.locator('.log').isVisible(), true);
  });

  it('Back returns to the conversation; New session posts new_session', async () => {
    await send(panel.page, { type: 'history', sessions, currentId: 'sess-new' });
    await panel.page.locator('.history-back').click();
    assert.equal(await panel.page.locator('.log').isVisible(), true);
    await send(panel.page, { type: 'history', sessions: [] });
    assert.match((await panel.page.locator('.history-empty').textContent()) ?? '', /No sessions yet/);
    await panel.page.locator('.history-new').click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'new_session' });
  });

  it('History: the true final status, search by title, rename in place (F2 or its button), delete (the host asks)', async () => {
    const withSubagents = listed().map((x, i) => (i === 0 ? { ...x, subagents: { failed: 1, stopped: 1 } } : x));
    await send(panel.page, { type: 'history', sessions: withSubagents });
    const rows = panel.page.locator('.history-row');
    assert.match((await rows.nth(0).locator('.history-row-meta').textContent()) ?? '', /182k tokens · completed · 1 failed · 1 stopped$/);
    await panel.page.locator('.history-search').fill('esbuild BUILD');
    assert.deepEqual(await panel.page.locator('.history-row:not([hidden]) .history-row-text').allTextContents(), ['Upgrade esbuild to 0.28 and fix the build']);
    await panel.page.locator('.history-search').fill('nothing like this');
    assert.equal(await panel.page.locator('.history-none').isVisible(), true);
    await panel.page.locator('.history-search').fill('');
    assert.equal(await panel.page.locator('.history-row:not([hidden])').count(), 3);

    // Rename: F2 on the focused row, type, Enter; Escape cancels.
    await rows.nth(1).focus();
    await panel.page.keyboard.press('F2');
    const input = rows.nth(1).locator('.history-rename-input');
    await input.fill('esbuild upgrade');
    await panel.page.keyboard.press('Enter');
    await rows.nth(2).hover();
    await rows.nth(2).locator('button.history-rename').click();
    await panel.page.keyboard.type('never kept');
    await panel.page.keyboard.press('Escape');
    assert.equal(await rows.nth(2).locator('.history-row-text').textContent(), sessions[2]?.title, 'Escape keeps the old title');
    await rows.nth(0).hover();
    await rows.nth(0).locator('button.history-delete').click();
    await rows.nth(2).focus();
    await panel.page.keyboard.press('Delete');
    assert.deepEqual((await posted(panel.page)).filter((m) => m.type === 'rename_session' || m.type === 'delete_session' || m.type === 'open_session'), [
      { type: 'rename_session', id: 'sess-mid', title: 'esbuild upgrade' },
      { type: 'delete_session', id: 'sess-new', title: sessions[0]?.title },
      { type: 'delete_session', id: 'sess-old', title: sessions[2]?.title },
    ]);
    assert.equal(await panel.page.locator('.history').isVisible(), true, 'none of it opened a session');
    await panel.page.screenshot({ path: join(ARTIFACTS, 'history-search-rename.png') });
  });

  it('with History open, a New Session (its snapshot) or a run started from the palette shows the conversation', async () => {
    await send(panel.page, { type: 'history', sessions: [] });
    assert.equal(await panel.page.locator('.history').isVisible(), true);
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false });
    assert.equal(await panel.page.locator('.history').isVisible(), false, 'New Session shows the new conversation');
    assert.equal(await panel.page.locator('.log').isVisible(), true);
    await send(panel.page, { type: 'history', sessions });
    // Ask from the palette: the run starts, and its prompt comes as the core's first event.
    const ask = new Script();
    ask.rootStart('Ask from the palette');
    await send(panel.page, { type: 'status', running: true }, { type: 'events', events: ask.take() });
    assert.equal(await panel.page.locator('.history').isVisible(), false, 'Ask shows the running conversation');
    assert.equal(await panel.page.locator('.msg-user .msg-text').textContent(), 'Ask from the palette');
  });

  it('a running task row has a Stop action that posts stop_agent for its subagent; finished rows have none', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(runningSession().events), running: true });
    const row = panel.page.locator(item('task:tu-up'));
    const stop = panel.page.locator(`${item('task:tu-up')} > .row-action.codicon-debug-stop`);
    assert.equal(await stop.isVisible(), true);
    await stop.click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'stop_agent', agentId: 'agent-up' });
    assert.equal(await row.getAttribute('aria-expanded'), 'true', 'clicking Stop does not collapse the row');
    const s = runningSession();
    s.childFinish('agent-nested', 'agent-up', 'cancelled', 1, 2, [100, 10], 'partial', 'stopped by the user');
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    assert.equal(await panel.page.locator(`${item('task:tu-nested')} > .row-action`).isHidden(), true);
  });

  it('shows compaction as a line for the main agent and as a row among a subagent’s calls', async () => {
    const s = new Script();
    s.rootStart('Read every log under logs/ and summarize the errors.');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'tu-logs', 'kid', 'Read the logs', 1);
    s.turn('kid', ROOT, 1);
    s.tool('kid', ROOT, 'k1', 'bash', { command: 'cat logs/2026-11-*.log' }, 'lots of output');
    s.emit('kid', ROOT, { type: 'compacted', trigger: 'auto', tokensBefore: 161_204, tokensAfter: 38_950, stubs: { k1: 'stub' }, summary: 'read 30 logs', keptMessages: 6 });
    s.tool('kid', ROOT, 'k2', 'bash', { command: 'grep -c ERROR logs/*.log' }, '42');
    s.emit(ROOT, null, { type: 'compacted', trigger: 'manual', tokensBefore: 24_500, tokensAfter: 6_100, stubs: {}, summary: 'asked to summarize logs', keptMessages: 4 });
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    const line = panel.page.locator('.notice.compaction');
    assert.equal(await line.textContent(), 'compacted: 24,500 → 6,100 tokens');
    assert.match((await line.getAttribute('title')) ?? '', /on request/);
    const row = panel.page.locator('.tree-row.compaction-row');
    assert.equal(await row.locator('.compaction-label').textContent(), 'compacted: 161,204 → 38,950 tokens');
    assert.match((await row.getAttribute('title')) ?? '', /1 old tool output dropped \(kept on disk\), the earlier part summarized/);
    const order = await childIds(panel.page, 'task:tu-logs');
    assert.deepEqual(order.filter((id) => !id.startsWith('prompt:')), ['tool:k1', `compaction:${s.events.find((e) => e.type === 'compacted')?.seq}`, 'tool:k2']);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'compaction.png') });
  });

  it('a running task with a budget shows what it spent against it, with a bar; a spent one reads "Budget reached"', async () => {
    const s = new Script();
    s.rootStart('Audit every dependency for known vulnerabilities.');
    s.turn(ROOT, null, 1);
    s.open(ROOT, null, 'tu-audit', 'task', { description: 'audit deps', prompt: 'Audit the dependencies.' });
    s.emit('auditor', ROOT, { type: 'agent_started', prompt: 'Audit the dependencies.', description: 'audit deps', depth: 1, model: 'claude-sonnet-5-5', toolUseId: 'tu-audit', budget: { tokens: 50_000, usd: 0.5 } });
    s.turn('auditor', ROOT, 1);
    s.tool('auditor', ROOT, 'a1', 'bash', { command: 'npm audit --json' }, '{ "vulnerabilities": {} }');
    s.emit('auditor', ROOT, { type: 'usage', turn: 1, usage: usage(40_000, 1_500), costUsd: 0.1425 });
    s.open(ROOT, null, 'tu-spent', 'task', { description: 'scan licenses', prompt: 'Scan licenses.' });
    s.emit('scanner', ROOT, { type: 'agent_started', prompt: 'Scan licenses.', description: 'scan licenses', depth: 1, model: 'claude-sonnet-5-5', toolUseId: 'tu-spent', budget: { tokens: 20_000 } });
    s.childFinish('scanner', ROOT, 'budget_exceeded', 4, 6, [20_400, 900], 'Scanned 31 of 48 packages: all MIT or Apache-2.0 so far.', 'token budget of 20,000 reached (21,300 used)');
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    const audit = panel.page.locator(item('task:tu-audit'));
    assert.match((await audit.locator('.task-meta').first().textContent()) ?? '', /42k \/ 50k tokens · \$0\.14 \/ \$0\.50/);
    const fill = await audit.locator('.task-budget-fill').first().evaluate((e) => (e as unknown as { style: { width: string } }).style.width);
    assert.equal(fill, '83%');
    assert.equal(await audit.locator('.task-budget').first().getAttribute('data-level'), 'high');
    const spent = panel.page.locator(item('task:tu-spent'));
    assert.match((await spent.locator('.task-sub').first().textContent()) ?? '', /Budget reached/);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'budget.png') });
  });

  it('a result held for review shows Accept, Edit result and Re-run on its node; each posts review', async () => {
    const s = new Script();
    s.rootStart('Refactor the config loader and check the tests.');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'tu-rev', 'reviewed', 'refactor loader', 1);
    s.turn('reviewed', ROOT, 1);
    s.tool('reviewed', ROOT, 'r1', 'edit_file', { path: 'src/config.ts', old_text: 'a', new_text: 'b' }, 'Edited src/config.ts');
    s.childFinish('reviewed', ROOT, 'completed', 2, 1, [3000, 400], 'Moved env overrides into one function; tests pass.');
    s.emit('reviewed', ROOT, { type: 'review_requested', result: 'Moved env overrides into one function; tests pass.' });
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    const bar = panel.page.locator(`${item('task:tu-rev')} .task-review`).first();
    assert.equal(await bar.isVisible(), true);
    assert.match((await bar.textContent()) ?? '', /Held for your review/);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'review-held.png') });
    // At 250 px the buttons wrap, none cut (its title neither).
    await panel.page.setViewportSize({ width: 250, height: 720 });
    await frames(panel.page, 3);
    for (const b of await bar.locator('button').all()) {
      const box = await b.boundingBox();
      assert.ok(box && box.x + box.width <= 250, `${await b.textContent()} inside the panel`);
      assert.equal(await b.evaluate((e) => (e as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth <= (e as unknown as { clientWidth: number }).clientWidth), true, `${await b.textContent()} not cut`);
    }
    const title = panel.page.locator(`${item('task:tu-rev')} .task-title`).first();
    assert.equal(await title.evaluate((e) => (e as unknown as { scrollHeight: number; clientHeight: number }).scrollHeight <= (e as unknown as { clientHeight: number }).clientHeight + 1), true, 'the title is whole');
    await panel.page.screenshot({ path: join(ARTIFACTS, 'review-held-250.png') });
    await panel.page.setViewportSize({ width: 420, height: 720 });
    for (const action of ['accept', 'edit', 'rerun'] as const) {
      await bar.locator(`button[data-action="${action}"]`).click();
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'review', agentId: 'reviewed', action });
    }
    s.emit('reviewed', ROOT, { type: 'review_resolved', action: 'accept' });
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    assert.equal(await panel.page.locator(`${item('task:tu-rev')} .task-review`).first().isHidden(), true);
  });

  it('screenshot: two named agents in their colours, an MCP call, and the report of an agent file that could not be used', async () => {
    const s = new Script();
    s.emit(ROOT, null, { type: 'notice', level: 'error', text: 'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]', source: '.claude/agents/broken.md:4' });
    s.emit(ROOT, null, { type: 'notice', level: 'warning', text: 'tools: Delegate has no tool "NotebookRead": dropped from this agent', source: '.claude/agents/data-analyst.md' });
    s.rootStart('Review the payment module and check the API docs for the refund endpoint.');
    s.turn(ROOT, null, 1);
    s.open(ROOT, null, 'tu-rev', 'task', { description: 'review payments', prompt: 'Review src/payments.' });
    s.emit('rev', ROOT, { type: 'agent_started', prompt: 'Review src/payments.', description: 'review payments', depth: 1, model: 'claude-sonnet-5-5', toolUseId: 'tu-rev', agentType: 'code-reviewer', color: 'blue' });
    s.open(ROOT, null, 'tu-docs', 'task', { description: 'read refund docs', prompt: 'Find the refund endpoint.' });
    s.emit('docs', ROOT, { type: 'agent_started', prompt: 'Find the refund endpoint.', description: 'read refund docs', depth: 1, model: 'claude-haiku-5-5', toolUseId: 'tu-docs', agentType: 'docs-researcher', color: 'green' });
    s.turn('rev', ROOT, 1);
    s.tool('rev', ROOT, 'rv1', 'grep', { pattern: 'refund', path: 'src/payments' }, 'src/payments/refund.ts');
    s.turn('docs', ROOT, 1);
    s.open('docs', ROOT, 'mcp1', 'mcp__docs__search', { query: 'refund endpoint' }, { kind: 'external', summary: 'refund endpoint' });
    s.emit('docs', ROOT, callEnded('mcp1', 'mcp__docs__search', 'POST /v2/refunds — creates a refund for a captured payment', false, 340));
    s.childFinish('docs', ROOT, 'completed', 2, 1, [2100, 300], 'POST /v2/refunds creates a refund.');
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    await panel.page.locator(`${item('task:tu-docs')} .task-title`).first().click();
    const badges = await panel.page.locator('.task-agent').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-color')]));
    assert.deepEqual(badges, [['code-reviewer', 'blue'], ['docs-researcher', 'green']]);
    assert.equal(await panel.page.locator(`${item('tool:mcp1')} .tool-name`).textContent(), 'mcp__docs__search');
    assert.match((await panel.page.locator('.notice-error').first().textContent()) ?? '', /broken\.md:4: invalid YAML/);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'agents-mcp-notices.png') });
  });
});
