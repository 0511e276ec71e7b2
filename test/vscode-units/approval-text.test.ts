// The words of the editor's approval modal for web_fetch: the agent and the host; why plan mode and an untrusted
// workspace ask; for a private destination the place, the host and port, and the URL; "Allow for this session"
// covers that host only. (Other tools keep their words: a command, an edit.)
import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../src/core/policy/permissions';
import type { ToolCallRequest } from '../../src/core/policy/types';
import { approvalChoices, approvalText } from '../../src/vscode/approval-text';

const child = { agentId: 'sub1', parentId: 'main', depth: 1, description: 'read the docs' };
const fetchReq = (url: string, extra: Partial<ToolCallRequest> = {}): ToolCallRequest => ({ agent: child, toolUseId: 't', toolName: 'web_fetch', kind: 'external', input: { url }, summary: url, paths: [], readOnly: true, ...extra });

/** The modal for a request as the policy would ask it (its real reason). */
async function modal(policy: PermissionPolicy, request: ToolCallRequest): Promise<{ message: string; detail: string }> {
  const verdict = await policy.check(request);
  assert.equal(verdict.behavior, 'ask');
  return approvalText({ who: 'Subagent “read the docs”', toolName: request.toolName, summary: request.summary, reason: verdict.behavior === 'ask' ? verdict.reason : '', request });
}

describe('vscode/approval-text: web_fetch', () => {
  it('plan mode: names the agent and the host, says why plan mode asks; the session answer covers that host', async () => {
    const url = 'https://docs.example.com/api?q=x';
    assert.deepEqual(await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'plan' }), fetchReq(url)), {
      message: 'Subagent “read the docs” wants to fetch a web page from docs.example.com',
      detail: `${url}\n\nPlan mode is read-only, but a fetch can carry what the agent read out in its URL.\n\n"Allow for this session" allows fetches from docs.example.com until the session ends.\n"Allow for this subagent" allows fetches from docs.example.com for this subagent only; "Allow for this task's subagents" for every subagent of its task, until the session ends.`,
    });
  });

  it('an untrusted workspace says so; default mode asks without a why', async () => {
    const url = 'https://docs.example.com/';
    assert.match((await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions', trusted: false }), fetchReq(url))).detail, /^https:\/\/docs\.example\.com\/\n\nThe workspace is not trusted, and a fetch/);
    assert.equal((await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'default' }), fetchReq(url))).detail, `${url}\n\n"Allow for this session" allows fetches from docs.example.com until the session ends.\n"Allow for this subagent" allows fetches from docs.example.com for this subagent only; "Allow for this task's subagents" for every subagent of its task, until the session ends.`);
  });

  it('a private destination names the place, host and port, and the URL, in bypassPermissions too', async () => {
    const destination = { host: '192.168.1.5', port: '80', address: '192.168.1.5', range: 'private' as const, url: 'http://192.168.1.5/admin' };
    const request = fetchReq('https://short.example/x', { summary: 'fetch from the local network: 192.168.1.5:80', privateDestination: destination });
    assert.deepEqual(await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions' }), request), {
      message: 'Subagent “read the docs” wants to fetch from the local network: 192.168.1.5:80',
      detail: 'The URL: http://192.168.1.5/admin\n\nFetches to this machine or a private network are asked in every permission mode.\n\n"Allow for this session" allows fetches from 192.168.1.5 until the session ends.',
    });
  });

  it('a read-only MCP tool in plan mode says why it is asked; in default mode, no why', async () => {
    const main = { agentId: 'main', parentId: null, depth: 0 };
    const search: ToolCallRequest = { agent: main, toolUseId: 't', toolName: 'mcp__docs__search', kind: 'external', input: { q: 'KEY=1' }, summary: 'q: KEY=1', paths: [], readOnly: true };
    assert.deepEqual(await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'plan' }), search), {
      message: 'Subagent “read the docs” wants to use mcp__docs__search',
      detail:
        'q: KEY=1\n\nPlan mode is read-only, but a read-only tool still sends its input to its server, which can carry what the agent read.\n\n"Allow for this session" allows every call of mcp__docs__search until the session ends.\n"Allow this server for this session" allows every tool of the MCP server "docs" (mcp__docs__*) until the session ends.',
    });
    assert.match((await modal(new PermissionPolicy({ workdir: '/tmp', mode: 'default' }), search)).detail, /^q: KEY=1\n\n"Allow for this session" allows every call/);
    const q = { who: 'The main agent', toolName: search.toolName, summary: search.summary, reason: 'x', request: search };
    assert.deepEqual(approvalChoices(q), ['Allow', 'Allow for this session', 'Allow this server for this session', 'Deny']);
    assert.deepEqual(approvalChoices({ ...q, request: { ...search, agent: child } }), ['Allow', 'Allow for this subagent', "Allow for this task's subagents", 'Allow for this session', 'Allow this server for this session', 'Deny']);
  });

  it('other tools keep their words', () => {
    const bash: ToolCallRequest = { agent: { agentId: 'main', parentId: null, depth: 0 }, toolUseId: 't', toolName: 'bash', kind: 'exec', input: { command: 'npm test' }, summary: 'npm test', paths: [] };
    const q = { who: 'The main agent', toolName: 'bash', summary: 'npm test', reason: 'bash wants to run: npm test', request: bash };
    assert.deepEqual(approvalText(q), {
      message: 'The main agent wants to run a command',
      detail: 'npm test\n\n"Allow for this session" allows this exact command until the session ends.',
    });
    assert.deepEqual(approvalChoices(q), ['Allow', 'Allow for this session', 'Deny']);
  });

  it('a subagent\'s question can also be answered for it alone or for its task, and says what each covers', () => {
    const write: ToolCallRequest = { agent: child, toolUseId: 't', toolName: 'write_file', kind: 'write', input: { path: 'a.txt' }, summary: 'a.txt', paths: ['a.txt'] };
    const q = { who: 'Subagent “read the docs”', toolName: 'write_file', summary: 'a.txt', reason: 'write_file wants to change a.txt', request: write };
    assert.deepEqual(approvalChoices(q), ['Allow', 'Allow for this subagent', "Allow for this task's subagents", 'Allow for this session', 'Deny']);
    assert.equal(
      approvalText(q).detail,
      'a.txt\n\n"Allow for this session" allows every edit inside this folder until the session ends.\n"Allow for this subagent" allows every edit inside this folder for this subagent only; "Allow for this task\'s subagents" for every subagent of its task, until the session ends.',
    );
  });
});
