/**
 * The built CLI where users sit: behind an HTTP proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, either case), in
 * front of an endpoint with a private CA (NODE_EXTRA_CA_CERTS) or under a gateway's path prefix. The proxies and
 * the Messages-API servers are on 127.0.0.1; each test checks what the proxy saw, not only that the run worked.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';
import { startForwardingProxy, startProxy, startRefusingProxy, type TestProxy } from '../kit/http-proxy';
import { must } from '../kit/must';
import { assertBuilt, lastJsonLine, runDelegate, type CliRun } from '../kit/run-cli';
import { cliDirs } from '../kit/temp-dirs';
import { makeTestCa, type TestCa } from '../kit/test-ca';

describe('delegate CLI behind a proxy', function () {
  this.timeout(30_000);
  let ca: TestCa;
  const open: { close(): Promise<void> }[] = [];
  const track = <T extends { close(): Promise<void> }>(x: T): T => (open.push(x), x);

  before(() => {
    assertBuilt();
    ca = makeTestCa();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((x) => x.close()));
  });

  const ask = async (api: MessagesApiServer, env: Record<string, string>, args: string[] = []): Promise<CliRun> => {
    const dirs = cliDirs();
    return runDelegate(['-p', 'Say hello.', '--cwd', dirs.workdir, '--output-format', 'json', ...args], {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL, XDG_DATA_HOME: dirs.dataHome, ...env },
    });
  };
  const completed = (run: CliRun, text: string) => {
    assert.equal(run.code, 0, run.stderr);
    const result = lastJsonLine(run.stdout);
    assert.equal(result.status, 'completed');
    assert.equal(result.result, text);
  };
  const httpsApi = () => startMessagesApiServer({ tls: { key: ca.key, cert: ca.cert } }).then(track);

  it('HTTP_PROXY: an http endpoint under a path prefix is asked through the proxy with an absolute URI', async () => {
    const api = track(await startMessagesApiServer({ pathPrefix: '/anthropic' }));
    const proxy = track(await startProxy());
    api.script(reply.text('Hello through the proxy.'));
    const run = await ask(api, { HTTP_PROXY: proxy.url });
    completed(run, 'Hello through the proxy.');
    assert.deepEqual(proxy.seen, [`POST ${api.baseURL}/v1/messages`]);
    assert.ok(api.baseURL.endsWith('/anthropic'));
    assert.deepEqual(api.messageRequests().map((r) => r.path), ['/anthropic/v1/messages'], 'the server saw the prefix');
  });

  it('a base URL with a path prefix, no proxy: the prefix reaches the server', async () => {
    const api = track(await startMessagesApiServer({ pathPrefix: '/gateway/anthropic/' }));
    api.script(reply.text('Prefixed.'));
    completed(await ask(api, {}), 'Prefixed.');
    assert.deepEqual(api.requests.map((r) => r.path), ['/gateway/anthropic/v1/messages']);
  });

  it('HTTPS_PROXY: CONNECT to an https endpoint with a private CA (NODE_EXTRA_CA_CERTS), proxy credentials from the URL', async () => {
    const api = await httpsApi();
    const proxy = track(await startProxy({ credentials: 'alice:p@ss w0rd' }));
    api.script(reply.text('Tunnelled.'));
    const run = await ask(api, { HTTPS_PROXY: `http://alice:p%40ss%20w0rd@127.0.0.1:${proxy.port}`, NODE_EXTRA_CA_CERTS: ca.caFile });
    completed(run, 'Tunnelled.');
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${api.port}`]);
    assert.deepEqual(proxy.authorizations, ['alice:p@ss w0rd']);
    assert.equal(api.messageRequests().length, 1);
  });

  it('an https:// proxy: TLS to the proxy as well as inside the tunnel, both trusted through NODE_EXTRA_CA_CERTS', async () => {
    const api = await httpsApi();
    const proxy = track(await startProxy({ tls: { key: ca.key, cert: ca.cert } }));
    assert.match(proxy.url, /^https:/);
    api.script(reply.text('Twice encrypted.'));
    completed(await ask(api, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile }), 'Twice encrypted.');
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${api.port}`]);
  });

  it('https with a private CA and no proxy: works with NODE_EXTRA_CA_CERTS, and says why without it', async () => {
    const api = await httpsApi();
    api.script(reply.text('Trusted.'));
    completed(await ask(api, { NODE_EXTRA_CA_CERTS: ca.caFile }), 'Trusted.');
    const untrusted = await ask(api, {});
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.stderr, /cannot reach https:\/\/127\.0\.0\.1:\d+: Connection error: unable to verify the first certificate/);
  });

  it('lower case wins: https_proxy is used over a dead HTTPS_PROXY, http_proxy over a dead HTTP_PROXY', async () => {
    const api = await httpsApi();
    const proxy = track(await startProxy());
    api.script(reply.text('Lower case.'));
    completed(await ask(api, { https_proxy: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:9', NODE_EXTRA_CA_CERTS: ca.caFile }), 'Lower case.');
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${api.port}`]);

    const plain = track(await startMessagesApiServer());
    plain.script(reply.text('Lower case, http.'));
    completed(await ask(plain, { http_proxy: proxy.url, HTTP_PROXY: 'http://127.0.0.1:9' }), 'Lower case, http.');
    assert.equal(proxy.seen[1], `POST ${plain.baseURL}/v1/messages`);
  });

  it('NO_PROXY / no_proxy bypass the proxy: it records nothing', async () => {
    const api = await httpsApi();
    const proxy = track(await startProxy());
    api.script(reply.text('Direct.'), reply.text('Direct again.'), reply.text('Direct by port.'), reply.text('Proxied: another port.'));
    const env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile };
    completed(await ask(api, { ...env, NO_PROXY: 'example.com,127.0.0.1' }), 'Direct.');
    completed(await ask(api, { ...env, no_proxy: '*' }), 'Direct again.');
    completed(await ask(api, { ...env, NO_PROXY: `127.0.0.1:${api.port}` }), 'Direct by port.');
    assert.deepEqual(proxy.seen, []);
    completed(await ask(api, { ...env, NO_PROXY: 'example.com,127.0.0.1:1' }), 'Proxied: another port.');
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${api.port}`], 'a NO_PROXY entry for another port does not match');
    assert.equal(api.messageRequests().length, 4);
  });

  it('a proxy that refuses or is down: one line naming the proxy (never its password), not the API', async () => {
    const api = await httpsApi();
    const needsAuth = track(await startProxy({ credentials: 'alice:right' }));
    const gateway = track(await startRefusingProxy(502, 'Bad Gateway'));
    const env = { NODE_EXTRA_CA_CERTS: ca.caFile };

    const noCredentials = await ask(api, { ...env, HTTPS_PROXY: needsAuth.url });
    assert.equal(noCredentials.code, 1);
    assert.match(noCredentials.stderr, new RegExp(`^delegate: the proxy http://127\\.0\\.0\\.1:${needsAuth.port} \\(HTTPS_PROXY\\) wants credentials \\(407 Proxy Authentication Required\\): put them in HTTPS_PROXY: http://user:password@host:port`, 'm'));

    const wrong = await ask(api, { ...env, https_proxy: `http://alice:wrong-secret@127.0.0.1:${needsAuth.port}` });
    assert.match(wrong.stderr, /the proxy http:\/\/127\.0\.0\.1:\d+ \(https_proxy\) wants credentials \(407 Proxy Authentication Required\): the user and password in https_proxy were not accepted/);
    assert.ok(!wrong.stderr.includes('wrong-secret') && !wrong.stdout.includes('wrong-secret'), 'the password is never shown');
    assert.ok(needsAuth.seen.length > 0 && needsAuth.seen.every((s) => s === `CONNECT 127.0.0.1:${api.port}`), needsAuth.seen.join(', '));

    const plain = track(await startMessagesApiServer());
    const plainNoCredentials = await ask(plain, { HTTP_PROXY: needsAuth.url });
    assert.match(plainNoCredentials.stderr, /the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTP_PROXY\) wants credentials \(407 Proxy Authentication Required\): put them in HTTP_PROXY/);
    assert.ok(needsAuth.seen.includes(`POST ${plain.baseURL}/v1/messages`), 'the absolute-URI request reached the proxy');
    assert.equal(plain.requests.length, 0);

    const refused = await ask(api, { ...env, HTTPS_PROXY: gateway.url });
    assert.match(refused.stderr, new RegExp(`the proxy http://127\\.0\\.0\\.1:${gateway.port} \\(HTTPS_PROXY\\) refused to connect to 127\\.0\\.0\\.1:${api.port} \\(502 Bad Gateway\\)`));

    const down = await ask(api, { ...env, HTTPS_PROXY: 'http://127.0.0.1:9' });
    assert.match(down.stderr, /cannot connect to the proxy http:\/\/127\.0\.0\.1:9 \(HTTPS_PROXY\): connect ECONNREFUSED 127\.0\.0\.1:9/);

    const unsupported = await ask(api, { ...env, ALL_PROXY: 'socks5://127.0.0.1:1080' });
    assert.match(unsupported.stderr, /ALL_PROXY names a socks5 proxy \(socks5:\/\/127\.0\.0\.1:1080\): only http:\/\/ and https:\/\/ proxies are supported/);

    for (const run of [noCredentials, wrong, plainNoCredentials, refused, down, unsupported]) {
      assert.equal(run.code, 1);
      assert.doesNotMatch(run.stderr, /cannot reach/, 'the API is not blamed');
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    }
    assert.equal(api.requests.length, 0, 'nothing got past the proxies');
  });

  it('web_fetch goes through the same proxy (HTTP_PROXY), and NO_PROXY lets it go direct', async () => {
    const page: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the page text'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => page.close(() => resolve())) });
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/notes.txt`;
    const api = track(await startMessagesApiServer());
    const proxy: TestProxy = track(await startProxy());
    api.script(reply.toolUse({ name: 'web_fetch', input: { url: pageUrl } }), reply.text('Fetched.'));
    completed(await ask(api, { HTTP_PROXY: proxy.url }, ['--allowed-tools', 'web_fetch(domain:127.0.0.1)']), 'Fetched.');
    assert.equal(String(lastToolResults(must(api.messageRequests()[1], 'the second request'))[0]?.content), 'the page text');
    assert.deepEqual(proxy.seen, [`POST ${api.baseURL}/v1/messages`, `GET ${pageUrl}`, `POST ${api.baseURL}/v1/messages`]);

    api.script(reply.toolUse({ name: 'web_fetch', input: { url: pageUrl } }), reply.text('Fetched directly.'));
    const pagePort = new URL(pageUrl).port;
    completed(await ask(api, { HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${pagePort}` }, ['--allowed-tools', 'web_fetch(domain:127.0.0.1)']), 'Fetched directly.');
    assert.equal(proxy.seen.length, 5, 'the two model requests only');
    assert.ok(!proxy.seen.slice(3).includes(`GET ${pageUrl}`));
  });
  it('web_fetch of a host only the proxy can resolve goes through the proxy (this machine has no DNS for it)', async () => {
    const page: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('outside page'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => page.close(() => resolve())) });
    const api = track(await startMessagesApiServer());
    // The "proxy" sends everything to the page server, as a real one would send docs.example.invalid to its host.
    const proxy: TestProxy = track(await startForwardingProxy({ host: '127.0.0.1', port: (page.address() as AddressInfo).port }));
    const outside = 'http://docs.example.invalid/guide.txt';
    api.script(reply.toolUse({ name: 'web_fetch', input: { url: outside } }), reply.text('Fetched.'));
    completed(await ask(api, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }, ['--allowed-tools', 'web_fetch']), 'Fetched.');
    assert.equal(String(lastToolResults(must(api.messageRequests()[1], 'the second request'))[0]?.content), 'outside page');
    assert.deepEqual(proxy.seen, [`GET ${outside}`]);

    // Without a proxy the same name is an error the model can read.
    api.script(reply.toolUse({ name: 'web_fetch', input: { url: outside } }), reply.text('Could not.'));
    completed(await ask(api, {}, ['--allowed-tools', 'web_fetch']), 'Could not.');
    assert.match(String(lastToolResults(must(api.messageRequests()[3], 'the fourth request'))[0]?.content), /could not fetch http:\/\/docs\.example\.invalid\/guide\.txt: its host could not be resolved/);
  });
});
