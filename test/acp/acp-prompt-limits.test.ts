/**
 * Prompts `delegate acp` must not run, through the BUILT CLI's stdio with the ACP SDK's client (acp-client.ts):
 * an empty one (or image / audio only, which the agent does not take) and one too big for the model's window are
 * answered -32602 before anything is kept, and one the API refuses anyway (a window set wider than the model's)
 * fails that prompt alone: in every case the next prompt of the same session runs, as does a later process's.
 */
import assert from 'node:assert/strict';
import { methods, type ClientCapabilities, type ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { contentText, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { must } from '../kit/must';
import { acpClients, messageText, updatesOf, type AcpClient } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
const invalidParams = (pattern: RegExp) => (err: { code?: number; message?: string; data?: unknown }) => {
  assert.equal(err.code, -32602, JSON.stringify(err));
  assert.match(`${err.message} ${JSON.stringify(err.data)}`, pattern);
  return true;
};
const userTexts = (req: RecordedRequest | undefined): string[] => (req?.body.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content));
/** About 2.3 MB of log lines: far more than a 200,000-token window. */
const HUGE = 'ERROR 2026-12-05T02:00:00Z worker-17 request failed: upstream timed out after 30000 ms\n'.repeat(28_000);

describe('delegate acp: prompts it must not run', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const started = acpClients(() => cli.env());
  const start = (capabilities: ClientCapabilities, env: Record<string, string> = {}): Promise<AcpClient> => started({ env, capabilities });

  for (const [label, capabilities] of [['without subagent sessions', {}], ['with subagent sessions', { subagents: {} }]] as const) {
    it(`${label}: an empty prompt, a blank one, and one of only audio are -32602 (an image alone is a prompt: acp-features.test.ts); nothing is kept and the next prompt runs`, async () => {
      cli.api.script(reply.text('Hello there.'), reply.text('Loaded and well.'));
      const client = await start(capabilities);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
      const prompt = (blocks: ContentBlock[]) => client.agent.request(methods.agent.session.prompt, { sessionId, prompt: blocks });
      await assert.rejects(prompt([]), invalidParams(/the prompt is empty/));
      await assert.rejects(prompt(text('')), invalidParams(/the prompt is empty/));
      await assert.rejects(prompt(text('  \n\t ')), invalidParams(/the prompt is empty/));
      await assert.rejects(prompt([{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }, ...text(' ')]), invalidParams(/audio blocks are not taken/));
      assert.equal(cli.api.messageRequests().length, 0, 'nothing reached the model');

      const done = await prompt(text('hello'));
      assert.equal(done.stopReason, 'end_turn');
      assert.deepEqual(userTexts(cli.api.messageRequests()[0]), ['hello'], 'the refused prompts are not in the conversation');
      assert.equal(messageText(client, sessionId), 'Hello there.');

      // A later process loads it with the one prompt it ran, and goes on.
      await client.close();
      const again = await start(capabilities);
      await again.agent.request(methods.agent.session.load, { sessionId, cwd: cli.dirs.workdir, mcpServers: [] });
      assert.deepEqual(updatesOf(again, sessionId, 'user_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')), ['hello']);
      await again.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('still there?') });
      assert.deepEqual(userTexts(cli.api.messageRequests()[1]), ['hello', 'still there?']);
    });
  }

  for (const [label, capabilities] of [['without subagent sessions', {}], ['with subagent sessions', { subagents: {} }]] as const) {
    it(`${label}: a prompt too big for the window is -32602 naming its size and what to do; nothing is sent or kept, and the next prompt runs`, async () => {
      cli.api.script(reply.text('Small is fine.'));
      const client = await start(capabilities);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
      await assert.rejects(
        client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text(`What went wrong?\n${HUGE}`) }),
        invalidParams(/the prompt is too long for the model's context window: about [\d,]+ tokens .* fit \(a 200,000-token window.*Save the text in a file/),
      );
      assert.equal(cli.api.messageRequests().length, 0);
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('a small one') });
      assert.deepEqual(userTexts(cli.api.messageRequests()[0]), ['a small one']);
    });
  }

  it('a prompt the API refuses as too long (the window set wider than the model\'s) fails alone: the next prompt runs without it, here and after a reload', async () => {
    cli.api.script(reply.text('Back to normal.'), reply.text('Still normal.'));
    const wide = { DELEGATE_CONTEXT_WINDOW: '4000000' };
    const client = await start({}, wide);
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text(`What went wrong?\n${HUGE}`) }), (err: { message?: string; data?: unknown }) =>
      /prompt is too long: \d+ tokens > 200000 maximum/.test(`${err.message} ${JSON.stringify(err.data)}`),
    );
    const refused = cli.api.messageRequests().length;
    assert.ok(refused >= 1);
    const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('and now?') });
    assert.equal(done.stopReason, 'end_turn');
    const next = must(cli.api.messageRequests()[refused]);
    assert.ok(JSON.stringify(next.body).length < 100_000, 'the refused text is not sent again');
    assert.match(userTexts(next).join('\n'), /the API refused it \(.*prompt is too long[\s\S]*and now\?$/);

    await client.close();
    const again = await start({}, wide);
    await again.agent.request(methods.agent.session.load, { sessionId, cwd: cli.dirs.workdir, mcpServers: [] });
    await again.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('after a reload?') });
    const last = must(cli.api.messageRequests().at(-1));
    assert.ok(JSON.stringify(last.body).length < 100_000, 'a reloaded session does not send it either');
    assert.match(userTexts(last).at(-1) ?? '', /after a reload\?$/);
  });
});
