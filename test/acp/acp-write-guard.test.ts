/**
 * The read-before-write guard before the permission question, through the BUILT CLI's stdio with the ACP SDK's
 * client: a subagent's write_file (and edit_file) over a file it never read is refused without asking the user —
 * an answer would be thrown away — while a write it may make is still asked. With and without `subagents`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ClientCapabilities } from '@agentclientprotocol/sdk/unstable';
import { contentText, lastToolResults, reply, type RecordedRequest, type WireBlock } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { acpClients } from './acp-client';

const resultText = (req: RecordedRequest | undefined): string => {
  const block = lastToolResults(must(req))[0];
  return typeof block?.content === 'string' ? block.content : contentText(block?.content as WireBlock[] | undefined);
};

describe('delegate acp: the write guard before the question', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  for (const [label, capabilities] of [['without subagent sessions', {}], ['with subagent sessions', { subagents: {} }]] as [string, ClientCapabilities][]) {
    it(`${label}: a child's write and edit of a file it never read are refused unasked; its write of a new file is asked`, async () => {
      const { workdir } = cli.dirs;
      writeFileSync(join(workdir, 'config.ini'), 'mode = safe\n');
      cli.api.route([
        { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'fix config', prompt: 'CHILD: fix the config' } }), reply.text('done')] },
        {
          name: 'child',
          match: isChild,
          replies: [
            reply.toolUse({ name: 'write_file', input: { path: 'config.ini', content: 'mode = fast\n' } }),
            reply.toolUse({ name: 'edit_file', input: { path: 'config.ini', old_text: 'safe', new_text: 'fast' } }),
            reply.toolUse({ name: 'write_file', input: { path: 'new.ini', content: 'fresh\n' } }),
            reply.text('tried'),
          ],
        },
      ]);
      const client = await start({ capabilities, permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'fix it' }] });
      const childRequests = cli.api.messageRequests().filter(isChild);
      assert.match(resultText(childRequests[1]), /^Refused: config\.ini already exists and you have not read it\. Read it with read_file first, then write it\./);
      assert.match(resultText(childRequests[2]), /^Refused: config\.ini already exists and you have not read it\. Read it with read_file first, then make your edit\./);
      assert.match(resultText(childRequests[3]), /^Created new\.ini/);
      assert.deepEqual(client.permissions.map((p) => p.toolCall.title), ['Subagent "fix config" (general-purpose) wants to: Write new.ini'], 'only the write it may make is asked');
      assert.equal(readFileSync(join(workdir, 'config.ini'), 'utf8'), 'mode = safe\n');
    });
  }
});
