/**
 * A resumed subagent keeps the mode it ran under (issue 24 §6, the delegation gaps): a grandchild inherits the
 * stricter mode of its parent (an agent file's `permissionMode: plan`); when the user messages it directly
 * (`--resume S --agent ID`) — with the session's own mode loosened meanwhile — it still runs in plan mode: its write
 * is refused and nothing is written. Its tools are the ones it first ran with, whatever its agent file says now.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentText, firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const startsWith = (prefix: string) => (r: RecordedRequest): boolean => isChild(r) && firstUserText(r).startsWith(prefix);

describe('delegate CLI: a resumed subagent keeps its inherited mode and its tools', function () {
  this.timeout(40_000);
  const cli = cliSuite();

  /** A first run: the parent starts `planner` (permissionMode: plan), which starts a grandchild; its session and the grandchild's id. */
  async function plannerRun(): Promise<{ session: string; grand: string }> {
    const agents = join(cli.dirs.workdir, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'planner.md'), '---\nname: planner\ndescription: Plans, never edits.\npermissionMode: plan\n---\nPLANNER-BODY: you plan.\n');
    cli.api.route([
      {
        name: 'grandchild',
        match: startsWith('GRAND'),
        replies: [reply.text('GRAND-1: looked around'), reply.toolUse({ name: 'write_file', input: { path: 'out.txt', content: 'written\n' } }), reply.text('GRAND-2: done')],
      },
      { name: 'planner', match: startsWith('PLANNER'), replies: [reply.toolUse({ name: 'task', input: { prompt: 'GRAND look around', description: 'grand' } }), reply.text('PLANNER: planned')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'PLANNER plan it', description: 'plan', subagent_type: 'planner' } }), reply.text('ok')] },
    ]);
    const first = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--max-depth', '2'], { env: cli.env() });
    assert.equal(first.code, 0, first.stderr);
    const out = lastJsonLine(first.stdout);
    const grand = (out.subagents as Record<string, unknown>[]).find((s) => s.description === 'grand');
    return { session: String(out.session_id), grand: String(must(grand).id) };
  }

  /** The user messages the grandchild, the session now in bypassPermissions: its write must be refused as plan mode's. */
  async function assertResumedInPlan(session: string, grand: string): Promise<void> {
    const again = await runDelegate(['-p', 'USER: now write out.txt', '--cwd', cli.dirs.workdir, '--resume', session, '--agent', grand, '--permission-mode', 'bypassPermissions', '--max-depth', '2'], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(existsSync(join(cli.dirs.workdir, 'out.txt')), false, 'the grandchild wrote in plan mode');
    const grands = cli.api.messageRequests().filter(startsWith('GRAND'));
    assert.equal(grands.length, 3);
    const refused = lastToolResults(must(grands[2]));
    assert.equal(refused[0]?.is_error, true);
    assert.match(contentText(refused[0]?.content as never), /plan mode/);
    cli.api.assertAllConsumed();
  }

  it('--resume S --agent GRANDCHILD: the plan mode it inherited from its parent\'s agent file holds, the session\'s bypassPermissions notwithstanding', async () => {
    const { session, grand } = await plannerRun();
    await assertResumedInPlan(session, grand);
  });

  it('a transcript from before the mode was recorded: the resume rebuilds it from the ancestors\' agent files (never looser)', async () => {
    const { session, grand } = await plannerRun();
    let stripped = 0;
    for (const file of readdirSync(cli.dirs.dataHome, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'))) {
      const path = join(cli.dirs.dataHome, file);
      const text = readFileSync(path, 'utf8');
      const old = text.replaceAll(',"mode":"plan"', '');
      if (old === text) continue;
      stripped++;
      writeFileSync(path, old);
    }
    assert.ok(stripped > 0, 'the transcript recorded the mode');
    await assertResumedInPlan(session, grand);
  });

  it('--resume S --agent ID: the child has the tools it first ran with, though its agent file now grants every tool', async () => {
    const agents = join(cli.dirs.workdir, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'reader.md'), '---\nname: reader\ndescription: Reads.\ntools: read_file, grep\n---\nREADER-BODY\n');
    cli.api.route([
      { name: 'child', match: startsWith('CHILD'), replies: [reply.text('CHILD-1: read it'), reply.text('CHILD-2: read again')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD read', description: 'read', subagent_type: 'reader' } }), reply.text('ok')] },
    ]);
    const first = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(first.code, 0, first.stderr);
    const out = lastJsonLine(first.stdout);
    const id = String((out.subagents as Record<string, unknown>[])[0]?.id);
    writeFileSync(join(agents, 'reader.md'), '---\nname: reader\ndescription: Reads.\n---\nREADER-BODY\n');
    const again = await runDelegate(['-p', 'USER: again', '--cwd', cli.dirs.workdir, '--resume', String(out.session_id), '--agent', id], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    const names = (r: RecordedRequest | undefined): string[] => ((must(r).body.tools ?? []) as { name: string }[]).map((t) => t.name).sort();
    const children = cli.api.messageRequests().filter(startsWith('CHILD'));
    assert.deepEqual(names(children[0]), ['grep', 'read_file']);
    assert.deepEqual(names(children[1]), ['grep', 'read_file']);
    cli.api.assertAllConsumed();
  });
});
