/**
 * Delegate on a VS Code language model, in the real editor: the test-only extension (test/vscode-lm/)
 * registers models through vscode.lm.registerLanguageModelChatProvider, answered by an LmScript in this
 * process; Delegate reaches them through vscode.lm (src/vscode/lm-model.ts) with delegate.provider = vscode.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FORCE_FINAL_NOTE } from '../../src/core/loop/prompts';
import type { DelegateApi } from '../../src/vscode/extension';
import type { CannotRun } from '../../src/vscode/model-setup';
import { problemBrief, setupButtons } from '../../src/view-model/setup-problem';
import { must } from '../kit/must';
import { createLmModel } from '../../src/vscode/lm-model';
import type { TaskNode, ViewNode } from '../../src/view-model/session-view';
import { allTasks } from '../../src/view-model/session-view';
import { isChildRequest, lastResults, LmScript, lmReply, promptOf, TEST_LM_EXTENSION, TEST_LM_VENDOR, TEST_MODELS, wholeLmRequest, type LmRecorded, type TestLmApi } from '../fixtures/lm-script';
import { testSession } from '../kit/test-session';
import { waitUntil } from '../kit/wait';

const EXTENSION_ID = 'delegate-dev.delegate';
const MODEL_KEY = `${TEST_LM_VENDOR}/${TEST_MODELS.tools}`;

describe('Delegate on a VS Code language model (vscode.lm)', () => {
  let api: DelegateApi;
  let testLm: TestLmApi;
  let script: LmScript;
  let workdir: string;
  let since = 0;
  const requests = (): LmRecorded[] => script.requests.slice(since);
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('delegate');
  const notices = (): string[] => Object.values(api.controller.snapshot().state.nodes).flatMap((n: ViewNode) => (n.kind === 'notice' ? [n.text] : []));

  before(async () => {
    api = (await vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID)?.activate()) as DelegateApi;
    const lmExtension = vscode.extensions.getExtension<TestLmApi>(TEST_LM_EXTENSION);
    assert.ok(lmExtension, `${TEST_LM_EXTENSION} is loaded beside Delegate`);
    testLm = await lmExtension.activate();
    script = new LmScript();
    testLm.setResponder((req) => script.respond(req));
    workdir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    // An API key is set for the other suites: `vscode` wins over it.
    await config().update('provider', 'vscode', vscode.ConfigurationTarget.Global);
    await config().update('vscodeModel', { vendor: TEST_LM_VENDOR, id: TEST_MODELS.tools }, vscode.ConfigurationTarget.Global);
    await config().update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('provider', undefined, vscode.ConfigurationTarget.Global);
    await config().update('vscodeModel', undefined, vscode.ConfigurationTarget.Global);
    await config().update('subagentMaxTurns', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workdir, '.claude'), { recursive: true, force: true });
  });

  beforeEach(() => {
    api.controller.newSession();
    since = script.requests.length;
  });

  it('lists the editor\'s models, the test provider\'s among them, with their limits', async () => {
    const models = await api.controller.models.catalog.models();
    const ours = models.filter((m) => m.vendor === TEST_LM_VENDOR).map((m) => `${m.id}:${m.maxInputTokens}`);
    assert.deepEqual(ours.sort(), ['script-no-tools:8000', 'script-other:50000', 'script-tools:120000']);
  });

  it('first run: no key and delegate.provider anthropic stops before the run, offering the editor\'s models; auto without a key runs on one', async () => {
    const envKey = process.env.ANTHROPIC_API_KEY;
    Reflect.deleteProperty(process.env, 'ANTHROPIC_API_KEY');
    await vscode.commands.executeCommand('delegate.setApiKey', '');
    const seen: CannotRun[] = [];
    const refused = api.controller.onCannotRun((r) => seen.push(r));
    try {
      const changed = new Promise<void>((resolve) => api.controller.setup.onDidChange(() => resolve()));
      await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
      await changed;
      const problem = await api.controller.setup.problem();
      assert.equal(problem?.kind, 'key');
      assert.equal(problem.editorModels, (await api.controller.models.catalog.models()).length);
      assert.deepEqual(setupButtons(problem).map((b) => b.label), ['Set API Key', 'Use an editor model…'], 'the editor has models: they are offered');
      assert.equal(await api.controller.ask('hello there'), undefined, 'nothing ran');
      assert.deepEqual(seen.map((r) => [r.problem.kind, r.prompt]), [['key', 'hello there']], 'said once, with the prompt to put back');
      assert.equal(requests().length, 0);

      // auto, no key: the editor's first model that can call tools, no problem to show.
      await config().update('provider', undefined, vscode.ConfigurationTarget.Global);
      await config().update('vscodeModel', undefined, vscode.ConfigurationTarget.Global);
      assert.equal(await api.controller.setup.problem(), undefined);
      const route = await api.controller.models.route();
      assert.ok('model' in route && route.model.vendor === TEST_LM_VENDOR && route.model.id !== TEST_MODELS.noTools, 'a model that can call tools');
    } finally {
      refused.dispose();
      if (envKey !== undefined) process.env.ANTHROPIC_API_KEY = envKey;
      await config().update('provider', 'vscode', vscode.ConfigurationTarget.Global);
      await config().update('vscodeModel', { vendor: TEST_LM_VENDOR, id: TEST_MODELS.tools }, vscode.ConfigurationTarget.Global);
    }
  });

  it('a prompt too big for the model\'s window, or a blank one, is refused before anything is sent: said under the box with the text kept there, and the next prompt runs', async () => {
    const seen: CannotRun[] = [];
    const refused = api.controller.onCannotRun((r) => seen.push(r));
    try {
      const huge = `Why?\n${'a line of a log pasted whole into the prompt box\n'.repeat(10_000)}`;
      assert.equal(await api.controller.ask(huge), undefined, 'nothing ran');
      assert.equal(await api.controller.ask('   '), undefined, 'a blank prompt never starts either');
      assert.deepEqual(seen.map((r) => [r.problem.kind, r.prompt === huge]), [['prompt', true]], 'said once, with the text to put back');
      const problem = must(seen[0]).problem;
      assert.match(problem.message, /^the prompt is too long for the model's context window: about [\d,]+ tokens/);
      assert.equal(problemBrief(problem), "The prompt is too long for the model's window.");
      assert.deepEqual(setupButtons(problem), [], 'nothing to set up');
      assert.equal(requests().length, 0);
      script.route([{ name: 'parent', match: () => true, replies: [lmReply.text('Small prompts are fine.')] }]);
      assert.equal((await api.controller.ask('and a small one?'))?.status, 'completed');
      assert.equal(requests().length, 1);
      assert.ok(!JSON.stringify(must(requests()[0]).request).includes('a line of a log'), 'the refused text is not in the conversation');
    } finally {
      refused.dispose();
    }
  });

  it('runs a delegation through it: the child\'s calls in the tree, the parent\'s requests free of the child\'s context', async () => {
    const CANARY = 'CANARY-lm-3e91';
    writeFileSync(join(workdir, 'lm-notes.md'), `the secret is ${CANARY}\n`);
    script.route([
      { name: 'child', match: isChildRequest, replies: [lmReply.toolUse({ name: 'read_file', input: { path: 'lm-notes.md' } }), lmReply.text('The notes hold a secret marker.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [lmReply.toolUse({ name: 'task', input: { description: 'read the notes', prompt: 'Read lm-notes.md and report.' } }, 'Let me delegate.'), lmReply.text('Done: the notes hold a secret.')],
      },
    ]);
    const result = await api.controller.ask('What do the notes say?');
    script.assertAllConsumed();
    assert.equal(result?.status, 'completed');
    assert.equal(result?.result, 'Done: the notes hold a secret.');

    const { state } = api.controller.snapshot();
    const task = allTasks(state)[0] as TaskNode;
    assert.equal(task.description, 'read the notes');
    assert.equal(task.status, 'completed');
    assert.equal(task.model, MODEL_KEY);
    const calls = task.children.map((id) => state.nodes[id] as ViewNode).filter((n) => n.kind === 'tool');
    assert.deepEqual(calls.map((n) => (n.kind === 'tool' ? n.name : '')), ['read_file']);

    const parent = requests().filter((r) => !isChildRequest(r.request));
    const child = requests().filter((r) => isChildRequest(r.request));
    assert.equal(parent.length, 2);
    assert.equal(child.length, 2);
    assert.ok(child.some((r) => wholeLmRequest(r.request).includes(CANARY)), 'the child read the canary (else this proves nothing)');
    for (const r of parent) assert.ok(!wholeLmRequest(r.request).includes(CANARY), `parent request #${r.index} holds none of the child's context`);
    assert.ok(parent.every((r) => r.request.model === TEST_MODELS.tools && r.request.tools.includes('task')));
    assert.equal(promptOf(child[0]?.request as never), 'Read lm-notes.md and report.');

    // tool_use ⇄ LanguageModelToolCallPart, tool_result ⇄ LanguageModelToolResultPart, paired by id.
    const second = parent[1]?.request;
    assert.ok(second);
    const call = second.messages.at(-2)?.parts.find((p) => p.type === 'tool_call');
    assert.ok(call && call.type === 'tool_call' && call.name === 'task');
    assert.equal(lastResults(second)[0]?.callId, call.callId);
    assert.match(lastResults(second)[0]?.text ?? '', /The notes hold a secret marker/);
    assert.equal(second.messages.at(-2)?.parts[0]?.type, 'text', 'the assistant text before the call was kept');

    // Usage from the model's own countTokens; the window from its maxInputTokens.
    assert.ok(task.tokens.input > 0 && task.tokens.output > 0, JSON.stringify(task.tokens));
    assert.equal(api.controller.current?.context.window, 120_000);
  });

  it('a denied write reaches the model as an error result; the forced final answer keeps the tools and says to answer', async () => {
    await config().update('subagentMaxTurns', 1, vscode.ConfigurationTarget.Global);
    api.approver.prompt = async () => 'deny';
    script.route([
      { name: 'child', match: isChildRequest, replies: [lmReply.toolUse({ name: 'write_file', input: { path: 'x.txt', content: 'x' } }), lmReply.text('I could not write.')] },
      { name: 'parent', match: () => true, replies: [lmReply.toolUse({ name: 'task', input: { description: 'write x', prompt: 'Write x.txt' } }), lmReply.text('It was denied.')] },
    ]);
    try {
      await api.controller.ask('write x');
    } finally {
      await config().update('subagentMaxTurns', undefined, vscode.ConfigurationTarget.Global);
    }
    script.assertAllConsumed();
    const final = requests().filter((r) => isChildRequest(r.request))[1]?.request;
    assert.ok(final);
    assert.match(lastResults(final)[0]?.text ?? '', /^Error: .*denied/i);
    assert.ok(final.tools.length > 0 && final.toolMode === 1, 'toolChoice none cannot be said: tools stay, mode Auto');
    assert.ok(wholeLmRequest(final).includes(FORCE_FINAL_NOTE));
    assert.equal(allTasks(api.controller.snapshot().state)[0]?.status, 'max_turns');
  });

  it('an agent definition\'s model picks another VS Code model; a name no model has runs on the session\'s, with one notice', async () => {
    mkdirSync(join(workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(workdir, '.claude', 'agents', 'other-model.md'), '---\nname: other-model\ndescription: runs elsewhere\nmodel: script-other\n---\nYou are on the other model.\n');
    writeFileSync(join(workdir, '.claude', 'agents', 'missing-model.md'), '---\nname: missing-model\ndescription: names no model\nmodel: no-such-model\n---\nYou have no model of your own.\n');
    script.route([
      { name: 'other', match: (r) => r.model === TEST_MODELS.other, replies: [lmReply.text('from the other model')] },
      { name: 'missing', match: (r) => isChildRequest(r) && promptOf(r).includes('MISSING'), replies: [lmReply.text('from the default model')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          lmReply.toolUse([
            { name: 'task', input: { description: 'elsewhere', prompt: 'OTHER: say hi', subagent_type: 'other-model' } },
            { name: 'task', input: { description: 'nowhere', prompt: 'MISSING: say hi', subagent_type: 'missing-model' } },
          ]),
          lmReply.text('both answered'),
        ],
      },
    ]);
    await api.controller.ask('ask both agents');
    script.assertAllConsumed();
    const byRoute = Object.fromEntries(requests().map((r) => [r.route, r.request.model]));
    assert.deepEqual(byRoute, { parent: TEST_MODELS.tools, other: TEST_MODELS.other, missing: TEST_MODELS.tools });
    const tasks = allTasks(api.controller.snapshot().state);
    assert.equal(tasks.find((t) => t.description === 'elsewhere')?.model, 'script-other');
    assert.ok(notices().some((t) => t.includes('no VS Code language model is called “no-such-model”')), notices().join('\n'));

    // Such an agent compacts against its own model's input limit (script-other: 50,000), not the session's.
    const [tools] = await vscode.lm.selectChatModels({ vendor: TEST_LM_VENDOR, id: TEST_MODELS.tools });
    const [other] = await vscode.lm.selectChatModels({ vendor: TEST_LM_VENDOR, id: TEST_MODELS.other });
    assert.ok(tools && other);
    const port = createLmModel({ model: tools, key: 'session-model', others: async (name) => (name === 'script-other' ? other : undefined) });
    assert.deepEqual(await Promise.all(['script-other', 'session-model', 'no-such-model'].map((id) => port.contextWindow?.(id))), [50_000, undefined, undefined]);
  });

  it('a refused request and a model that cannot call tools end the run with one line in the panel', async () => {
    script.script(lmReply.error('the user declined', 'NoPermissions'));
    const refused = await api.controller.ask('anything');
    script.assertAllConsumed();
    assert.equal(refused?.status, 'error');
    assert.match(refused?.error ?? '', /^Delegate may not use Script Model \(delegate-test\): access was not granted: the user declined\. /);
    assert.ok(notices().includes(refused?.error ?? '-'), 'the panel shows the same line');
    assert.equal(api.controller.isRunning, false);

    await config().update('vscodeModel', { vendor: TEST_LM_VENDOR, id: TEST_MODELS.noTools }, vscode.ConfigurationTarget.Global);
    try {
      api.controller.newSession();
      const plain = await api.controller.ask('anything');
      assert.equal(plain?.status, 'error');
      assert.match(plain?.error ?? '', /^Script Plain \(delegate-test\) cannot call tools/);
      assert.ok(notices().includes(plain?.error ?? '-'));
      assert.equal(requests().length, 1, 'nothing was sent to the model that cannot call tools');
    } finally {
      await config().update('vscodeModel', { vendor: TEST_LM_VENDOR, id: TEST_MODELS.tools }, vscode.ConfigurationTarget.Global);
    }
  });

  it('bench: the Language Model API path\'s harness time per turn, beyond the model\'s own time', async () => {
    // A session on the real adapter and the real vscode.lm, its model wrapped to time what the editor and the
    // provider take (sendRequest until it resolves, and each wait for the next part). Per main-agent turn:
    // turn_started → usage (compaction check, conversion, counting, part handling, events) minus that time.
    const TURNS = 40;
    const [chat] = await vscode.lm.selectChatModels({ vendor: TEST_LM_VENDOR, id: TEST_MODELS.tools });
    assert.ok(chat);
    const modelMs: number[] = [];
    const timed = {
      ...pick(chat),
      countTokens: (text: string | vscode.LanguageModelChatMessage, token?: vscode.CancellationToken) => chat.countTokens(text, token),
      sendRequest: async (messages: vscode.LanguageModelChatMessage[], options?: vscode.LanguageModelChatRequestOptions, token?: vscode.CancellationToken) => {
        let waited = 0;
        const t0 = performance.now();
        const response = await chat.sendRequest(messages, options, token);
        waited += performance.now() - t0;
        const index = modelMs.push(waited) - 1;
        const parts = response.stream[Symbol.asyncIterator]();
        return {
          text: response.text,
          stream: {
            [Symbol.asyncIterator]: () => ({
              next: async () => {
                const t = performance.now();
                const next = await parts.next();
                modelMs[index] = (modelMs[index] ?? 0) + performance.now() - t;
                return next;
              },
            }),
          },
        };
      },
    } as vscode.LanguageModelChat;
    const { session, workdir } = await testSession({ model: createLmModel({ model: timed, key: MODEL_KEY }), modelId: MODEL_KEY });
    writeFileSync(join(workdir, 'bench.txt'), 'x\n');
    script.script(...Array.from({ length: TURNS - 1 }, () => lmReply.toolUse({ name: 'read_file', input: { path: 'bench.txt' } }, 'Reading.')), lmReply.text('done'));
    const marks: { started: number; answered?: number }[] = [];
    session.bus.subscribe((e) => {
      if (e.agentId !== 'main') return;
      if (e.type === 'turn_started') marks.push({ started: performance.now() });
      if (e.type === 'usage') {
        const last = marks.at(-1);
        if (last) last.answered = performance.now();
      }
    });
    const result = await session.run('read bench.txt again and again', new AbortController().signal);
    session.close();
    script.assertAllConsumed();
    assert.equal(result.status, 'completed');
    assert.equal(modelMs.length, TURNS);
    // The first turns warm up (JIT, first counts): the steady state is what a session lives in.
    const harness = marks.map((m, i) => (m.answered ?? NaN) - m.started - (modelMs[i] ?? NaN)).slice(5);
    assert.ok(harness.every((x) => Number.isFinite(x) && x >= 0), harness.join(','));
    const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
    const mean = harness.reduce((a, b) => a + b, 0) / harness.length;
    console.log(`lm path: harness ms per turn beyond the model's own time: mean ${mean.toFixed(2)} p50 ${p50(harness).toFixed(2)} max ${Math.max(...harness).toFixed(2)} over ${harness.length} turns (the model's own time — the editor's round trip to the provider and back — p50 ${p50(modelMs).toFixed(1)} ms; the provider itself p50 ${p50(testLm.timings.slice(-TURNS).map((t) => t.ms)).toFixed(2)} ms)`);
  });

  it('Stop cancels the model request (the provider sees the cancellation)', async () => {
    script.route([
      { name: 'child', match: isChildRequest, replies: [lmReply.stall()] },
      { name: 'parent', match: () => true, replies: [lmReply.toolUse({ name: 'task', input: { description: 'waiter', prompt: 'wait' } })] },
    ]);
    const run = api.controller.ask('start and wait');
    await waitUntil(() => requests().some((r) => isChildRequest(r.request)), 'the child asked the model', 15_000);
    const started = Date.now();
    await vscode.commands.executeCommand('delegate.stop');
    const result = await run;
    assert.ok(Date.now() - started < 5000, 'the stalled request ended on Stop');
    assert.equal(result?.status, 'cancelled');
    assert.equal(allTasks(api.controller.snapshot().state)[0]?.status, 'cancelled');
    script.assertAllConsumed();
  });
});

/** The model's plain fields (the API object is frozen; the wrapper above replaces its methods). */
function pick(chat: vscode.LanguageModelChat): Omit<vscode.LanguageModelChat, 'sendRequest' | 'countTokens'> & { capabilities?: unknown } {
  return { id: chat.id, name: chat.name, vendor: chat.vendor, family: chat.family, version: chat.version, maxInputTokens: chat.maxInputTokens, capabilities: (chat as { capabilities?: unknown }).capabilities };
}

