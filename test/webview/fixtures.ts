/**
 * Scripted event streams for the view tests and the webview bench: a builder that stamps
 * envelopes (seq, time, ids) like the EventBus does, plus ready-made sessions — a finished
 * session with three tasks, a running one with a nested subagent, and a 5,000-call task.
 */
import type { DelegateEvent, EventBody } from '../../src/core/events';
import type { AgentStatus, RetryOf, Usage } from '../../src/core/vocabulary';
import { callEnded, callOpened } from '../kit/call-patches';

export const ROOT = 'root';

export function usage(input: number, output: number): Usage {
  return { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

export class Script {
  readonly events: DelegateEvent[] = [];
  private seq = 0;
  private taken = 0;

  constructor(
    readonly sessionId = 'session-1',
    public time = 1_700_000_000_000,
  ) {}

  emit(agentId: string, parentId: string | null, body: EventBody): DelegateEvent {
    this.time += 150;
    const event = { seq: ++this.seq, time: this.time, sessionId: this.sessionId, agentId, parentId, ...body } as DelegateEvent;
    this.events.push(event);
    return event;
  }

  /** Takes the events emitted since the last take (a host batch). */
  take(): DelegateEvent[] {
    const batch = this.events.slice(this.taken);
    this.taken = this.events.length;
    return batch;
  }

  /** A root run's start as the core sends it: the prompt event, then the agent's start and its opening message. */
  rootStart(prompt: string, retryOf?: RetryOf): void {
    this.emit(ROOT, null, { type: 'prompt', text: prompt, ...(retryOf ? { retryOf } : {}) });
    this.emit(ROOT, null, { type: 'agent_started', prompt, depth: 0, model: 'claude-sonnet', ...(retryOf ? { retryOf } : {}) });
    this.emit(ROOT, null, { type: 'message', message: { role: 'user', content: prompt } });
  }

  turn(agentId: string, parentId: string | null, turn: number): void {
    this.emit(agentId, parentId, { type: 'turn_started', turn, forcedFinal: false });
  }

  /** Root text streamed in two deltas, then the final message. */
  rootText(turn: number, text: string): void {
    const half = Math.floor(text.length / 2);
    this.emit(ROOT, null, { type: 'text_delta', turn, text: text.slice(0, half) });
    this.emit(ROOT, null, { type: 'text_delta', turn, text: text.slice(half) });
    this.emit(ROOT, null, { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text, citations: null }] } });
  }

  /** The parent's `task` call and the child's start. */
  taskStart(parent: string, grandParent: string | null, toolUseId: string, child: string, description: string, depth: number): void {
    const prompt = `${description}. Report what you found in a short summary.`;
    for (const patch of callOpened(toolUseId, 'task', { description, prompt })) this.emit(parent, grandParent, patch);
    this.emit(child, parent, { type: 'agent_started', prompt, description, depth, model: 'claude-sonnet', toolUseId });
  }

  tool(agentId: string, parentId: string | null, toolUseId: string, name: string, input: unknown, output: string, isError = false): void {
    this.open(agentId, parentId, toolUseId, name, input);
    this.emit(agentId, parentId, callEnded(toolUseId, name, output, isError));
  }

  /** A call's record opened (pending, then running), not ended. */
  open(agentId: string, parentId: string | null, toolUseId: string, name: string, input: unknown, said?: Parameters<typeof callOpened>[3]): void {
    for (const patch of callOpened(toolUseId, name, input, said)) this.emit(agentId, parentId, patch);
  }

  childFinish(child: string, parent: string, status: AgentStatus, turns: number, toolCalls: number, tokens: [number, number], result: string, error?: string): void {
    this.emit(child, parent, { type: 'agent_finished', status, result, turns, toolCalls, usage: usage(tokens[0], tokens[1]), durationMs: 12_400, ...(error ? { error } : {}) });
  }

  taskEnd(parent: string, grandParent: string | null, toolUseId: string, output: string, isError = false): void {
    this.emit(parent, grandParent, callEnded(toolUseId, 'task', output, isError, 12_500));
  }
}

