// Allowed and disallowed tools in the permission layer: either naming, MCP server-wide rules, content rules
// handled in the safe direction, and an allowed tool skipping only the question.
import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import { splitRules, ToolRules } from '../../../src/core/policy/tool-rules';
import type { ToolCallRequest } from '../../../src/core/policy/types';

const call = (toolName: string, kind: ToolCallRequest['kind'], input: unknown = {}, extra: Partial<ToolCallRequest> = {}): ToolCallRequest => ({
  agent: { agentId: 'main', parentId: null, depth: 0 },
  toolUseId: 't',
  toolName,
  kind,
  input,
  summary: typeof (input as { command?: unknown }).command === 'string' ? String((input as { command: string }).command) : '',
  paths: [],
  ...extra,
});

describe('tool rules', () => {
  it('splits on commas and spaces, not inside parentheses', () => {
    assert.deepEqual(splitRules(['Bash,Read  mcp__docs__search', 'Bash(git log:*) Edit']), ['Bash', 'Read', 'mcp__docs__search', 'Bash(git log:*)', 'Edit']);
  });

  it('matches ours and Claude Code\'s names, and MCP server-wide rules', () => {
    const rules = new ToolRules({ allowed: ['Read', 'mcp__docs'], disallowed: ['write_file', 'mcp__web__*', 'Agent'] });
    assert.ok(rules.allows('read_file'));
    assert.ok(rules.allows('mcp__docs__search'));
    assert.ok(!rules.allows('mcp__docsearch__x'));
    assert.ok(rules.disallows('write_file'));
    assert.ok(rules.disallows('mcp__web__fetch'));
    assert.ok(rules.disallows('task'));
    assert.ok(!rules.disallows('mcp__docs__search'));
    assert.deepEqual(rules.warnings, []);
  });

  it("Claude Code's subagent rules: Agent(name) / Task(a, b) deny those agent types only, and the policy refuses a task call for one (the default type too)", async () => {
    const rules = new ToolRules({ allowed: ['Agent(helper)'], disallowed: ['Agent(Explore)', 'Task(general-purpose, Reviewer)'] });
    assert.deepEqual(rules.warnings, []);
    assert.ok(!rules.disallows('task'), 'the task tool stays');
    assert.ok(rules.deniesAgent('explore') && rules.deniesAgent('reviewer') && rules.deniesAgent('general-purpose'));
    assert.ok(!rules.deniesAgent('helper'));
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'default', rules });
    assert.equal((await policy.check(call('task', 'delegate', { prompt: 'p', subagent_type: 'Explore' }))).behavior, 'deny');
    assert.equal((await policy.check(call('task', 'delegate', { prompt: 'p' }))).behavior, 'deny', 'no subagent_type: the default agent');
    assert.equal((await policy.check(call('task', 'delegate', { prompt: 'p', fork: true }))).behavior, 'allow', 'a fork is no agent type');
    assert.equal((await policy.check(call('task', 'delegate', { prompt: 'p', subagent_type: 'helper' }))).behavior, 'allow');
  });

  it('content rules: an allow is ignored, a deny covers the whole tool; unknown names are warned about', () => {
    const rules = new ToolRules({ allowed: ['Bash(git log:*)'], disallowed: ['Edit(./secret/**)', 'Bsh'] });
    assert.ok(!rules.allows('bash'));
    assert.ok(rules.disallows('edit_file'));
    assert.equal(rules.warnings.length, 3);
    assert.match(rules.warnings[0] ?? '', /"Bash\(git log:\*\)".*ignored/);
    assert.match(rules.warnings[1] ?? '', /all of edit_file is disallowed/);
    assert.match(rules.warnings[2] ?? '', /"Bsh" names no tool/);
  });

  it('in the policy: disallowed is refused in bypassPermissions too; allowed skips the ask but not the deny list or plan mode', async () => {
    const rules = new ToolRules({ allowed: ['Bash', 'mcp__x__write'], disallowed: ['glob'] });
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions', rules });
    assert.equal((await policy.check(call('glob', 'read'))).behavior, 'deny');
    assert.equal(policy.offers('glob'), false);
    assert.equal(policy.offers('bash'), true);
    policy.setMode('default');
    assert.equal((await policy.check(call('bash', 'exec', { command: 'ls' }))).behavior, 'allow');
    assert.equal((await policy.check(call('bash', 'exec', { command: 'rm -rf /' }))).behavior, 'deny');
    assert.equal((await policy.check(call('mcp__x__write', 'external'))).behavior, 'allow');
    assert.equal((await policy.check(call('mcp__x__other', 'external'))).behavior, 'ask');
    policy.setMode('plan');
    assert.equal((await policy.check(call('mcp__x__write', 'external'))).behavior, 'deny');
    const untrusted = new PermissionPolicy({ workdir: '/tmp', mode: 'default', trusted: false, rules });
    assert.equal((await untrusted.check(call('bash', 'exec', { command: 'ls' }))).behavior, 'deny');
  });
});
