/**
 * session/new and session/load name an absolute folder (the protocol says absolute), through the BUILT CLI's stdio
 * with the ACP SDK's client: a relative path, one that does not exist and a file are -32602, and no session is made.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ClientCapabilities } from '@agentclientprotocol/sdk/unstable';
import { cliSuite } from '../kit/cli-suite';
import { acpClients } from './acp-client';

const invalidParams = (pattern: RegExp) => (err: { code?: number; message?: string }) => {
  assert.equal(err.code, -32602, JSON.stringify(err));
  assert.match(err.message ?? '', pattern);
  return true;
};

describe('delegate acp: the session folder', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  for (const [label, capabilities] of [['without subagent sessions', {}], ['with subagent sessions', { subagents: {} }]] as [string, ClientCapabilities][]) {
    it(`${label}: a relative, missing or file cwd is -32602 for session/new and session/load; an absolute folder opens`, async () => {
      const { workdir } = cli.dirs;
      const file = join(workdir, 'notes.txt');
      writeFileSync(file, 'x\n');
      const client = await start({ capabilities });
      const open = (cwd: string) => client.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      await assert.rejects(open('.'), invalidParams(/cwd must be an absolute path \(got "\."\)/));
      await assert.rejects(open('some/project'), invalidParams(/cwd must be an absolute path \(got "some\/project"\)/));
      await assert.rejects(open(join(workdir, 'missing')), invalidParams(/cwd does not exist: .*missing$/));
      await assert.rejects(open(file), invalidParams(/cwd is not a folder: .*notes\.txt$/));
      const { sessionId } = await open(workdir);
      await assert.rejects(client.agent.request(methods.agent.session.load, { sessionId, cwd: 'relative', mcpServers: [] }), invalidParams(/cwd must be an absolute path/));
      assert.deepEqual((await client.agent.request(methods.agent.session.list, { cwd: workdir })).sessions.length, 0, 'nothing was made of the refused folders');
    });
  }
});
