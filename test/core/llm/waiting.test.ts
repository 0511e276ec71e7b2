// A request that gets no answer (not even headers) is not silent: the loop emits `waiting` events with
// how long and which HTTP attempt, and the view shows one notice that is updated, then settled.
import assert from 'node:assert/strict';
import { runAgent } from '../../../src/core/loop/loop';
import { createAnthropicModel } from '../../../src/core/llm/anthropic-model';
import { applyEvents, createSessionView } from '../../../src/view-model/session-view';
import { reply, startMessagesApiServer, type MessagesApiServer } from '../../fixtures/messages-api-server';
import { makeRun } from '../../kit/run-services';

describe('waiting for the API', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(() => api.close());

  it('emits waiting events while no response has come, then the answer settles the notice', async () => {
    api.script(reply.text('finally', { delayMs: 700 }));
    const model = createAnthropicModel({ apiKey: 'k', baseURL: api.baseURL, waitingNoticeMs: 200 });
    const t = makeRun(model);
    const spec = { identity: { agentId: 'main', parentId: null, depth: 0 }, systemPrompt: 's', history: [], prompt: 'hi', tools: t.baseTools, maxTurns: 3 };
    const r = await runAgent(spec, t.ports, new AbortController().signal);
    assert.equal(r.result, 'finally');
    const waits = t.events.filter((e) => e.type === 'waiting');
    assert.ok(waits.length >= 2, `${waits.length} waiting events`);
    const last = waits.at(-1);
    assert.ok(last?.type === 'waiting' && last.waitedMs >= 390 && last.attempt === 1);
    const state = createSessionView();
    applyEvents(state, t.events);
    const notices = Object.values(state.nodes).filter((n) => n.kind === 'notice');
    assert.equal(notices.length, 1, 'one notice, updated in place');
    assert.match(notices[0]?.kind === 'notice' ? notices[0].text : '', /The API answered after a wait of over/);
  });
});
