// The registry's newer hook points as any handler sees them (the settings-file hooks are one client):
// ask and allow-with-input on PreToolUse, Stop for the root and for subagents, context after the prompt.
import assert from 'node:assert/strict';
import { runAgent } from '../../../src/core/loop/loop';
import type { AgentSpec } from '../../../src/core/loop/types';
import type { ToolRegistry } from '../../../src/core/tools/types';
import { ScriptedModel } from '../../kit/scripted-model';
import { makeRun, RecordingPolicy } from '../../kit/run-services';
import { isChild } from '../../kit/is-child';

const spec = (tools: ToolRegistry, extra: Partial<AgentSpec> = {}): AgentSpec => ({
  identity: { agentId: 'main', parentId: null, depth: 0 },
  systemPrompt: 'PARENT SYSTEM',
  history: [],
  prompt: 'do the job',
  tools,
  maxTurns: 10,
  ...extra,
});
const json = (v: unknown): string => JSON.stringify(v);
const go = (): AbortSignal => new AbortController().signal;

describe('hook points', () => {
  it('PreToolUse ask turns an allowed call into a question; a policy deny still wins over a hook allow', async () => {
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'a' } }, { name: 'bash', input: { command: 'rm -rf /' } }] })
      .script('default', (req) => {
        const text = json(req.messages.at(-1));
        assert.match(text, /Permission denied: no reader today/);
        assert.match(text, /Permission denied: never/);
        return { text: 'ok' };
      });
    const asked: string[] = [];
    const policy = new RecordingPolicy((req) => (req.toolName === 'bash' ? { behavior: 'deny', reason: 'never' } : { behavior: 'allow' }));
    const { ports, baseTools, hooks, events } = makeRun(model, {
      permissions: policy,
      approver: { ask: async (req, reason) => (asked.push(`${req.toolName}: ${reason}`), { decision: 'deny', reason: 'no reader today' }) },
    });
    hooks.on('PreToolUse', (ctx) => (ctx.toolName === 'read_file' ? { decision: 'ask', reason: 'a secret file' } : { decision: 'allow' }));
    await runAgent(spec(baseTools), ports, go());
    model.assertDone();
    assert.deepEqual(asked, ['read_file: a PreToolUse hook asks: a secret file']);
    assert.ok(events.some((e) => e.type === 'permission_asked' && e.name === 'read_file'));
  });

  it('allow with an input replaces the input and skips the question', async () => {
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: 'deploy' } }] }, { text: 'ok' });
    const policy = new RecordingPolicy(() => ({ behavior: 'ask', reason: 'bash asks' }));
    const { ports, baseTools, hooks } = makeRun(model, { permissions: policy });
    hooks.on('PreToolUse', () => ({ decision: 'allow', input: { command: 'deploy --dry-run' } }));
    await runAgent(spec(baseTools), ports, go());
    assert.match(json(model.requests[1]?.request.messages.at(-1)), /ran deploy --dry-run/);
    assert.equal(policy.checked[0]?.summary, '{"command":"deploy --dry-run"}', 'the policy judged the new input');
  });

  it('Stop runs for subagents too, which go on with the reason; a throwing Stop handler is an error event, not a reason', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'task', input: { prompt: 'check it' } }] }, { text: 'parent done' })
      .script('child', { text: 'child draft' }, (req) => {
        assert.match(json(req.messages.at(-1)), /Its reason:\\ncite a file/);
        return { text: 'child final, see a.ts' };
      });
    const { ports, baseTools, hooks, events } = makeRun(model);
    const seen: string[] = [];
    hooks.on('Stop', (ctx) => {
      seen.push(`${ctx.agent.agentId}:${ctx.continuations}:${ctx.result}`);
      return ctx.agent.parentId !== null && !ctx.result.includes('.ts') ? { continueWith: 'cite a file' } : undefined;
    });
    hooks.on('Stop', () => {
      throw new Error('audit service down');
    });
    const result = await runAgent(spec(baseTools), ports, go());
    model.assertDone();
    assert.equal(result.subagents[0]?.result, 'child final, see a.ts');
    assert.deepEqual(seen, ['sub1:0:child draft', 'sub1:1:child final, see a.ts', 'main:0:parent done']);
    const hookEvents = events.filter((e) => e.type === 'hook').map((e) => e.type === 'hook' && `${e.agentId} ${e.hookEvent} ${e.outcome}: ${e.message}`);
    assert.deepEqual(hookEvents, ['sub1 SubagentStop error: audit service down', 'sub1 SubagentStop continued: cite a file', 'sub1 SubagentStop error: audit service down', 'main Stop error: audit service down']);
  });

  it('context goes after the prompt in the first message; no context leaves the prompt a plain string', async () => {
    const model = new ScriptedModel().script('default', { text: 'a' }, { text: 'b' });
    const { ports, baseTools } = makeRun(model);
    await runAgent(spec(baseTools, { context: ['<ctx>one</ctx>'] }), ports, go());
    await runAgent(spec(baseTools), ports, go());
    assert.deepEqual(model.requests[0]?.request.messages[0]?.content, [
      { type: 'text', text: 'do the job' },
      { type: 'text', text: '<ctx>one</ctx>' },
    ]);
    assert.equal(model.requests[1]?.request.messages[0]?.content, 'do the job');
  });
});
