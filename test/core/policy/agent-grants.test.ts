import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import type { ToolCallRequest } from '../../../src/core/policy/types';
import type { AgentIdentity } from '../../../src/core/vocabulary';
import { tempDir } from '../../kit/temp-dirs';

// main ─┬─ a (task "alpha") ─── a1 (its own subagent)
//       └─ b (task "beta")
const tree: Record<string, AgentIdentity> = {
  main: { agentId: 'main', parentId: null, depth: 0 },
  a: { agentId: 'a', parentId: 'main', depth: 1, description: 'alpha' },
  a1: { agentId: 'a1', parentId: 'a', depth: 2, description: 'alpha helper' },
  b: { agentId: 'b', parentId: 'main', depth: 1, description: 'beta' },
};
const write = (agent: string, path = 'x.txt'): ToolCallRequest => ({ agent: tree[agent] as AgentIdentity, toolUseId: `t-${agent}`, toolName: 'write_file', kind: 'write', input: { path }, summary: path, paths: [path] });
const bash = (agent: string, command: string): ToolCallRequest => ({ agent: tree[agent] as AgentIdentity, toolUseId: `t-${agent}`, toolName: 'bash', kind: 'exec', input: { command }, summary: command, paths: [] });

function policy(): PermissionPolicy {
  return new PermissionPolicy({ workdir: tempDir('grants-'), mode: 'default', parentOf: (id) => tree[id]?.parentId });
}
const behavior = async (p: PermissionPolicy, req: ToolCallRequest) => (await p.check(req)).behavior;

describe('answers for a subagent or its task', () => {
  it('"for this subagent" covers that kind of call by that agent only: not its own subagent, its sibling or the main agent', async () => {
    const p = policy();
    p.rememberForAgent(write('a'), 'agent');
    assert.equal(await behavior(p, write('a', 'other.txt')), 'allow');
    assert.equal(await behavior(p, bash('a', 'make')), 'ask', 'a write answer is not a command answer');
    for (const who of ['a1', 'b', 'main']) assert.equal(await behavior(p, write(who)), 'ask', who);
  });

  it('"for this task\'s subagents", answered to a nested subagent, covers its whole task and nothing beside it', async () => {
    const p = policy();
    p.rememberForAgent(bash('a1', 'npm test'), 'task');
    assert.equal(await behavior(p, bash('a', 'npm run build')), 'allow', 'the task itself');
    assert.equal(await behavior(p, bash('a1', 'make')), 'allow', 'every command of that tool');
    assert.equal(await behavior(p, bash('b', 'npm test')), 'ask', 'another task');
    assert.equal(await behavior(p, bash('main', 'npm test')), 'ask', 'the main agent');
  });

  it('a grant skips only the question: the deny list and path confinement still refuse', async () => {
    const p = policy();
    p.rememberForAgent(bash('a', 'ls'), 'agent');
    p.rememberForAgent(write('a'), 'agent');
    assert.equal(await behavior(p, bash('a', 'rm -rf /')), 'deny');
    assert.equal(await behavior(p, write('a', '../outside.txt')), 'deny');
  });
});
