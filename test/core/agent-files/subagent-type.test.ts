// `task{subagent_type}` runs an agent definition: its prompt, tools, model, turn cap and a mode that may
// only narrow; an unknown type lists the valid ones; the events and the result name the agent.
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, ScriptedModel } from '../../kit/scripted-model';
import { must } from '../../kit/must';
import { isChild } from '../../kit/is-child';
import { tempDir } from '../../kit/temp-dirs';
import { testSession } from '../../kit/test-session';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
/** A session over a copy of fixtures/agent-repo, with fixtures/agent-home's agents. */
async function open(model: ScriptedModel, mode: 'default' | 'bypassPermissions' = 'bypassPermissions') {
  const workdir = tempDir('delegate-agents-ws-');
  cpSync(join(FIXTURES, 'agent-repo'), workdir, { recursive: true });
  return testSession({ workdir, model, modelId: 'claude-parent', mode }, { files: { agentFiles: { home: join(FIXTURES, 'agent-home'), includeProject: true } } });
}

describe('task: subagent_type', () => {
  it('runs code-reviewer with its own prompt, tools and model; the task tool lists the agents', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'Review src/a.ts', description: 'review', subagent_type: 'code-reviewer' } }] }, { text: 'reviewed' })
      .script('child', { text: 'LGTM' });
    const { session, events } = await open(model);
    const result = await session.run('review my change', new AbortController().signal);
    assert.equal(result.status, 'completed');
    const parentReq = must(model.requests[0]).request;
    const task = must(parentReq.tools.find((t) => t.name === 'task'));
    assert.match(task.description ?? '', /- code-reviewer: Expert code review specialist/);
    assert.match(task.description ?? '', /- Explore: /);
    assert.match(task.description ?? '', /- planner: /);
    const child = must(model.requests.find((r) => r.route === 'child')).request;
    assert.ok(child.system.startsWith('You are a senior code reviewer'), child.system.slice(0, 80));
    assert.match(child.system, /You are a subagent \("code-reviewer"\)/);
    assert.deepEqual(child.tools.map((t) => t.name), ['read_file', 'glob', 'grep'], 'Read, Grep, Glob');
    assert.equal(child.model, 'claude-sonnet-5-5');
    assert.equal(firstUserText(child), 'Review src/a.ts');
    const started = events.find((e) => e.type === 'agent_started' && e.parentId !== null);
    assert.equal(started?.type === 'agent_started' && started.agentType, 'code-reviewer');
    assert.equal(started?.type === 'agent_started' && started.color, 'blue');
    assert.deepEqual(result.subagents.map((s) => [s.agent_type, s.model]), [['code-reviewer', 'claude-sonnet-5-5']]);
    model.assertDone();
  });

  it('an unknown subagent_type is an error result listing the valid ones; Explore is read-only', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'x', subagent_type: 'nope' } }] })
      .script('default', (req) => ({ text: JSON.stringify(req.messages.at(-1)?.content), toolUses: [{ name: 'task', input: { prompt: 'look around', subagent_type: 'Explore' } }] }), { text: 'done' })
      .script('child', { text: 'explored' });
    const { session } = await open(model);
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.status, 'completed');
    const afterUnknown = JSON.stringify(must(model.requests[1]).request.messages.at(-1));
    assert.match(afterUnknown, /unknown subagent_type \\"nope\\"; the agent types are: general-purpose, Explore, /);
    const explore = must(model.requests.find((r) => r.route === 'child')).request;
    assert.deepEqual(explore.tools.map((t) => t.name), ['read_file', 'glob', 'grep'], 'read-only');
    assert.equal(explore.model, 'claude-parent', 'inherits the parent model');
  });

  it('an agent’s permissionMode narrows the session’s: plan refuses its bash under bypassPermissions', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'run the tests', subagent_type: 'test-runner' } }] }, { text: 'ok' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'touch made-by-child' } }] }, (req) => ({ text: JSON.stringify(req.messages.at(-1)?.content) }));
    const { session } = await open(model, 'bypassPermissions');
    const result = await session.run('test', new AbortController().signal);
    const child = result.subagents[0];
    assert.match(child?.result ?? '', /plan mode/);
    const req = must(model.requests.find((r) => r.route === 'child')).request;
    assert.deepEqual(req.tools.map((t) => t.name), ['bash', 'read_file']);
    model.assertDone();
  });

  it('reports agent files that could not be used as notices, once', async () => {
    const model = new ScriptedModel().script('default', { text: 'a' }, { text: 'b' });
    const { session, events } = await open(model);
    await session.run('one', new AbortController().signal);
    await session.run('two', new AbortController().signal);
    const notices = events.filter((e) => e.type === 'notice');
    assert.ok(notices.some((e) => e.type === 'notice' && e.level === 'warning' && /broken\.md:4$/.test(e.source ?? '') && /invalid YAML .*read line by line/.test(e.text)));
    assert.ok(notices.some((e) => e.type === 'notice' && /nameless\.md/.test(e.source ?? '') && /no `name`/.test(e.text)));
    const broken = notices.filter((e) => e.type === 'notice' && /broken\.md/.test(e.source ?? ''));
    assert.equal(broken.length, 1, 'reported once, not per prompt');
  });
  it('an agent on another model compacts against that model’s window, when the model port knows it', async () => {
    // code-reviewer runs on claude-sonnet-5-5; this port says that model holds 3,000 tokens (as an editor's
    // small model would), while the session's model keeps its 200k.
    class SmallReviewerModel extends ScriptedModel {
      async contextWindow(id: string): Promise<number | undefined> {
        return id === 'claude-sonnet-5-5' ? 3_000 : undefined;
      }
    }
    const model = new SmallReviewerModel((r) => (r.system.startsWith('You summarize') ? 'summary' : isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'Review big.txt', description: 'review', subagent_type: 'code-reviewer' } }] }, { text: 'reviewed' })
      // Four reads of ~2,500 tokens each: the oldest is past the three turns compaction keeps.
      .script('child', ...[1, 2, 3, 4].map((n) => ({ toolUses: [{ name: 'read_file', input: { path: `big-${n}.txt` } }] })), { text: 'LGTM' })
      .script('summary', { text: 'SUMMARY: read four parts.' });
    const { session, events, workdir } = await open(model);
    for (const n of [1, 2, 3, 4]) writeFileSync(join(workdir, `big-${n}.txt`), `part ${n}: lorem ipsum dolor sit amet\n`.repeat(320));
    const result = await session.run('review big.txt', new AbortController().signal);
    assert.equal(result.status, 'completed', result.error);
    const compacted = events.filter((e) => e.type === 'compacted');
    assert.equal(compacted.length, 1);
    assert.notEqual(compacted[0]?.agentId, 'main', 'the child compacted, on its own model’s window');
    model.assertDone();
  });
});
