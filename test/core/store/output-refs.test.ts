/**
 * A tool's output carried once (events.ts) and put back on replay (session-replay.ts): only a result that is
 * exactly its tool's output becomes a reference, and replay rebuilds every message as the loop held it.
 */
import assert from 'node:assert/strict';
import { EventBus, type DelegateEvent, type EventBody } from '../../../src/core/events';
import type { MessageParam } from '../../../src/core/llm/types';
import { replaySession } from '../../../src/core/session/replay';

const ROOT = 'main';
const finished = (toolUseId: string, output: string): EventBody => ({ type: 'tool_call', id: toolUseId, name: 'read_file', state: 'completed', output, durationMs: 1 });

async function record(script: (bus: EventBus) => Promise<void>): Promise<DelegateEvent[]> {
  const bus = new EventBus('s');
  const events: DelegateEvent[] = [];
  bus.subscribe((e) => {
    events.push(JSON.parse(JSON.stringify(e)) as DelegateEvent);
  });
  await script(bus);
  return events;
}

describe('tool outputs carried once', () => {
  const results: MessageParam = {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: 'big output' },
      // The loop guard's duplicate: same id, its own text (the map holds the later output).
      { type: 'tool_result', tool_use_id: 't1', content: 'Not run: the tool_use id t1 was already used', is_error: true },
      // A result that is not its tool's output as emitted (edited after): stays inline.
      { type: 'tool_result', tool_use_id: 't2', content: 'edited' },
      { type: 'text', text: 'a note' },
    ],
  };
  const prompt: MessageParam = { role: 'user', content: 'go' };
  const assistant: MessageParam = {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 't1', name: 'read_file', input: {} },
      { type: 'tool_use', id: 't2', name: 'read_file', input: {} },
    ],
  };

  async function run(): Promise<DelegateEvent[]> {
    return record(async (bus) => {
      await bus.emit(ROOT, null, { type: 'agent_started', prompt: 'go', depth: 0, model: 'm' });
      await bus.emit(ROOT, null, { type: 'message', message: prompt });
      await bus.emit(ROOT, null, { type: 'message', message: assistant });
      await bus.emit(ROOT, null, finished('t1', 'big output'));
      // Another agent's call of the same id does not stand for this agent's.
      await bus.emit('child', ROOT, finished('t2', 'edited'));
      await bus.emit(ROOT, null, finished('t1', 'Not run: the tool_use id t1 was already used'));
      await bus.emit(ROOT, null, finished('t2', 'the real output'));
      await bus.emit(ROOT, null, { type: 'message', message: results });
      await bus.emit(ROOT, null, { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } });
      await bus.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 2, toolCalls: 2, usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 1 });
    });
  }

  it('the message refers only to results that are exactly their tool\'s output; the others stay inline', async () => {
    const events = await run();
    const messages = events.filter((e) => e.type === 'message');
    assert.deepEqual(messages.map((e) => e.outputRefs), [undefined, undefined, ['t1'], undefined]);
    const blocks = (messages[2]?.message.content ?? []) as unknown as Record<string, unknown>[];
    assert.deepEqual(blocks[0], { type: 'tool_result', tool_use_id: 't1', content: 'big output' }, 'the earlier duplicate is not the output the map holds');
    assert.deepEqual(blocks[1], { type: 'tool_result', tool_use_id: 't1', is_error: true });
    assert.deepEqual(blocks[2], { type: 'tool_result', tool_use_id: 't2', content: 'edited' }, 'not this agent\'s output of t2');
  });

  it('replay puts every referred output back: the conversation is the one the loop held, key order included', async () => {
    const state = replaySession('s', await run(), ROOT);
    assert.equal(JSON.stringify(state.history), JSON.stringify([prompt, assistant, results, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }]));
  });

  it('a reference whose output is missing (a damaged transcript) says so to the model instead of an empty result', async () => {
    const events = (await run()).filter((e) => !(e.type === 'tool_call' && e.state === 'completed' && e.id === 't1'));
    const content = JSON.stringify(replaySession('s', events, ROOT).history[2]);
    assert.match(content, /"tool_use_id":"t1","content":"\(the output of this call is missing from the transcript\)","is_error":true/);
  });
});
