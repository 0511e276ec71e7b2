// web_fetch's guard: which addresses are private, the permission decisions (plan mode, an untrusted workspace, a
// private host in every mode, per-host session answers and rules), and the tool's hops: DNS resolved once and the
// checked address connected to, a redirect from a public host to 127.0.0.1 asked about at that hop, and the whole
// pipeline (the approver is asked with the host, a refusal is an error result naming it).
//
// "Public" is modelled without leaving the machine: pages are served on 127.0.0.2, which the tests' classifier calls
// public (Linux routes all of 127/8 to the loopback), while 127.0.0.1 stays private as the real rules say.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { executeToolCall } from '../../../src/core/loop/tool-executor';
import { readCalls, type OpenCall } from '../../../src/core/loop/call-records';
import { agentEmitter } from '../../../src/core/events';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import { ToolRules } from '../../../src/core/policy/tool-rules';
import type { Approver, ToolCallRequest } from '../../../src/core/policy/types';
import { privateRange } from '../../../src/core/tools/private-address';
import { ToolRegistry, type PrivateDestination, type ToolResult } from '../../../src/core/tools/types';
import { createWebFetchTool, type WebFetchOptions } from '../../kit/web-fetch-tool';
import { headlessApprover } from '../../../src/cli/headless-approver';
import { fakeConfig, fakeGate, fakeOutputs, recordingBus } from '../../kit/run-services';
import type { PermissionMode } from '../../../src/core/vocabulary';

const agent = { agentId: 'main', parentId: null, depth: 0 };
const fetchReq = (url: string, extra: Partial<ToolCallRequest> = {}): ToolCallRequest => ({ agent, toolUseId: 't', toolName: 'web_fetch', kind: 'external', input: { url }, summary: url, paths: [], readOnly: true, ...extra });
const loopback: PrivateDestination = { host: '127.0.0.1', port: '8080', address: '127.0.0.1', range: 'loopback', url: 'http://127.0.0.1:8080/admin' };
const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];
/** The real rules, except that 127.0.0.2 counts as a public address (where the "public" test server listens). */
const testClassify = (address: string) => (address === '127.0.0.2' ? undefined : privateRange(address));

