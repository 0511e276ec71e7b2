/**
 * An isolated subagent's work reaches an ACP client (the SDK's client app over the BUILT CLI's stdio): where its
 * changes wait and how to land them, under its `task` call and as a notice; a landing (`delegate land`) as a notice
 * when the session is loaded again.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ContentBlock, type ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { acpClients, updatesOf, type AcpClient } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
const contentTexts = (content: ToolCallContent[] | null | undefined): string =>
  (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');

describe('delegate acp: isolated subagents (worktree_kept, changes_landed)', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const started = acpClients(() => cli.env());
  const start = (): Promise<AcpClient> => started({ capabilities: { session: { notices: {} } }, permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });

  it("the task call and a notice say where the child's changes wait and how to land them; a later landing is a notice on load", async () => {
    const { workdir } = cli.dirs;
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: workdir, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(workdir, 'app.txt'), 'one\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'iso job', prompt: 'CHILD-I: edit', isolation: 'worktree' } }), reply.text('done')] },
      { name: 'I', match: isChild, replies: [reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }), reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content: 'ONE\n' } }), reply.text('edited')] },
    ]);
    const client = await start();
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('edit it in a worktree') });
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'one\n', 'not landed yet');
    const task = must(updatesOf(client, sessionId, 'tool_call').find((t) => t.title === 'Delegate: iso job'));
    const last = must(updatesOf(client, sessionId, 'tool_call_update').filter((u) => u.toolCallId === task.toolCallId && u.content).at(-1));
    const shown = contentTexts(last.content);
    const land = new RegExp(`Isolated subagent ([0-9a-f]{8})'s changes \\(M app\\.txt\\) are kept on branch delegate/${sessionId.slice(0, 8)}/\\1, not in your folder\\. Land them: ask the agent to use its land tool, or run \`delegate land --session ${sessionId} --agent \\1\``);
    assert.match(shown, land, shown);
    const notices = updatesOf(client, sessionId, 'notice');
    assert.ok(notices.some((n) => n.severity === 'info' && land.test(n.title)), JSON.stringify(notices));

    // The user lands it from the shell; the editor loads the session again: the landing is a notice.
    await client.close();
    const landed = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(landed.code, 0, landed.stderr);
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'ONE\n');
    const again = await start();
    await again.agent.request(methods.agent.session.load, { sessionId, cwd: workdir, mcpServers: [] });
    const replayed = updatesOf(again, sessionId, 'notice');
    assert.ok(replayed.some((n) => n.severity === 'info' && /^Subagents' changes landed: [0-9a-f]{8} landed \(app\.txt\)\.$/.test(n.title)), JSON.stringify(replayed));
  });
});
