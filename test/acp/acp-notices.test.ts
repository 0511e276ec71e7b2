/**
 * An MCP server that fails, through the BUILT CLI's stdio with the ACP SDK's client: the user reads it in the
 * session — a `notice` update where the client has `session.notices`, otherwise a paragraph of the agent's message —
 * not only in the client's log of stderr. With and without `subagents`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { methods, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk/unstable';
import { reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { acpClients, messageText, updatesOf } from './acp-client';

describe('delegate acp: MCP failures reach the user', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  const run = async (capabilities: ClientCapabilities) => {
    const broken: McpServer = { name: 'broken', command: join(cli.dirs.workdir, 'no-such-server'), args: [], env: [] };
    cli.api.script(reply.text('Answered without it.'));
    const client = await start({ capabilities });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [broken] });
    const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'use the server' }] });
    assert.equal(done.stopReason, 'end_turn');
    assert.match(client.stderr(), /delegate acp: error: MCP server "broken" failed/);
    return { client, sessionId };
  };

  for (const [label, capabilities] of [['without subagent sessions', {}], ['with subagent sessions', { subagents: {} }]] as [string, ClientCapabilities][]) {
    it(`${label}, without session.notices: said as the agent's message, before its answer`, async () => {
      const { client: c, sessionId } = await run(capabilities);
      const said = messageText(c, sessionId);
      assert.match(said, /^\s*> \*\*Delegate error:\*\* MCP server "broken" failed: .*; its tools are not available \(the ACP client\)\s+Answered without it\.$/s);
      assert.equal(updatesOf(c, sessionId, 'notice').length, 0);
    });
  }

  it('with session.notices: a notice update, and the agent\'s message is its own', async () => {
    const { client: c, sessionId } = await run({ session: { notices: {} } });
    assert.ok(updatesOf(c, sessionId, 'notice').some((n) => n.severity === 'error' && /MCP server "broken" failed/.test(n.title)));
    assert.equal(messageText(c, sessionId), 'Answered without it.');
  });
});
