/**
 * The `task` call's card, through the BUILT CLI's stdio with the ACP SDK's client: what the user reads there is the
 * child's work and its final answer, once — never the harness's notes to the model (`[changes] …`, `[subagent …:
 * send_message and read_subagent reach it]`). Without subagent sessions the card is the child's summary; with
 * them, the child's messages are in its own session and the card holds its report.
 */
import assert from 'node:assert/strict';
import { methods, type ClientCapabilities, type ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { contentText, lastToolResults, reply, type WireBlock } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { acpClients, updatesOf } from './acp-client';

const texts = (content: ToolCallContent[] | null | undefined): string => (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');
/** A report longer than the summary's quoted tail (600 characters), with a line that must show once. */
const REPORT = `The config is fine. ${'Every key was checked against the schema and the defaults. '.repeat(15)}\nLAST LINE OF THE REPORT`;
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('delegate acp: the task card', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  const run = async (capabilities: ClientCapabilities) => {
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'check config', prompt: 'CHILD: check the config' } }), reply.text('all good')] },
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'glob', input: { pattern: '*.ini' } }), reply.text(REPORT)] },
    ]);
    const client = await start({ capabilities });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'check it' }] });
    const task = must(updatesOf(client, sessionId, 'tool_call').find((t) => t.title === 'Delegate: check config'));
    const updates = updatesOf(client, sessionId, 'tool_call_update').filter((u) => u.toolCallId === task.toolCallId);
    const final = must(updates.filter((u) => u.content).at(-1));
    // The model still gets the notes (they are for it).
    const toParent = lastToolResults(must(cli.api.messageRequests().filter((r) => !isChild(r)).at(-1)))[0];
    const modelText = typeof toParent?.content === 'string' ? toParent.content : contentText(toParent?.content as WireBlock[] | undefined);
    assert.match(modelText, /\[changes\] none/);
    assert.match(modelText, /send_message and read_subagent reach it/);
    return { card: texts(final.content), status: must(updates.at(-1)).status };
  };

  it('without subagent sessions: the summary, then the whole report once; no harness notes', async () => {
    const { card, status } = await run({});
    assert.equal(status, 'completed');
    assert.match(card, /^\*\*check config\*\* \(general-purpose\) · completed\n- Find \*\.ini\n\nThe config is fine\./);
    assert.equal(occurrences(card, 'LAST LINE OF THE REPORT'), 1, card);
    assert.equal(occurrences(card, 'The config is fine.'), 1, card);
    assert.doesNotMatch(card, /\[changes\]|\[subagent |send_message/);
  });

  it('with subagent sessions: the report once; no harness notes', async () => {
    const { card, status } = await run({ subagents: {} });
    assert.equal(status, 'completed');
    assert.equal(occurrences(card, 'LAST LINE OF THE REPORT'), 1, card);
    assert.doesNotMatch(card, /\[changes\]|\[subagent |send_message/);
  });
});
