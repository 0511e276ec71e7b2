// The words of a permission question: who asks and what; why plan mode, an untrusted workspace or a private
// destination asks; and each answer labelled by what it allows for this very call ("Allow `npm test` for this
// session", "Allow every bash command for this subagent"), offered only where the policy keeps such an answer; the
// modal's buttons with a harmless first one (VS Code focuses it).
import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../src/core/policy/permission-policy';
import type { ToolCallRequest } from '../../src/core/session/ports';
import { approvalChoices, approvalText, modalButtons, plainLabel, type ApprovalQuestion } from '../../src/vscode/approval-text';

const child = { agentId: 'sub1', parentId: 'main', depth: 1, description: 'read the docs' };
const main = { agentId: 'main', parentId: null, depth: 0 };
const fetchReq = (url: string, extra: Partial<ToolCallRequest> = {}): ToolCallRequest => ({ agent: child, toolUseId: 't', toolName: 'web_fetch', kind: 'external', input: { url }, summary: url, paths: [], readOnly: true, ...extra });
const question = (request: ToolCallRequest, reason = 'asks'): ApprovalQuestion => ({ who: request.agent.depth ? 'Subagent “read the docs”' : 'The main agent', toolName: request.toolName, summary: request.summary, reason, request });
const labels = (q: ApprovalQuestion): string[] => approvalChoices(q).map((c) => `${c.decision}: ${c.label}`);

/** The words for a request as the policy would ask it (its real reason). */
async function asked(policy: PermissionPolicy, request: ToolCallRequest): Promise<ReturnType<typeof approvalText>> {
  const verdict = await policy.check(request);
  assert.equal(verdict.behavior, 'ask');
  return approvalText(question(request, verdict.behavior === 'ask' ? verdict.reason : ''));
}

describe('vscode/approval-text: the question', () => {
  it('web_fetch in plan mode: names the agent and the host, says why plan mode asks', async () => {
    const url = 'https://docs.example.com/api?q=x';
    const why = 'Plan mode is read-only, but a fetch can carry what the agent read out in its URL.';
    assert.deepEqual(await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'plan' }), fetchReq(url)), {
      message: 'Subagent “read the docs” wants to fetch a web page from docs.example.com',
      why,
      detail: `${url}\n\n${why}`,
    });
  });

  it('an untrusted workspace says so; default mode asks without a why', async () => {
    const url = 'https://docs.example.com/';
    assert.match((await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions', trusted: false }), fetchReq(url))).why, /^The workspace is not trusted, and a fetch/);
    assert.deepEqual(await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'default' }), fetchReq(url)), { message: 'Subagent “read the docs” wants to fetch a web page from docs.example.com', why: '', detail: url });
  });

  it('a private destination names the place and the URL, in bypassPermissions too; only the host answer is offered', async () => {
    const destination = { host: '192.168.1.5', port: '80', address: '192.168.1.5', range: 'private' as const, url: 'http://192.168.1.5/admin' };
    const request = fetchReq('https://short.example/x', { summary: 'fetch from the local network: 192.168.1.5:80', privateDestination: destination });
    const text = await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions' }), request);
    assert.equal(text.message, 'Subagent “read the docs” wants to fetch from the local network: 192.168.1.5:80');
    assert.equal(text.detail, 'The URL: http://192.168.1.5/admin\n\nFetches to this machine or a private network are asked in every permission mode.');
    assert.deepEqual(labels(question(request)), ['allow: Allow', 'allow_session: Allow fetches from 192.168.1.5 for this session', 'deny: Deny']);
  });

  it('a read-only MCP tool in plan mode says why it is asked; in default mode, no why', async () => {
    const search: ToolCallRequest = { agent: main, toolUseId: 't', toolName: 'mcp__docs__search', kind: 'external', input: { q: 'KEY=1' }, summary: 'q: KEY=1', paths: [], readOnly: true };
    assert.equal((await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'plan' }), search)).why, 'Plan mode is read-only, but a read-only tool still sends its input to its server, which can carry what the agent read.');
    assert.deepEqual(await asked(new PermissionPolicy({ workdir: '/tmp', mode: 'default' }), search), { message: 'The main agent wants to use mcp__docs__search', why: '', detail: 'q: KEY=1' });
  });
});

