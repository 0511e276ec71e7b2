/**
 * *Open in editor*'s record of one subagent (src/view-model/agent-record.ts): built from the transcript's
 * events, it holds the prompt, every call with its whole input and output, nested subagents, and the result;
 * nothing of the other subagents. And the panel's task row asks the host for it.
 */
import assert from 'node:assert/strict';
import { agentRecord } from '../../src/view-model/agent-record';
import { allTasks, applyEvents, createSessionView } from '../../src/view-model/session-view';
import { posted, send, panelSuite } from './browser';
import { finishedSession, runningSession } from './fixtures';
import { item } from './tree-dom';

describe('a subagent\'s whole record (Open in editor)', function () {
  it('has its prompt, each call with full input and output, its result, and none of the other subagents', () => {
    const s = finishedSession();
    const long = 'x'.repeat(5000);
    s.tool('agent-a', 'root', 'a-long', 'read_file', { path: 'big.txt' }, long);
    const md = agentRecord(s.events, 'agent-a') ?? '';
    assert.match(md, /^# Survey the test runner config\n/);
    assert.match(md, /## Prompt\n\n```\nSurvey the test runner config\. Report what you found in a short summary\.\n```/);
    assert.match(md, /### `bash`[^\n]*\n\nInput:\n\n```json\n\{\n {2}"command": "npx mocha --reporter dot"\n\}\n```/);
    assert.match(md, /42 passing \(3s\)\n1 failing/);
    assert.ok(md.includes(long), 'the whole output, not the panel\'s 2 KB preview');
    assert.match(md, /## Result · completed · 3 turns · 2 calls/);
    assert.match(md, /The runner uses a 2 s timeout/);
    assert.ok(!md.includes('setTimeout(done, 50)'), 'no call of another subagent');
    assert.equal(agentRecord(s.events, 'no-such-agent'), undefined);
  });

  it('puts a nested subagent\'s calls under its own heading', () => {
    const md = agentRecord(runningSession().events, 'agent-up') ?? '';
    assert.match(md, /### Subagent: Check the CHANGELOG for breaking changes/);
    assert.match(md, /#### `grep`/);
  });

  describe('in the panel (headless Chromium)', function () {
    this.timeout(60_000);
    const panel = panelSuite();

    it('a task row\'s Open in editor posts open_record for its subagent, without folding the row', async () => {
      const state = createSessionView();
      applyEvents(state, finishedSession().events);
      await send(panel.page, { type: 'snapshot', state, running: false });
      const row = panel.page.locator(item('task:tu-b'));
      await row.locator('.task-open').click();
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_record', agentId: 'agent-b', description: 'Grep for timing-dependent waits' });
      assert.equal(await row.getAttribute('aria-expanded'), 'true');
    });

    it('a finished task row\'s Send a message… posts message_agent for its subagent, by mouse or keyboard; a running task has none', async () => {
      const state = createSessionView();
      applyEvents(state, finishedSession().events);
      await send(panel.page, { type: 'snapshot', state, running: false });
      const row = panel.page.locator(item('task:tu-b'));
      const button = row.locator('.task-message');
      assert.equal(await button.getAttribute('aria-label'), 'Send a message to this subagent');
      await button.click();
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'message_agent', agentId: 'agent-b' });
      await button.focus();
      await panel.page.keyboard.press('Enter');
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'message_agent', agentId: 'agent-b' });
      const running = createSessionView();
      applyEvents(running, runningSession().events);
      await send(panel.page, { type: 'snapshot', state: running, running: true });
      const runningTask = allTasks(running).find((t) => t.status === 'running');
      assert.ok(runningTask, 'the fixture has a running task');
      assert.equal(await panel.page.locator(`${item(runningTask.id)} .task-message`).isVisible(), false);
    });
  });
});
