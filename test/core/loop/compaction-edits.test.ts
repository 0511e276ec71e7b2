/** Compaction's first step keeps a loaded skill's instructions (the spec's client guide: skill content is not pruned). */
import assert from 'node:assert/strict';
import { stubOldToolResults } from '../../../src/core/loop/compaction-edits';
import type { MessageParam } from '../../../src/core/llm/types';

const turn = (id: string, name: string, output: string): MessageParam[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
];

describe('compaction: stubbing old tool results', () => {
  it("stubs a long old output but keeps a skill's loaded instructions", async () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'go' },
      ...turn('a', 'skill', `<skill_content name="git-commit">\n${'Step. '.repeat(2000)}\n</skill_content>`),
      ...turn('b', 'bash', 'x'.repeat(12_000)),
      ...turn('c', 'bash', 'y'),
      ...turn('d', 'bash', 'z'),
      ...turn('e', 'bash', 'w'),
    ];
    const stubs = await stubOldToolResults(messages, 3, async (id) => `[stub ${id}]`);
    assert.deepEqual(Object.keys(stubs), ['b']);
  });
});
