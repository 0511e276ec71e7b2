// web_fetch against pages served on 127.0.0.1: HTML as markdown, plain text, redirects (checked), limits,
// refused schemes, a prompt answered by the model, and how it is permitted. The server is on this machine, so each
// call is given the private-destination permission it needs (web-fetch-guard.test.ts tests that question).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import type { ToolResult } from '../../../src/core/tools/types';
import { createWebFetchTool, type WebFetchInput } from '../../kit/web-fetch-tool';

const PAGE = `<!doctype html><html><head><title>T</title><style>body{}</style><script>alert(1)</script></head>
<body><h1>Release notes</h1><p>Version <b>2.1</b> fixes <a href="/bugs/42">bug 42</a>.</p><ul><li>faster</li><li>smaller</li></ul>
<pre><code>npm i thing</code></pre></body></html>`;

describe('web_fetch', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      else if (req.url === '/text') res.writeHead(200, { 'content-type': 'text/plain' }).end('just text');
      else if (req.url === '/moved') res.writeHead(302, { location: '/page' }).end();
      else if (req.url === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/big') res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3000));
      else if (req.url === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2000);
      else res.writeHead(404).end('nope');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const run = (input: WebFetchInput, opts: Parameters<typeof createWebFetchTool>[0] = {}): Promise<ToolResult> =>
    createWebFetchTool(opts).execute(input, { signal: new AbortController().signal, agentId: 'a', toolUseId: 't', allowPrivateDestination: async () => undefined });

  it('turns HTML into markdown without scripts and styles', async () => {
    const r = await run({ url: `${base}/page` });
    assert.equal(r.isError, undefined);
    assert.match(r.content, /^# Release notes/);
    assert.match(r.content, /Version \*\*2\.1\*\* fixes \[bug 42\]\(\/bugs\/42\)\./);
    assert.match(r.content, /- faster\n- smaller/);
    assert.match(r.content, /```\nnpm i thing\n```/);
    assert.doesNotMatch(r.content, /alert|body\{\}/);
  });

  it('follows redirects (checked each time), returns text as is, refuses other schemes and loops', async () => {
    assert.match((await run({ url: `${base}/moved` })).content, /# Release notes[\s\S]*\[fetched .*\/moved \(redirected to .*\/page\)\]/);
    assert.equal((await run({ url: `${base}/text` })).content, 'just text');
    assert.match((await run({ url: `${base}/to-file` })).content, /redirected to a URL that is not fetched: only http and https/);
    assert.match((await run({ url: `${base}/loop` })).content, /too many redirects/);
    for (const url of ['file:///etc/passwd', 'ftp://x/y', 'javascript:alert(1)', 'not a url']) assert.equal((await run({ url })).isError, true, url);
    assert.match((await run({ url: `${base}/missing` })).content, /HTTP 404/);
    assert.match((await run({ url: `${base}/image` })).content, /image\/png .*not text/);
  });

  it('cuts at the size limit and gives up at the time limit', async () => {
    assert.match((await run({ url: `${base}/big` }, { maxBytes: 1000 })).content, /^x{1000}\n\n\[the page was cut at/);
    const slow = await run({ url: `${base}/slow` }, { timeoutMs: 300 });
    assert.equal(slow.isError, true);
    assert.match(slow.content, /no answer within 0\.3 s/);
  });

  it('answers a prompt from the page with the model', async () => {
    let seen = '';
    const r = await run({ url: `${base}/page`, prompt: 'Which version?' }, { ask: async (page, prompt) => ((seen = `${prompt}|${page.slice(0, 15)}`), 'Version 2.1') });
    assert.equal(seen, 'Which version?|# Release notes');
    assert.match(r.content, /^Version 2\.1\n\n\[answered from http/);
  });

  it('is asked in default, acceptEdits and plan, allowed in bypassPermissions (a public host)', async () => {
    const tool = createWebFetchTool();
    const url = 'https://docs.example.com/page';
    const req = { agent: { agentId: 'main', parentId: null, depth: 0 }, toolUseId: 't', toolName: tool.name, kind: tool.kind, input: { url }, summary: url, paths: [], readOnly: tool.readOnly };
    const policy = new PermissionPolicy({ workdir: '/tmp', mode: 'default' });
    const verdicts: string[] = [];
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      policy.setMode(mode);
      verdicts.push((await policy.check(req)).behavior);
    }
    assert.deepEqual(verdicts, ['ask', 'ask', 'ask', 'allow']);
  });
});
