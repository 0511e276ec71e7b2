// An MCP server that does not answer `initialize` (test/fixtures/mcp-silent-server.mjs): the first prompt waits
// for it at most the wait (never longer than MCP_TIMEOUT), and says so in a notice naming the server, the step and
// the wait that expired; a server that connects before anyone was told leaves no such notice behind.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DelegateEvent } from '../../../src/core/events';
import { ScriptedModel } from '../../kit/scripted-model';
import type { McpServerStatus } from '../../../src/core/mcp/server-connection';
import type { Session, SessionMcpConfig } from '../../../src/core/session';
import { stdioServer } from '../../kit/mcp-servers';
import { waitUntil } from '../../kit/wait';
import { denyAll, testSession } from '../../kit/test-session';

const SILENT = join(__dirname, '..', '..', 'fixtures', 'mcp-silent-server.mjs');

describe('MCP: a server that does not answer initialize', function () {
  this.timeout(30_000);
  async function open(args: string[], mcp: Partial<SessionMcpConfig>): Promise<{ session: Session; model: ScriptedModel; events: DelegateEvent[]; statuses: McpServerStatus[] }> {
    const model = new ScriptedModel().script('default', { text: 'first' }, { text: 'second' });
    const statuses: McpServerStatus[] = [];
    const servers = [stdioServer('quiet', { args: [SILENT, ...args] })];
    const { session, events } = await testSession({ model, approver: denyAll }, { tools: { sandbox: { mode: 'off', allowNetwork: false }, mcp: { servers, host: { onStatus: (s) => void statuses.push(s) }, ...mcp } } });
    return { session, model, events, statuses };
  }
  const notices = (events: DelegateEvent[]): string[] => events.flatMap((e) => (e.type === 'notice' ? [`${e.level}: ${e.source}: ${e.text}`] : []));
  const go = (s: Session) => s.run('go', new AbortController().signal);

  it('the first prompt waits the wait, then goes on without its tools and says which server, which step and which wait', async () => {
    const { session, model, events } = await open([], { waitMs: 300 });
    const started = Date.now();
    assert.equal((await go(session)).status, 'completed');
    assert.ok(Date.now() - started < 3000, `waited ${Date.now() - started} ms`);
    assert.ok(!model.requests[0]?.request.tools.some((t) => t.name.startsWith('mcp__quiet__')));
    assert.deepEqual(notices(events), [
      'warning: test: MCP server "quiet" has not answered "initialize" within 0.3 s: the first request goes without its tools (they join later if it answers; MCP_TIMEOUT gives it 30 s, and one restart)',
    ]);
  });

  it('MCP_TIMEOUT shorter than the wait bounds it, and the notice names it; the failure that follows names the step and the timeout', async () => {
    const { session, events } = await open([], { waitMs: 5000, connectTimeoutMs: 400 });
    const started = Date.now();
    await go(session);
    assert.ok(Date.now() - started < 3000, `the wait was not bounded by MCP_TIMEOUT (${Date.now() - started} ms)`);
    assert.equal(notices(events)[0], 'warning: test: MCP server "quiet" has not answered "initialize" within 0.4 s (MCP_TIMEOUT): the first request goes without its tools (it is started once more; they join later if it answers)');
    await waitUntil(() => notices(events).length === 2, 'the failure notice', 5000);
    assert.equal(notices(events)[1], 'error: test: MCP server "quiet" failed: it did not answer "initialize" within 0.4 s (MCP_TIMEOUT) (it was started 2 times); its tools are not available');
  });

  it('a server that answers late but before the first prompt leaves no "has not answered" notice; its tools are there', async () => {
    const { session, model, events, statuses } = await open(['1200'], { waitMs: 300 });
    await waitUntil(() => statuses.some((s) => s.state === 'connected'), 'the late server', 15_000);
    await go(session);
    assert.deepEqual(notices(events), ['info: test: MCP server "quiet": connected (stdio), 1 tools']);
    assert.ok(model.requests[0]?.request.tools.some((t) => t.name === 'mcp__quiet__ping'));
  });
});
