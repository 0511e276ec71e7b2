// Claude Code's tool names and input field names, both ways; and how external tools are permitted.
import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import { ToolRules } from '../../../src/core/policy/tool-rules';
import type { ToolCallRequest } from '../../../src/core/policy/types';
import { claudeToolName, fromClaudeInput, ourToolName, toClaudeInput, toolNameAliases } from '../../../src/core/tools/tool-names';

const known = new Set(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'task', 'mcp__docs__search']);

describe('tool names', () => {
  it('maps Claude Code names to ours and back; MCP names as they are; unknown ones to undefined', () => {
    assert.equal(ourToolName('Read', known), 'read_file');
    assert.equal(ourToolName('MultiEdit', known), 'edit_file');
    assert.equal(ourToolName('Agent', known), 'task');
    assert.equal(ourToolName('read_file', known), 'read_file');
    assert.equal(ourToolName('mcp__docs__search', known), 'mcp__docs__search');
    assert.equal(ourToolName('WebFetch', known), undefined, 'not a tool of this session');
    assert.equal(ourToolName('NotATool', known), undefined);
    assert.equal(claudeToolName('edit_file'), 'Edit');
    assert.equal(claudeToolName('mcp__docs__search'), 'mcp__docs__search');
    assert.deepEqual(toolNameAliases('edit_file').sort(), ['Edit', 'MultiEdit', 'edit_file']);
  });

  it('renames input fields for hooks and back for their updatedInput', () => {
    const ours = { path: 'a.ts', old_text: 'x', new_text: 'y' };
    const claude = toClaudeInput('edit_file', ours);
    assert.deepEqual(claude, { file_path: 'a.ts', old_string: 'x', new_string: 'y' });
    assert.deepEqual(fromClaudeInput('edit_file', claude), ours);
    assert.deepEqual(toClaudeInput('bash', { command: 'ls' }), { command: 'ls' });
  });
});

describe('permissions: external tools', () => {
  const req = (readOnly = false): ToolCallRequest => ({
    agent: { agentId: 'main', parentId: null, depth: 0 },
    toolUseId: 't',
    toolName: 'mcp__docs__search',
    kind: 'external',
    input: { q: 'x' },
    summary: 'x',
    paths: [],
    ...(readOnly ? { readOnly } : {}),
  });

  it('asks in default and acceptEdits, allows in bypassPermissions, refuses in plan unless read-only', async () => {
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'default' });
    assert.equal((await policy.check(req())).behavior, 'ask');
    policy.setMode('acceptEdits');
    assert.equal((await policy.check(req())).behavior, 'ask');
    policy.setMode('bypassPermissions');
    assert.equal((await policy.check(req())).behavior, 'allow');
    policy.setMode('plan');
    assert.equal((await policy.check(req())).behavior, 'deny');
    const readOnly = await policy.check(req(true));
    assert.equal(readOnly.behavior, 'ask', 'a read-only tool still sends its input out: asked in plan mode, like web_fetch');
    assert.match(readOnly.behavior === 'ask' ? readOnly.reason : '', /^plan mode is read-only, but a read-only tool still sends its input to its server/);
  });

  it('a read-only tool: asked in plan mode and, untrusted, in every mode; an answer for the session, its name or its server allowed skip the question', async () => {
    const plan = new PermissionPolicy({ workdir: '/tmp', mode: 'plan' });
    plan.rememberForSession(req(true));
    assert.equal((await plan.check(req(true))).behavior, 'allow');
    assert.equal((await plan.check({ ...req(true), toolName: 'mcp__docs__fetch' })).behavior, 'ask', 'the answer covers that tool only');
    for (const allowed of ['mcp__docs__search', 'mcp__docs', 'mcp__docs__*']) {
      const rules = new PermissionPolicy({ workdir: '/tmp', mode: 'plan', rules: new ToolRules({ allowed: [allowed] }) });
      assert.equal((await rules.check(req(true))).behavior, 'allow', allowed);
      assert.equal((await rules.check(req())).behavior, 'deny', `${allowed}: plan mode still refuses a tool that may change things`);
    }
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      const untrusted = new PermissionPolicy({ workdir: '/tmp', mode, trusted: false });
      const v = await untrusted.check(req(true));
      assert.equal(v.behavior, 'ask', mode);
      assert.match(v.behavior === 'ask' ? v.reason : '', /^the workspace is not trusted, and a read-only tool still sends its input/);
    }
    assert.equal((await new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions' }).check(req(true))).behavior, 'allow');
  });

  it('"Allow this server for this session" covers every tool of that server, not another server\'s; plan mode still refuses one that may change things', async () => {
    const of = (toolName: string, readOnly = false): ToolCallRequest => ({ ...req(readOnly), toolName });
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'default' });
    policy.rememberForSession(req(), 'server');
    assert.equal((await policy.check(of('mcp__docs__fetch'))).behavior, 'allow');
    assert.equal((await policy.check(of('mcp__docs__fetch', true))).behavior, 'allow');
    assert.equal((await policy.check(of('mcp__docsearch__x'))).behavior, 'ask', 'a server whose name starts alike is another server');
    assert.equal((await policy.check(of('mcp__other__fetch'))).behavior, 'ask');
    policy.setMode('plan');
    assert.equal((await policy.check(of('mcp__docs__fetch', true))).behavior, 'allow');
    assert.equal((await policy.check(of('mcp__docs__fetch'))).behavior, 'deny');
  });

  it('remembers "Allow for this session" per tool; an untrusted workspace refuses a tool that may change things', async () => {
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'default' });
    policy.rememberForSession(req());
    assert.equal((await policy.check(req())).behavior, 'allow');
    const untrusted = new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions', trusted: false });
    assert.equal((await untrusted.check(req())).behavior, 'deny');
  });
});
