// Which proxy a request takes from the environment (env-proxy-agents.ts over proxy-from-env), and what is shown of
// it. The requests themselves go through a real proxy in test/cli/proxy.test.ts.
import assert from 'node:assert/strict';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { envProxyConfigured, ProxyFailure, proxyFailureIn, showProxy } from '../../../src/core/llm/env-proxy';
import { proxyRoute } from '../../../src/core/llm/env-proxy-agents';
import { must } from '../../kit/must';

const NAMES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'];

describe('the proxy from the environment', () => {
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
    for (const n of NAMES) Reflect.deleteProperty(process.env, n);
  });
  afterEach(() => {
    for (const [n, v] of Object.entries(saved)) {
      if (v === undefined) Reflect.deleteProperty(process.env, n);
      else process.env[n] = v;
    }
  });

  it('is configured only by a non-blank proxy variable (NO_PROXY alone is not one)', () => {
    assert.equal(envProxyConfigured({}), false);
    assert.equal(envProxyConfigured({ HTTPS_PROXY: '  ', NO_PROXY: '*' }), false);
    assert.equal(envProxyConfigured({ all_proxy: 'http://p:1' }), true);
  });

  it('by scheme: CONNECT agent for https, absolute-URI agent for http, ALL_PROXY for both, one agent per proxy', () => {
    process.env.HTTPS_PROXY = 'http://secure-proxy:3128';
    process.env.ALL_PROXY = 'http://any-proxy:8080';
    const https = must(proxyRoute(new URL('https://api.anthropic.com/v1/messages')));
    assert.ok(https.agent instanceof HttpsProxyAgent);
    assert.equal(https.proxy.host, 'secure-proxy:3128');
    assert.equal(https.variable, 'HTTPS_PROXY');
    const http = must(proxyRoute(new URL('http://gateway.internal/v1/messages')));
    assert.ok(http.agent instanceof HttpProxyAgent);
    assert.equal(http.variable, 'ALL_PROXY');
    assert.equal(must(proxyRoute(new URL('https://other.example/'))).agent, https.agent, 'the keep-alive agent is shared');
  });

  it('a proxy without a scheme is http:// (not the target\'s https://); NO_PROXY by host, suffix and port', () => {
    process.env.https_proxy = 'corp-proxy:3128';
    assert.equal(must(proxyRoute(new URL('https://api.anthropic.com/'))).proxy.href, 'http://corp-proxy:3128/');
    process.env.no_proxy = 'exact.example, .corp.example, 10.1.2.3:8443';
    assert.equal(proxyRoute(new URL('https://exact.example/')), null);
    assert.notEqual(proxyRoute(new URL('https://sub.exact.example/')), null, 'a name without a leading dot is that host only');
    assert.equal(proxyRoute(new URL('https://api.corp.example/')), null);
    assert.equal(proxyRoute(new URL('https://10.1.2.3:8443/')), null);
    assert.notEqual(proxyRoute(new URL('https://10.1.2.3/')), null);
  });

  it('refuses what it cannot use with a ProxyFailure, and never shows credentials', () => {
    process.env.ALL_PROXY = 'socks5://user:secret@127.0.0.1:1080';
    assert.throws(() => proxyRoute(new URL('https://api.anthropic.com/')), (err: unknown) => {
      assert.ok(err instanceof ProxyFailure);
      assert.equal(err.message, 'ALL_PROXY names a socks5 proxy (socks5://127.0.0.1:1080): only http:// and https:// proxies are supported');
      return true;
    });
    assert.equal(showProxy(new URL('http://alice:pw@proxy:3128')), 'http://proxy:3128');
    const failure = new ProxyFailure('the proxy said no');
    assert.equal(proxyFailureIn(new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: failure }) })), failure);
    assert.equal(proxyFailureIn(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') })), undefined);
  });
});
