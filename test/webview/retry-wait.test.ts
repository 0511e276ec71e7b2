// A wait the API asks for, in the panel: a real session on the real Anthropic SDK against the local server's 429
// (retry-after: 1, as the API sends it) emits a `waiting` event with `retry`; the view-model makes it a warning
// notice naming the wait, the reason and when the retry goes, which the panel shows while it waits; once the
// answer comes, the notice says how long it took.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DelegateEvent } from '../../src/core/events';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { reply, startMessagesApiServer } from '../fixtures/messages-api-server';
import { ARTIFACTS, send, panelSuite } from './browser';
import { denyAll, testSession } from '../kit/test-session';

const WAITING = /^The API asked to wait 1 s \(rate limited, 429\): attempt 2 at \d\d:\d\d:\d\d\.$/;

/** The events of one prompt whose first request gets a 429 with retry-after: 1. */
async function rateLimitedEvents(): Promise<DelegateEvent[]> {
  const api = await startMessagesApiServer();
  api.script(reply.rateLimited(1), reply.text('Answered after the wait.'));
  const { session, events } = await testSession({ api, modelId: 'claude-sonnet-5-5', mode: 'default', approver: denyAll }, { tools: { sandbox: { mode: 'off', allowNetwork: false } } });
  try {
    await session.run('hello', new AbortController().signal);
    api.assertAllConsumed();
  } finally {
    await session.shutdown('test ended', 300);
    await api.close();
  }
  return events;
}

function notices(state: SessionViewState): string[] {
  return state.items.flatMap((id) => {
    const n = state.nodes[id];
    return n?.kind === 'notice' ? [`${n.level}: ${n.text}`] : [];
  });
}

describe('panel: a wait the API asks for (429 retry-after)', function () {
  this.timeout(60_000);
  const panel = panelSuite();
  let waiting: SessionViewState;
  let answered: SessionViewState;

  before(async () => {
    const events = await rateLimitedEvents();
    const at = events.findIndex((e) => e.type === 'waiting' && e.retry !== undefined);
    assert.ok(at >= 0, 'a waiting event with retry');
    waiting = createSessionView();
    applyEvents(waiting, events.slice(0, at + 1));
    answered = createSessionView();
    applyEvents(answered, events);
  });

  it('shows the wait as a warning while it lasts, then says the answer came after it', async () => {
    await send(panel.page, { type: 'snapshot', state: waiting, running: true });
    const notice = panel.page.locator('.notice-warning');
    assert.equal(await notice.count(), 1);
    assert.match((await notice.locator('.notice-text').textContent()) ?? '', WAITING);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'retry-wait-notice.png') });

    assert.deepEqual(notices(answered), ['info: The API answered after a wait of over 1 s.']);
    await send(panel.page, { type: 'snapshot', state: answered, running: false });
    assert.equal(await panel.page.locator('.notice-warning').count(), 0);
  });
});