/** A finished session: prompt, root text, a root tool call, three tasks (completed, max_turns, error). */
export function finishedSession(): Script {
  const s = new Script();
  s.rootStart('Find why the integration tests are flaky and fix it.');
  s.turn(ROOT, null, 1);
  s.rootText(1, 'I will split this into three investigations and run them in parallel.');
  s.tool(ROOT, null, 'root-read', 'read_file', { path: 'package.json' }, '{ "name": "demo" }');
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'Survey the test runner config', 1);
  s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'Grep for timing-dependent waits', 1);
  s.taskStart(ROOT, null, 'tu-c', 'agent-c', 'Reproduce the flaky test', 1);
  s.turn('agent-a', ROOT, 1);
  s.turn('agent-b', ROOT, 1);
  s.tool('agent-a', ROOT, 'a1', 'read_file', { path: 'test/setup.ts' }, 'export const timeout = 2000;');
  s.tool('agent-b', ROOT, 'b1', 'grep', { pattern: 'setTimeout', path: 'test' }, 'test/a.test.ts:12: setTimeout(done, 50)');
  s.tool('agent-a', ROOT, 'a2', 'bash', { command: 'npx mocha --reporter dot' }, '42 passing (3s)\n1 failing');
  s.tool('agent-b', ROOT, 'b2', 'edit_file', { path: 'test/a.test.ts', old: 'setTimeout(done, 50)', new: 'await settled()' }, 'Edited test/a.test.ts');
  s.emit('agent-a', ROOT, { type: 'usage', turn: 1, usage: usage(5200, 800) });
  s.turn('agent-c', ROOT, 1);
  s.tool('agent-c', ROOT, 'c1', 'bash', { command: 'for i in $(seq 20); do npm test || break; done' }, 'Error: ETIMEDOUT', true);
  s.emit('agent-c', ROOT, { type: 'error', message: 'overloaded', retrying: true });
  s.childFinish('agent-a', ROOT, 'completed', 3, 2, [5200, 800], 'The runner uses a 2 s timeout; the failing test waits on a fixed 50 ms sleep.');
  s.childFinish('agent-b', ROOT, 'max_turns', 8, 2, [14_000, 2100], 'Stopped at the turn limit after replacing one sleep.');
  s.childFinish('agent-c', ROOT, 'error', 2, 1, [3100, 400], '', 'Model request failed: overloaded');
  s.taskEnd(ROOT, null, 'tu-a', 'The runner uses a 2 s timeout; the failing test waits on a fixed 50 ms sleep.');
  s.taskEnd(ROOT, null, 'tu-b', 'Stopped at the turn limit after replacing one sleep.');
  s.taskEnd(ROOT, null, 'tu-c', 'Model request failed: overloaded', true);
  s.turn(ROOT, null, 2);
  s.rootText(2, 'The flake comes from a fixed `50 ms` sleep in `test/a.test.ts`; it is now replaced by an explicit wait.');
  s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 2, toolCalls: 4, usage: usage(30_000, 4000), durationMs: 30_000 });
  return s;
}

/** A running session: one task with a few calls (one awaiting approval) and a nested running subagent. */
export function runningSession(): Script {
  const s = new Script();
  s.rootStart('Upgrade the build to esbuild 0.28 and make the tests pass.');
  s.turn(ROOT, null, 1);
  s.rootText(1, 'Delegating the upgrade to a subagent.');
  s.taskStart(ROOT, null, 'tu-up', 'agent-up', 'Upgrade esbuild and fix the build', 1);
  s.turn('agent-up', ROOT, 1);
  s.tool('agent-up', ROOT, 'u1', 'read_file', { path: 'scripts/build.mjs' }, "import * as esbuild from 'esbuild';");
  s.tool('agent-up', ROOT, 'u2', 'bash', { command: 'npm run build' }, 'error: Could not resolve "./missing"', true);
  s.emit('agent-up', ROOT, { type: 'usage', turn: 1, usage: usage(6400, 700) });
  s.turn('agent-up', ROOT, 2);
  s.tool('agent-up', ROOT, 'u3', 'write_file', { path: 'src/missing.ts', content: 'export {};\n' }, 'Wrote src/missing.ts');
  s.taskStart('agent-up', ROOT, 'tu-nested', 'agent-nested', 'Check the CHANGELOG for breaking changes', 2);
  s.turn('agent-nested', 'agent-up', 1);
  s.tool('agent-nested', 'agent-up', 'n1', 'grep', { pattern: 'BREAKING', path: 'node_modules/esbuild/CHANGELOG.md' }, '3 matches');
  s.open('agent-nested', 'agent-up', 'n2', 'read_file', { path: 'node_modules/esbuild/CHANGELOG.md' });
  s.open('agent-up', ROOT, 'u4', 'bash', { command: 'rm -rf dist && npm run build' });
  s.emit('agent-up', ROOT, { type: 'permission_asked', toolUseId: 'u4', name: 'bash', input: { command: 'rm -rf dist && npm run build' }, reason: 'Runs a shell command' });
  return s;
}

/** One task with `n` tool calls (running, or finished with `finished`), for scale tests and the bench. */
export function bigSession(n: number, finished = false): Script {
  const s = new Script();
  s.rootStart('Touch every file.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-big', 'agent-big', `Run ${n} tool calls`, 1);
  s.turn('agent-big', ROOT, 1);
  for (let i = 0; i < n; i++) {
    s.tool('agent-big', ROOT, `big-${i}`, i % 3 === 0 ? 'bash' : 'read_file', i % 3 === 0 ? { command: `echo ${i}` } : { path: `src/file-${i}.ts` }, `output ${i}`);
  }
  if (finished) {
    s.childFinish('agent-big', ROOT, 'completed', 40, n, [900_000, 40_000], `Ran ${n} calls.`);
    s.taskEnd(ROOT, null, 'tu-big', `Ran ${n} calls.`);
  }
  return s;
}
