import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runAgent } from '../../../src/core/loop/loop';
import type { AgentSpec } from '../../../src/core/loop/types';
import { ScriptedModel, firstUserText } from '../../kit/scripted-model';
import { ModelError, type ModelRequest } from '../../../src/core/llm/types';
import { ToolRegistry } from '../../../src/core/tools/types';
import { fakeTool, makeRun, RecordingPolicy } from '../../kit/run-services';
import { isChild } from '../../kit/is-child';

const rootSpec = (tools: ToolRegistry, prompt = 'do the job', maxTurns = 10): AgentSpec => ({
  identity: { agentId: 'main', parentId: null, depth: 0 },
  systemPrompt: 'PARENT SYSTEM',
  history: [],
  prompt,
  tools,
  maxTurns,
});

const json = (value: unknown): string => JSON.stringify(value);

describe('agent loop', () => {
  it('answers without tools: completed, final text, usage counted', async () => {
    const model = new ScriptedModel().script('default', { text: 'all done', usage: { input_tokens: 7, output_tokens: 3 } });
    const { ports, baseTools, events } = makeRun(model);
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'completed');
    assert.equal(result.result, 'all done');
    assert.equal(result.turns, 1);
    assert.equal(result.usage.input_tokens, 7);
    assert.deepEqual(
      events.map((e) => e.type),
      ['agent_started', 'message', 'turn_started', 'text_delta', 'usage', 'message', 'agent_finished'],
    );
    assert.ok(events.every((e, i) => e.seq === i + 1), 'sequence numbers are consecutive');
  });

  it('a subagent starts from exactly one user message, without the task tool, and only its final text returns', async () => {
    const CANARY = 'CANARY-7f3a-only-the-child-reads-this';
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ id: 'toolu_task1', name: 'task', input: { prompt: 'find the secret', description: 'find secret' } }] })
      .script('parent', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const block = last.content[0];
        assert.ok(block && block.type === 'tool_result' && block.tool_use_id === 'toolu_task1');
        assert.equal(block.content, 'The secret is in secret.txt.');
        return { text: 'parent done' };
      })
      .script('child', { toolUses: [{ name: 'read_file', input: { path: 'secret.txt' } }] })
      .script('child', { text: 'The secret is in secret.txt.' });
    const base = new ToolRegistry([fakeTool('read_file', 'read', () => CANARY)]);
    const { ports, baseTools } = makeRun(model, { baseTools: base });
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'completed');

    const childRequests = model.requests.filter((r) => r.route === 'child').map((r) => r.request);
    const first = childRequests[0];
    assert.ok(first);
    assert.equal(first.messages.length, 1);
    assert.deepEqual(first.messages[0], { role: 'user', content: 'find the secret' });
    assert.deepEqual(first.tools.map((t) => t.name), ['read_file']);
    assert.match(first.system, /Conclusion/);

    const parentRequests = model.requests.filter((r) => r.route === 'parent').map((r) => r.request);
    // task_output comes with a subagent it can check on (issue 30): a foreground task without a directory gives none.
    assert.deepEqual(parentRequests[0]?.tools.map((t) => t.name), ['read_file', 'task']);
    assert.deepEqual(parentRequests[1]?.tools.map((t) => t.name), ['read_file', 'task']);
    for (const req of parentRequests) assert.ok(!json(req).includes(CANARY), 'the canary never reaches a parent request');
    assert.ok(json(childRequests[1]).includes(CANARY), 'the child did see it');
    assert.ok(!json(result.messages).includes(CANARY));
    assert.equal(result.subagents.length, 1);
    assert.equal(result.subagents[0]?.description, 'find secret');
  });

  it('runs several task calls together and returns results in tool_use order', async () => {
    const started: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const childStep = (name: string, delayMs: number) => (req: ModelRequest) => {
      started.push(name);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => inFlight--, delayMs);
      assert.ok(firstUserText(req).includes(name));
      return { text: `report ${name}`, delayMs };
    };
    const model = new ScriptedModel((req) => (isChild(req) ? firstUserText(req) : 'parent'))
      .script('parent', {
        toolUses: [
          { id: 'toolu_a', name: 'task', input: { prompt: 'job A' } },
          { id: 'toolu_r', name: 'read_file', input: { path: 'x' } },
          { id: 'toolu_b', name: 'task', input: { prompt: 'job B' } },
          { id: 'toolu_c', name: 'task', input: { prompt: 'job C' } },
        ],
      })
      .script('parent', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const ids = last.content.map((b) => (b.type === 'tool_result' ? b.tool_use_id : b.type));
        assert.deepEqual(ids, ['toolu_a', 'toolu_r', 'toolu_b', 'toolu_c']);
        const texts = last.content.map((b) => (b.type === 'tool_result' ? b.content : ''));
        assert.deepEqual(texts, ['report job A', 'contents of x', 'report job B', 'report job C']);
        return { text: 'merged' };
      })
      .script('job A', childStep('job A', 120))
      .script('job B', childStep('job B', 30))
      .script('job C', childStep('job C', 60));
    const { ports, baseTools, events } = makeRun(model);
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.result, 'merged');
    assert.equal(maxInFlight, 3, 'all three children were in flight at once');
    assert.equal(started.length, 3);
    const childStarts = events.filter((e) => e.type === 'agent_started' && e.parentId === 'main');
    assert.equal(childStarts.length, 3);
    assert.deepEqual(result.subagents.map((s) => s.description).sort(), ['job A', 'job B', 'job C']);
  });

  it('caps concurrent children at maxParallel', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const step = () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => inFlight--, 40);
      return { text: 'ok', delayMs: 40 };
    };
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [1, 2, 3, 4, 5].map((i) => ({ name: 'task', input: { prompt: `job ${i}` } })) })
      .script('parent', { text: 'done' })
      .script('child', step, step, step, step, step);
    const { ports, baseTools } = makeRun(model, { limits: { maxParallel: 2 } });
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(maxInFlight, 2);
  });

  it('at the turn cap asks once more with tool_choice none and marks the result max_turns', async () => {
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'a' } }] })
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'b' } }] })
      .script('default', (req) => {
        assert.equal(req.toolChoice, 'none');
        assert.deepEqual(req.tools.map((t) => t.name), ['read_file', 'bash', 'task'], 'tools are kept');
        assert.match(json(req.messages.at(-1)), /turn limit/);
        return { text: 'partial answer' };
      });
    const { ports, baseTools, events } = makeRun(model);
    const result = await runAgent(rootSpec(baseTools, 'go', 2), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'max_turns');
    assert.equal(result.result, 'partial answer');
    assert.equal(result.turns, 3);
    assert.ok(events.some((e) => e.type === 'turn_started' && e.forcedFinal));
  });

  it('drops tool calls the model still makes on the forced final turn, so the kept conversation stays valid', async () => {
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'a' } }] })
      .script('default', { text: 'stopping here', toolUses: [{ name: 'read_file', input: { path: 'b' } }] });
    const { ports, baseTools } = makeRun(model);
    const result = await runAgent(rootSpec(baseTools, 'go', 1), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'max_turns');
    assert.equal(result.result, 'stopping here');
    const last = result.messages.at(-1);
    assert.ok(last && last.role === 'assistant' && Array.isArray(last.content));
    assert.deepEqual(last.content.map((b) => b.type), ['text']);
  });

  it('does not run the third identical consecutive call and tells the model to stop', async () => {
    let runs = 0;
    const base = new ToolRegistry([fakeTool('bash', 'exec', () => `run ${++runs}`)]);
    const same = { name: 'bash', input: { command: 'ls', timeout: 5 } };
    const reordered = { name: 'bash', input: { timeout: 5, command: 'ls' } };
    const model = new ScriptedModel()
      .script('default', { toolUses: [same] }, { toolUses: [reordered] }, { toolUses: [same] })
      .script('default', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const block = last.content[0];
        assert.ok(block && block.type === 'tool_result');
        assert.equal(block.is_error, true);
        assert.match(String(block.content), /Stop repeating/);
        return { toolUses: [same] };
      })
      .script('default', { text: 'ok, stopping' });
    const { ports, baseTools } = makeRun(model, { baseTools: base });
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(runs, 2, 'only the first two identical calls ran');
    assert.equal(result.status, 'completed');
  });

  it('does not run a tool call cut off by max_tokens', async () => {
    let runs = 0;
    const base = new ToolRegistry([fakeTool('bash', 'exec', () => `run ${++runs}`)]);
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'bash', input: { command: 'ls' } }, { name: 'bash', input: { command: 'rm -rf bu' } }], stopReason: 'max_tokens' })
      .script('default', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const [first, second] = last.content;
        assert.ok(first?.type === 'tool_result' && !first.is_error);
        assert.ok(second?.type === 'tool_result' && second.is_error === true);
        assert.match(String(second.content), /output token limit/);
        return { text: 'ok' };
      });
    const { ports, baseTools } = makeRun(model, { baseTools: base });
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(runs, 1);
  });

  it('gives a subagent the task tool only below maxDepth', async () => {
    const model = new ScriptedModel((req) => (req.system === 'PARENT SYSTEM' ? 'parent' : firstUserText(req)))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'level1' } }] }, { text: 'top done' })
      .script('level1', (req) => {
        assert.deepEqual(req.tools.map((t) => t.name), ['read_file', 'bash', 'task']);
        return { toolUses: [{ name: 'task', input: { prompt: 'level2' } }] };
      }, { text: 'l1 done' })
      .script('level2', (req) => {
        assert.deepEqual(req.tools.map((t) => t.name), ['read_file', 'bash']);
        return { text: 'l2 done' };
      });
    const { ports, baseTools, events } = makeRun(model, { limits: { maxDepth: 2 } });
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    const l2 = events.find((e) => e.type === 'agent_started' && e.depth === 2);
    assert.ok(l2 && l2.parentId === 'sub1', 'the grandchild names its parent');
    assert.equal(result.subagents.length, 2);
  });

  it('turns unknown tools, malformed input and thrown tools into is_error results', async () => {
    const base = new ToolRegistry([
      fakeTool('read_file', 'read', () => {
        throw new Error('disk on fire');
      }),
    ]);
    const model = new ScriptedModel()
      .script('default', {
        toolUses: [
          { id: 'toolu_1', name: 'nope', input: {} },
          { id: 'toolu_2', name: 'read_file', input: 'not an object' },
          { id: 'toolu_3', name: 'read_file', input: { path: 'a' } },
          { id: 'toolu_4', name: 'task', input: { description: 'no prompt' } },
        ],
      })
      .script('default', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const results = last.content.map((b) => (b.type === 'tool_result' ? [b.is_error, String(b.content)] : []));
        assert.deepEqual(results.map((r) => r[0]), [true, true, true, true]);
        assert.match(String(results[0]?.[1]), /Unknown tool "nope"/);
        assert.match(String(results[1]?.[1]), /Invalid input for read_file/);
        assert.match(String(results[2]?.[1]), /disk on fire/);
        assert.match(String(results[3]?.[1]), /"prompt" must be a non-empty string/);
        return { text: 'handled' };
      });
    const { ports, baseTools } = makeRun(model, { baseTools: base });
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'completed');
  });

  it('cuts a 300 KB output with a marker naming the saved full output', async () => {
    const big = 'x'.repeat(150_000) + 'MIDDLE' + 'y'.repeat(150_000) + 'END';
    const base = new ToolRegistry([fakeTool('bash', 'exec', () => big)]);
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ id: 'toolu_big', name: 'bash', input: { command: 'big' } }] })
      .script('default', (req) => {
        const last = req.messages.at(-1);
        assert.ok(last && Array.isArray(last.content));
        const block = last.content[0];
        assert.ok(block && block.type === 'tool_result');
        const text = String(block.content);
        assert.ok(text.length < 51_000, `cut to the limit (got ${text.length})`);
        assert.match(text, /250,003 of 300,009 characters cut here/);
        assert.ok(text.endsWith('END'));
        return { text: 'seen' };
      });
    const { ports, baseTools, events } = makeRun(model, { baseTools: base });
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    const finished = events.find((e) => e.type === 'tool_call' && e.state === 'completed');
    assert.ok(finished && finished.type === 'tool_call' && finished.state === 'completed' && finished.fullOutputPath);
    assert.equal(readFileSync(finished.fullOutputPath, 'utf8'), big, 'nothing is lost');
  });

  it('shares one hook registry and policy with subagents, with agent and parent ids', async () => {
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'try bash', description: 'bash try' } }] }, { text: 'done' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'rm -rf build' } }] }, (req) => {
        assert.match(json(req.messages.at(-1)), /Denied by a PreToolUse hook: no rm in children/);
        return { text: 'could not' };
      });
    const { ports, baseTools, hooks, events } = makeRun(model);
    const seen: string[] = [];
    hooks.on('PreToolUse', (ctx) => {
      seen.push(`${ctx.agent.agentId}<${ctx.agent.parentId}:${ctx.toolName}`);
      if (ctx.agent.depth > 0 && ctx.toolName === 'bash') return { decision: 'deny', reason: 'no rm in children' };
    });
    hooks.on('SubagentStart', (ctx) => {
      seen.push(`start ${ctx.agent.agentId} ${ctx.agent.description}`);
    });
    hooks.on('SubagentStop', (ctx) => {
      seen.push(`stop ${ctx.agent.agentId} ${ctx.status}`);
    });
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.deepEqual(seen, ['main<null:task', 'start sub1 bash try', 'sub1<main:bash', 'stop sub1 completed']);
    const childTool = events.find((e) => e.type === 'tool_call' && (e.state === 'completed' || e.state === 'error') && e.agentId === 'sub1');
    assert.ok(childTool && childTool.parentId === 'main' && childTool.type === 'tool_call' && childTool.state === 'error');
  });

  it('lets PreToolUse replace the input and PostToolUse replace the output, for children too', async () => {
    const ran: string[] = [];
    const base = new ToolRegistry([fakeTool('bash', 'exec', (i) => (ran.push(String(i.command)), `ran ${String(i.command)}`))]);
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'list' } }] }, { text: 'done' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'ls -R /' } }] }, (req) => {
        assert.match(json(req.messages.at(-1)), /\[redacted by hook\]/);
        return { text: 'listed' };
      });
    const { ports, baseTools, hooks } = makeRun(model, { baseTools: base });
    hooks.on('PreToolUse', (ctx) => (ctx.toolName === 'bash' ? { decision: 'replace', input: { command: 'ls' } } : undefined));
    hooks.on('PostToolUse', (ctx) => (ctx.toolName === 'bash' ? { output: { content: '[redacted by hook]' } } : undefined));
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.deepEqual(ran, ['ls'], 'the replaced input ran, not the original');
  });

  it('asks the approver when the policy says ask; a denial becomes an error result', async () => {
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'write', description: 'writer' } }] }, { text: 'done' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'touch x' } }] }, (req) => {
        assert.match(json(req.messages.at(-1)), /Permission denied: not today/);
        return { text: 'denied' };
      });
    const asked: string[] = [];
    const { ports, baseTools, events } = makeRun(model, {
      permissions: new RecordingPolicy((req) => (req.kind === 'exec' ? { behavior: 'ask', reason: 'bash needs approval' } : { behavior: 'allow' })),
      approver: {
        ask: async (req) => {
          asked.push(`${req.agent.agentId}:${req.agent.description}:${req.summary}`);
          return { decision: 'deny', reason: 'not today' };
        },
      },
    });
    await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.deepEqual(asked, ['sub1:writer:{"command":"touch x"}']);
    assert.deepEqual(
      events.filter((e) => e.type.startsWith('permission_')).map((e) => `${e.type}@${e.agentId}`),
      ['permission_asked@sub1', 'permission_answered@sub1'],
    );
  });

  it('rolls usage up from children and reports a child failure to the parent as an error result', async () => {
    const model = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'fail' } }], usage: { input_tokens: 100, output_tokens: 10 } })
      .script('parent', (req) => {
        assert.match(json(req.messages.at(-1)), /The subagent failed: boom/);
        return { text: 'noted', usage: { input_tokens: 100, output_tokens: 10 } };
      })
      .script('child', { error: new ModelError('boom', 'api', 500) });
    const { ports, baseTools } = makeRun(model);
    const result = await runAgent(rootSpec(baseTools), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'completed');
    assert.equal(result.subagents[0]?.status, 'error');
    assert.equal(result.usage.input_tokens, 200);
  });

  it('ends with error on a fatal model error, and cancelled when aborted (children too)', async () => {
    const fatal = new ScriptedModel().script('default', { error: new ModelError('authentication failed (401)', 'auth', 401) });
    const a = makeRun(fatal);
    const failed = await runAgent(rootSpec(a.baseTools), a.ports, new AbortController().signal);
    assert.equal(failed.status, 'error');
    assert.equal(failed.error, 'authentication failed (401)');

    const controller = new AbortController();
    const slow = new ScriptedModel((req) => (isChild(req) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'slow' } }] })
      .script('child', () => {
        setTimeout(() => controller.abort(), 20);
        return { text: 'never', delayMs: 5_000 };
      });
    const b = makeRun(slow);
    const t0 = Date.now();
    const cancelled = await runAgent(rootSpec(b.baseTools), b.ports, controller.signal);
    assert.ok(Date.now() - t0 < 2_000, 'cancel is prompt');
    assert.equal(cancelled.status, 'cancelled');
    const childFinish = b.events.find((e) => e.type === 'agent_finished' && e.agentId === 'sub1');
    assert.ok(childFinish && childFinish.type === 'agent_finished' && childFinish.status === 'cancelled');
  });
});
