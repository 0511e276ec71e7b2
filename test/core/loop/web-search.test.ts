// Web search through the API's server tool (real SDK, local server): offered in the request, its blocks
// kept and sent back as they are, shown as web_search rows; an endpoint that refuses it turns it off.
import assert from 'node:assert/strict';
import { reply, startMessagesApiServer, type MessagesApiServer } from '../../fixtures/messages-api-server';
import { must } from '../../kit/must';
import { denyAll, testSession } from '../../kit/test-session';

describe('web search (server tool)', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(() => api.close());

  const open = () => testSession({ api, mode: 'default', approver: denyAll }, { tools: { webSearch: true } });

  it('offers the tool, shows the search as a row and sends its blocks back unchanged', async () => {
    api.script(
      reply.blocks(
        [
          { type: 'text', text: 'Let me search.' },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'delegate release date' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', title: 'Delegate 1.0', url: 'https://example.org/news', encrypted_content: 'abc', page_age: null }] },
          { type: 'text', text: 'It was released in 2026.' },
        ],
        { stopReason: 'end_turn' },
      ),
      reply.text('You asked about the release.'),
    );
    const { session, events } = await open();
    const first = await session.run('When was Delegate released?', new AbortController().signal);
    assert.equal(first.status, 'completed');
    assert.equal(first.result, 'Let me search.It was released in 2026.');
    const sent = must(api.messageRequests()[0]).body;
    // After the tools subagents share too, ending their cached block (cache-breakpoints.ts).
    const { cache_control: _breakpoint, ...search } = must(sent.tools?.find((t) => t.name === 'web_search'));
    assert.deepEqual(search, { type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
    const started = events.find((e) => e.type === 'tool_call' && e.state === 'pending' && e.name === 'web_search');
    assert.equal(started?.type === 'tool_call' && started.state === 'pending' && started.summary, 'delegate release date');
    const finished = events.find((e) => e.type === 'tool_call' && e.state === 'completed' && e.name === 'web_search');
    assert.equal(finished?.type === 'tool_call' && finished.state === 'completed' && finished.output, 'Delegate 1.0 — https://example.org/news');
    await session.run('and?', new AbortController().signal);
    const history = JSON.stringify(must(api.messageRequests()[1]).body.messages);
    assert.match(history, /"type":"server_tool_use","id":"srvtoolu_1"/);
    assert.match(history, /"type":"web_search_tool_result","tool_use_id":"srvtoolu_1".*"encrypted_content":"abc"/);
    api.assertAllConsumed();
  });

  it('an endpoint that refuses the tool turns it off for the session, says so once, and the request goes on', async () => {
    api.script(reply.httpError(400, 'invalid_request_error', "tools.5.type: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags"), reply.text('answered without search'), reply.text('again'));
    const { session, events } = await open();
    const r = await session.run('search something', new AbortController().signal);
    assert.equal(r.result, 'answered without search');
    assert.equal(must(api.messageRequests()[1]).body.tools?.some((t) => t.name === 'web_search'), false);
    assert.equal(events.filter((e) => e.type === 'notice').length, 1);
    await session.run('more', new AbortController().signal);
    assert.equal(must(api.messageRequests()[2]).body.tools?.some((t) => t.name === 'web_search'), false, 'stays off');
  });
});