describe('web_fetch guard: private addresses', () => {
  it('loopback, unspecified, link-local, RFC 1918, unique-local, CGNAT and IPv6 forms of them are private; public ones are not', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['127.8.9.10', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['fc00::1', 'unique-local'],
      ['fd12:3456::1', 'unique-local'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
      ['2002:c0a8:0101::1', 'private'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['100.128.0.1', undefined],
      ['2606:4700::1111', undefined],
      ['64:ff9b::808:808', undefined],
      ['example.com', undefined],
    ];
    assert.deepEqual(cases.map(([a]) => [a, privateRange(a)]), cases);
  });
});

describe('web_fetch guard: permission decisions', () => {
  const policy = (mode: PermissionMode, opts: { trusted?: boolean; allowed?: string[] } = {}) =>
    new PermissionPolicy({ workdir: '/tmp', mode, ...(opts.trusted !== undefined ? { trusted: opts.trusted } : {}), ...(opts.allowed ? { rules: new ToolRules({ allowed: opts.allowed }) } : {}) });

  it('a public host: asked in default, acceptEdits and plan (plan says why), allowed in bypassPermissions; an untrusted workspace asks in every mode', async () => {
    const url = 'https://docs.example.com/a';
    const verdicts = await Promise.all(MODES.map((m) => policy(m).check(fetchReq(url))));
    assert.deepEqual(verdicts.map((v) => v.behavior), ['ask', 'ask', 'ask', 'allow']);
    assert.match(verdicts[2]?.behavior === 'ask' ? verdicts[2].reason : '', /^plan mode is read-only, but a fetch can carry what the agent read out in its URL: web_fetch wants to fetch https:\/\/docs\.example\.com\/a$/);
    const untrusted = await Promise.all(MODES.map((m) => policy(m, { trusted: false }).check(fetchReq(url))));
    assert.deepEqual(untrusted.map((v) => v.behavior), ['ask', 'ask', 'ask', 'ask']);
    assert.match(untrusted[3]?.behavior === 'ask' ? untrusted[3].reason : '', /^the workspace is not trusted/);
  });

  it('"Allow for this session" covers that host only; a domain rule allows its host (and *.domain its subdomains) even in plan mode', async () => {
    const p = policy('default');
    p.rememberForSession(fetchReq('https://docs.example.com/a'));
    assert.equal((await p.check(fetchReq('https://DOCS.example.com/other'))).behavior, 'allow');
    assert.equal((await p.check(fetchReq('https://evil.example.net/?q=secret'))).behavior, 'ask');
    const ruled = policy('plan', { allowed: ['WebFetch(domain:docs.example.com)', 'web_fetch(domain:*.nodejs.org)'] });
    assert.equal((await ruled.check(fetchReq('https://docs.example.com/x'))).behavior, 'allow');
    assert.equal((await ruled.check(fetchReq('https://api.nodejs.org/x'))).behavior, 'allow');
    assert.equal((await ruled.check(fetchReq('https://nodejs.org/x'))).behavior, 'ask');
    assert.equal((await ruled.check(fetchReq('https://example.org/x'))).behavior, 'ask');
    assert.deepEqual(new ToolRules({ allowed: ['web_fetch(https://x.org)'] }).warnings, ['allowed tool rule "web_fetch(https://x.org)": web_fetch rules name a host as domain:HOST (web_fetch(domain:example.com)), so it is ignored']);
  });

  it('a private destination is asked in every mode, bypassPermissions and a whole-tool rule included; a rule or a session answer naming the host allows it', async () => {
    const asked = fetchReq(loopback.url, { summary: 'fetch from this machine: 127.0.0.1:8080', privateDestination: loopback });
    for (const mode of MODES) {
      const v = await policy(mode, { allowed: ['web_fetch'] }).check(asked);
      assert.equal(v.behavior, 'ask', mode);
      assert.match(v.behavior === 'ask' ? v.reason : '', /web_fetch wants to fetch from this machine: 127\.0\.0\.1:8080 \(http:\/\/127\.0\.0\.1:8080\/admin\); fetches to this machine or a private network are asked in every permission mode/);
    }
    assert.equal((await policy('bypassPermissions', { allowed: ['web_fetch(domain:127.0.0.1)'] }).check(asked)).behavior, 'allow');
    assert.equal((await policy('plan', { allowed: ['web_fetch(domain:127.0.0.1)'] }).check(asked)).behavior, 'allow');
    const p = policy('default');
    p.rememberForSession(asked);
    assert.equal((await p.check(asked)).behavior, 'allow');
    assert.equal((await p.check({ ...asked, privateDestination: { ...loopback, host: '10.0.0.5', address: '10.0.0.5', range: 'private' } })).behavior, 'ask', 'another private host is asked');
    // A first-stage answer for a name does not cover that name turning out private.
    const named = policy('default');
    named.rememberForSession(fetchReq('http://nas.lan/'));
    assert.equal((await named.check(fetchReq('http://nas.lan/', { privateDestination: { ...loopback, host: 'nas.lan', address: '192.168.1.5', range: 'private' } }))).behavior, 'ask');
  });

  it('a URL private as written skips the first question (the private one names it); a disallowed web_fetch is refused outright', async () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://localhost:3000/', 'http://app.localhost/']) {
      assert.equal((await policy('plan').check(fetchReq(url))).behavior, 'allow', url);
    }
    const denied = new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions', rules: new ToolRules({ disallowed: ['WebFetch'] }) });
    assert.equal((await denied.check(fetchReq('http://127.0.0.1/', { privateDestination: loopback }))).behavior, 'deny');
  });

  it('the headless CLI refuses naming the rule that allows that host', async () => {
    const plan = await headlessApprover.ask(fetchReq('https://docs.example.com/a'), 'plan mode is read-only…', new AbortController().signal);
    assert.match(plan.reason ?? '', /rerun with --allowed-tools "web_fetch\(domain:docs\.example\.com\)" \(or --allowed-tools web_fetch for every host\) to allow it$/);
    const local = await headlessApprover.ask(fetchReq(loopback.url, { privateDestination: loopback }), 'r', new AbortController().signal);
    assert.match(local.reason ?? '', /rerun with --allowed-tools "web_fetch\(domain:127\.0\.0\.1\)" \(bypassPermissions does not cover it\) to allow it$/);
  });
});

