/**
 * A fork inherits its parent's active skills, through the built CLI: the parent loads a skill whose allowed-tools
 * pre-approve bash (github/awesome-copilot's git-commit, unchanged, in a trusted folder), then forks; the fork's bash
 * runs without a question (headless, a question is a refusal), its copied conversation holds the skill's body once
 * (not loaded again), and a fresh subagent of the same parent is still asked (docs/skills.md).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const GIT_COMMIT = join(__dirname, '..', 'fixtures', 'skill-collections', 'awesome-copilot', 'git-commit');

/** A fork's requests: its last message holds the fork's directive (it shares its parent's system prompt). */
const isFork = (req: RecordedRequest): boolean => JSON.stringify(req.body.messages ?? []).includes('You are a fork: a copy of the agent');
const resultText = (req: RecordedRequest | undefined): string => {
  const content = lastToolResults(must(req))[0]?.content as string | Parameters<typeof contentText>[0];
  return typeof content === 'string' ? content : contentText(content);
};

describe('delegate CLI: a fork inherits its parent\'s active skills', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'delegate-fork-skills-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('the parent loads git-commit (allowed-tools: Bash) and forks: the fork runs bash unasked, the body is in its context once; a fresh child is still asked', async () => {
    cpSync(GIT_COMMIT, join(cli.dirs.workdir, '.claude', 'skills', 'git-commit'), { recursive: true });
    cli.api.route([
      { name: 'fork', match: isFork, replies: [reply.toolUse([{ name: 'bash', input: { command: 'echo FORK-RAN' } }]), reply.text('fork done')] },
      { name: 'child', match: isChild, replies: [reply.toolUse([{ name: 'bash', input: { command: 'echo CHILD-RAN' } }]), reply.text('child done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([{ name: 'skill', input: { name: 'git-commit' } }]),
          reply.toolUse([{ name: 'task', input: { prompt: 'Commit what is staged.', description: 'forked commit', fork: true } }]),
          reply.toolUse([{ name: 'task', input: { prompt: 'Run echo.', description: 'fresh child' } }]),
          reply.text('done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'off', '--trust-folder'], { env: cli.env({ HOME: home }) });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const fork = cli.api.messageRequests().filter(isFork);
    assert.equal(fork.length, 2);
    const copied = JSON.stringify(must(fork[0]).body.messages);
    assert.equal(copied.split('<skill_content name=\\"git-commit\\"').length - 1, 1, 'the body is in the copied conversation, once');
    assert.doesNotMatch(resultText(fork[1]), /Permission denied/);
    assert.match(resultText(fork[1]), /^FORK-RAN$/m, "the parent's skill pre-approves bash in its fork");
    const child = cli.api.messageRequests().filter((r) => isChild(r) && !isFork(r));
    assert.match(resultText(child[1]), /^Permission denied: bash wants to run: echo CHILD-RAN/, 'a fresh subagent does not inherit it');
  });
});
