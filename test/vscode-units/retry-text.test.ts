// Retry on a task that ended early: the prompt the main agent gets (src/vscode/retry-text.ts).
import assert from 'node:assert/strict';
import { retryPrompt } from '../../src/vscode/retry-text';

describe('vscode/retry-text', () => {
  it('asks the main agent to delegate the same job again, with its agent type, or with the edited prompt', () => {
    const task = { description: 'Reproduce the flaky test', prompt: 'Run npm test 20 times.', status: 'error' as const, agentType: 'Explore' };
    assert.equal(retryPrompt(task, task.prompt, false), 'Run the subagent task "Reproduce the flaky test" again (it ended: failed). Delegate it with the task tool (description "Reproduce the flaky test", subagent_type "Explore") and exactly this prompt:\n\nRun npm test 20 times.');
    assert.equal(retryPrompt({ ...task, status: 'max_turns', agentType: 'general-purpose' }, 'Run it 5 times.', true), 'Run the subagent task "Reproduce the flaky test" again (it ended: turn limit reached). Delegate it with the task tool (description "Reproduce the flaky test") and exactly this prompt, which I edited:\n\nRun it 5 times.');
  });
});