describe('web_fetch guard: hops', () => {
  let publicServer: Server;
  let localServer: Server;
  let port: number;
  const hits: string[] = [];
  before(async () => {
    // The same port on two loopback addresses: which one answered tells where the connection went.
    publicServer = createServer((req, res) => {
      hits.push(`public ${req.url}`);
      if (req.url === '/to-local') res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
      else if (req.url === '/to-localhost') res.writeHead(302, { location: `http://localhost:${port}/secret` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`public page ${req.url}`);
    });
    await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve));
    port = (publicServer.address() as AddressInfo).port;
    localServer = createServer((req, res) => {
      hits.push(`local ${req.url}`);
      if (req.url === '/again') res.writeHead(302, { location: '/secret' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('the local secret');
    });
    await new Promise<void>((resolve) => localServer.listen(port, '127.0.0.1', resolve));
  });
  after(() => {
    publicServer.close();
    localServer.close();
  });
  beforeEach(() => void hits.splice(0));

  const lookups: string[] = [];
  /** public.test → 127.0.0.2 the first time, then 127.0.0.1 (a rebind); localhost → 127.0.0.1. */
  const lookup = async (host: string): Promise<LookupAddress[]> => {
    lookups.push(host);
    if (host === 'public.test') return [{ address: lookups.filter((h) => h === host).length === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  const run = (url: string, ask?: (d: PrivateDestination) => Promise<string | undefined>, opts: WebFetchOptions = {}): Promise<ToolResult> => {
    lookups.splice(0);
    return createWebFetchTool({ lookup, classify: testClassify, ...opts }).execute({ url }, { signal: new AbortController().signal, agentId: 'a', toolUseId: 't', ...(ask ? { allowPrivateDestination: ask } : {}) });
  };

  it('resolves a host once and connects to the address it checked (a rebind to 127.0.0.1 is never used)', async () => {
    const r = await run(`http://public.test:${port}/page`);
    assert.equal(r.content, 'public page /page');
    assert.deepEqual(lookups, ['public.test']);
    assert.deepEqual(hits, ['public /page']);
  });

  it('a redirect from a public host to 127.0.0.1 is asked at that hop, naming the host; refused, nothing is fetched from it', async () => {
    const asked: PrivateDestination[] = [];
    const refused = await run(`http://public.test:${port}/to-local`, async (d) => (asked.push(d), 'Permission denied: the user denied this call'));
    assert.deepEqual(asked, [{ host: '127.0.0.1', port: String(port), address: '127.0.0.1', range: 'loopback', url: `http://127.0.0.1:${port}/secret` }]);
    assert.equal(refused.isError, true);
    assert.equal(refused.content, 'Permission denied: the user denied this call');
    assert.deepEqual(hits, ['public /to-local']);
    const allowed = await run(`http://public.test:${port}/to-local`, async () => undefined);
    assert.match(allowed.content, /^the local secret/);
  });

  it('without a way to ask (a tool run outside the pipeline) a private host is refused; localhost is private whatever DNS says', async () => {
    const direct = await run(`http://127.0.0.1:${port}/secret`);
    assert.equal(direct.isError, true);
    assert.equal(direct.content, `Permission denied: http://127.0.0.1:${port}/secret is on this machine (loopback), and fetches there need a permission naming the host`);
    const named = await run(`http://public.test:${port}/to-localhost`, undefined, { lookup: async (h) => (lookups.push(h), [{ address: '127.0.0.2', family: 4 }]) });
    assert.match(named.content, /localhost:\d+\/secret is on this machine \(127\.0\.0\.2, loopback\)/);
    assert.deepEqual(hits, ['public /to-localhost']);
  });

  it('the time limit counts the network only: a question answered after it still fetches', async () => {
    const slowAnswer = (): Promise<undefined> => new Promise((resolve) => setTimeout(() => resolve(undefined), 400));
    const r = await run(`http://127.0.0.1:${port}/secret`, slowAnswer, { timeoutMs: 200 });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(r.content, 'the local secret');
    const hung = await run('http://public.test/', undefined, { timeoutMs: 200, lookup: () => new Promise<LookupAddress[]>(() => undefined) });
    assert.equal(hung.content, 'could not fetch http://public.test/: no answer within 0.2 s', 'a lookup that never answers counts against the limit');
  });

  it('one answer covers a redirect back to the same private host; an unknown host is a clear error', async () => {
    let asks = 0;
    const r = await run(`http://127.0.0.1:${port}/again`, async () => (asks++, undefined));
    assert.equal(r.content.split('\n')[0], 'the local secret');
    assert.equal(asks, 1);
    const unknown = await run('http://nowhere.test/');
    assert.equal(unknown.isError, true);
    assert.match(unknown.content, /^could not fetch http:\/\/nowhere\.test\/: its host could not be resolved: getaddrinfo ENOTFOUND nowhere\.test$/);
  });

  it('through the pipeline: the approver is asked with the host in bypassPermissions too; a refusal is an error result naming it, "Allow for this session" keeps that host', async () => {
    const asked: ToolCallRequest[] = [];
    let answer: 'deny' | 'allow_session' = 'deny';
    const approver: Approver = { ask: async (request) => (asked.push(request), answer === 'deny' ? { decision: 'deny', reason: 'the user denied this call' } : { decision: 'allow_session' }) };
    const { bus, events } = recordingBus();
    const gate = fakeGate({ permissions: new PermissionPolicy({ workdir: '/tmp', mode: 'bypassPermissions' }), approver });
    const tools = new ToolRegistry([createWebFetchTool({ lookup, classify: testClassify })]);
    const scope = { identity: agent, tools, gate, outputs: fakeOutputs(), limits: fakeConfig().limits, emit: agentEmitter(bus, 'main', null), signal: new AbortController().signal };
    const call = (id: string) => executeToolCall(readCalls([{ type: 'tool_use', id, name: 'web_fetch', input: { url: `http://public.test:${port}/to-local` }, caller: { type: 'direct' } }], tools)[0] as OpenCall, scope);
    lookups.splice(0);
    const refused = await call('tu_1');
    assert.equal(refused.is_error, true);
    assert.match(String(refused.content), /^Permission denied: the user denied this call\. Do not retry it/);
    assert.equal(asked.length, 1, 'the public first hop is not asked in bypassPermissions; the private one is');
    assert.equal(asked[0]?.summary, `fetch from this machine: 127.0.0.1:${port}`);
    assert.equal(asked[0]?.privateDestination?.host, '127.0.0.1');
    assert.ok(events.some((e) => e.type === 'permission_asked' && /fetch from this machine: 127\.0\.0\.1/.test(e.reason)));
    answer = 'allow_session';
    lookups.splice(0);
    assert.match(String((await call('tu_2')).content), /^the local secret/);
    lookups.splice(0);
    assert.match(String((await call('tu_3')).content), /^the local secret/);
    assert.equal(asked.length, 2, 'the session answer covers the host from then on');
  });
});