describe('vscode/approval-text: each answer says what it allows', () => {
  const bash = (agent: ToolCallRequest['agent'], command: string): ToolCallRequest => ({ agent, toolUseId: 't', toolName: 'bash', kind: 'exec', input: { command }, summary: command, paths: [] });

  it('a command: that exact command for the session (named when short), every bash command for the subagent or its task', () => {
    assert.deepEqual(labels(question(bash(main, 'npm test'))), ['allow: Allow', 'allow_session: Allow `npm test` for this session', 'deny: Deny']);
    assert.deepEqual(labels(question(bash(child, 'npm test'))), [
      'allow: Allow',
      'allow_session: Allow `npm test` for this session',
      'allow_agent: Allow every bash command for this subagent',
      "allow_task: Allow every bash command for this task's subagents",
      'deny: Deny',
    ]);
    // Too long, several lines, a backtick or && (a VS Code button drops &&): "this exact command" (the card shows it).
    for (const command of ['npm test -- --grep "the long name of one suite"', 'make\nmake install', 'echo `date`', 'npm i && npm test']) {
      assert.equal(approvalChoices(question(bash(main, command)))[1]?.label, 'Allow this exact command for this session', command);
    }
  });

  it('a write: every file edit in the workspace, for the subagent, its task or the session', () => {
    const write: ToolCallRequest = { agent: child, toolUseId: 't', toolName: 'write_file', kind: 'write', input: { path: 'a.txt' }, summary: 'a.txt', paths: ['a.txt'] };
    assert.deepEqual(labels(question(write)), [
      'allow: Allow',
      'allow_agent: Allow every file edit in the workspace for this subagent',
      "allow_task: Allow every file edit in the workspace for this task's subagents",
      'allow_session: Allow every file edit in the workspace for this session',
      'deny: Deny',
    ]);
  });

  it('an MCP tool: that tool for the subagent, its task or the session, and every tool of its server for the session', () => {
    const search: ToolCallRequest = { agent: child, toolUseId: 't', toolName: 'mcp__docs__search', kind: 'external', input: {}, summary: '', paths: [] };
    assert.deepEqual(labels(question(search)), [
      'allow: Allow',
      'allow_agent: Allow every call of mcp__docs__search for this subagent',
      "allow_task: Allow every call of mcp__docs__search for this task's subagents",
      'allow_session: Allow every call of mcp__docs__search for this session',
      'allow_server: Allow every tool of server "docs" for this session',
      'deny: Deny',
    ]);
    assert.deepEqual(labels(question({ ...search, agent: main })), ['allow: Allow', 'allow_session: Allow every call of mcp__docs__search for this session', 'allow_server: Allow every tool of server "docs" for this session', 'deny: Deny']);
  });

  it('a fetch: that host; a call the policy keeps no answer for offers none', () => {
    assert.deepEqual(labels(question(fetchReq('https://docs.example.com/a'))).slice(1, 4), [
      'allow_agent: Allow fetches from docs.example.com for this subagent',
      "allow_task: Allow fetches from docs.example.com for this task's subagents",
      'allow_session: Allow fetches from docs.example.com for this session',
    ]);
    const read: ToolCallRequest = { agent: child, toolUseId: 't', toolName: 'read_file', kind: 'read', input: { path: '/etc/x' }, summary: '/etc/x', paths: ['/etc/x'] };
    assert.deepEqual(labels(question(read)), ['allow: Allow', 'deny: Deny']);
  });

  it('the modal: More choices… first (the button VS Code focuses: a stray Enter decides nothing), Allow, the narrowest wider answer, Deny on Escape', () => {
    assert.deepEqual(modalButtons(question(bash(child, 'npm test'))), [
      { title: 'More choices…' },
      { title: 'Allow', decision: 'allow' },
      { title: 'Allow “npm test” for this session', decision: 'allow_session' },
      { title: 'Deny', decision: 'deny', isCloseAffordance: true },
    ]);
    assert.deepEqual(modalButtons(question({ agent: child, toolUseId: 't', toolName: 'write_file', kind: 'write', input: {}, summary: 'a', paths: ['a'] }))[2], { title: 'Allow every file edit in the workspace for this subagent', decision: 'allow_agent' });
    assert.equal(plainLabel('Allow `a` and `b`'), 'Allow “a” and “b”');
  });
});
