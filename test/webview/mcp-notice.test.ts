// The editor's side of a silent MCP server: the events a real session emits for a server that never answers
// `initialize` (test/fixtures/mcp-silent-server.mjs) become a warning notice in the view-model, and the panel
// shows it (name, step, the wait that expired) in headless Chromium.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DelegateEvent } from '../../src/core/events';
import { ScriptedModel } from '../kit/scripted-model';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { stdioServer } from '../kit/mcp-servers';
import { ARTIFACTS, send, panelSuite } from './browser';
import { denyAll, testSession } from '../kit/test-session';

const SILENT = join(__dirname, '..', 'fixtures', 'mcp-silent-server.mjs');
const TEXT = /^\.mcp\.json: MCP server "quiet" has not answered "initialize" within 0\.3 s: the first request goes without its tools \(they join later if it answers; MCP_TIMEOUT gives it 30 s, and one restart\)$/;

/** The events of one prompt in a session whose only MCP server never answers. */
async function silentServerEvents(): Promise<DelegateEvent[]> {
  const { session, events } = await testSession(
    { model: new ScriptedModel().script('default', { text: 'Answered without it.' }), mode: 'default', approver: denyAll },
    { tools: { sandbox: { mode: 'off', allowNetwork: false }, mcp: { servers: [stdioServer('quiet', { args: [SILENT], source: '.mcp.json' })], waitMs: 300 } } },
  );
  try {
    await session.run('hello', new AbortController().signal);
  } finally {
    await session.shutdown('test ended', 300);
  }
  return events;
}

function noticesOf(state: SessionViewState): string[] {
  return state.items.flatMap((id) => {
    const n = state.nodes[id];
    return n?.kind === 'notice' ? [`${n.level}: ${n.text}`] : [];
  });
}

describe('panel: an MCP server that never answers initialize', function () {
  this.timeout(60_000);
  const panel = panelSuite();
  let state: SessionViewState;

  before(async () => {
    state = createSessionView();
    applyEvents(state, await silentServerEvents());
  });

  it('the view-model has one warning notice naming the server, the step and the wait, with its config file', () => {
    const notices = noticesOf(state);
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0]?.replace(/^warning: /, '') ?? '', TEXT);
    assert.ok(notices[0]?.startsWith('warning: '));
  });

  it('the panel shows it as a warning', async () => {
    await send(panel.page, { type: 'snapshot', state, running: false });
    const notice = panel.page.locator('.notice-warning');
    assert.equal(await notice.count(), 1);
    assert.match((await notice.locator('.notice-text').textContent()) ?? '', TEXT);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'mcp-silent-server-notice.png') });
  });
});
