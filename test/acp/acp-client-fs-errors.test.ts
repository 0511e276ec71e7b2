/**
 * The client's fs/* refusals in its own words, through the BUILT CLI's stdio with the ACP SDK's client: a handler
 * that throws reaches the agent as JSON-RPC "Internal error" with `data.details`; the model's tool result and the
 * user's card say the details, not "Internal error".
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { contentText, lastToolResults, reply, type RecordedRequest, type WireBlock } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { must } from '../kit/must';
import { acpClients, updatesOf } from './acp-client';

const resultText = (req: RecordedRequest | undefined): string => {
  const block = lastToolResults(must(req))[0];
  return typeof block?.content === 'string' ? block.content : contentText(block?.content as WireBlock[] | undefined);
};
const texts = (content: ToolCallContent[] | null | undefined): string => (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');

describe("delegate acp: the client's fs errors", function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  for (const capabilities of [{}, { subagents: {} }]) {
    it(`a read and a write the client refuses say the client's details to the model and on the card (${Object.keys(capabilities).length ? 'with' : 'without'} subagent sessions)`, async () => {
      const { workdir } = cli.dirs;
      writeFileSync(join(workdir, 'draft.md'), 'on disk\n');
      cli.api.script(
        reply.toolUse({ name: 'read_file', input: { path: 'draft.md' } }),
        reply.toolUse({ name: 'write_file', input: { path: 'new.md', content: 'x\n' } }),
        reply.text('both refused'),
      );
      const client = await start({
        args: ['--permission-mode', 'acceptEdits'],
        capabilities: { ...capabilities, fs: { readTextFile: true, writeTextFile: true } },
        readTextFile: () => {
          throw new Error("EACCES: permission denied, open 'draft.md' (the buffer is locked by another extension)");
        },
        writeTextFile: () => {
          throw new Error('the editor refused: new.md is in a read-only folder');
        },
      });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'edit' }] });
      const read = resultText(cli.api.messageRequests()[1]);
      assert.match(read, /the client could not read it: EACCES: permission denied, open 'draft\.md' \(the buffer is locked by another extension\)/);
      assert.doesNotMatch(read, /Internal error/);
      const write = resultText(cli.api.messageRequests()[2]);
      assert.match(write, /the client could not write it: the editor refused: new\.md is in a read-only folder/);
      const failed = updatesOf(client, sessionId, 'tool_call_update').filter((u) => u.status === 'failed').map((u) => texts(u.content));
      assert.equal(failed.length, 2);
      assert.match(must(failed[0]), /EACCES: permission denied/);
      assert.match(must(failed[1]), /read-only folder/);
    });
  }
});
