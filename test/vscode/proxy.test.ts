/**
 * VS Code's proxy settings reach Delegate's requests in the real extension host (docs/real-editor.md, "Proxy").
 * The extension host patches http/https.request (@vscode/proxy-agent): with `http.proxySupport` override or
 * fallback it puts its own agent in place of the caller's, with `on` it leaves a request that brings its own
 * agent alone, with `off` it proxies nothing; 127.0.0.1 and localhost always go direct. So the endpoint here is
 * 127.0.0.2:PORT, where nothing listens: only the proxy (which forwards everything to the server on 127.0.0.1)
 * can answer it, and a request that went direct fails with ECONNREFUSED.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { createHttpFetch, type HttpFetch } from '../../src/core/llm/http-fetch';
import type { DelegateApi } from '../../src/vscode/extension';
import { modalPrompt } from '../../src/vscode/approver';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';
import { startForwardingProxy, type TestProxy } from '../kit/proxy-recorder';
import { must } from '../kit/must';
import { waitUntil } from '../kit/wait';

const EXTENSION_ID = 'delegate-dev.delegate';
type ProxySupport = 'override' | 'fallback' | 'on' | 'off';

describe('VS Code proxy settings in the extension host', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let page: Server;
  let proxy: TestProxy;
  let viaProxy: string;
  const http = () => vscode.workspace.getConfiguration('http');

  before(async () => {
    const ext = vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
    server = await startMessagesApiServer();
    page = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${req.url}`));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    proxy = await startForwardingProxy({ host: '127.0.0.1', port: server.port });
    viaProxy = `http://127.0.0.2:${server.port}`;
    process.env.ANTHROPIC_API_KEY = 'test-key';
    await vscode.workspace.getConfiguration('delegate').update('baseUrl', viaProxy, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('delegate').update('model', 'test-model', vscode.ConfigurationTarget.Global);
    await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    api.approver.prompt = modalPrompt;
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http().update('proxySupport', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('delegate').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await Promise.all([proxy.close(), server.close(), new Promise<void>((resolve) => page.close(() => resolve()))]);
  });

  const setSupport = async (value: ProxySupport) => {
    await http().update('proxySupport', value, vscode.ConfigurationTarget.Global);
    await waitUntil(() => http().get('proxySupport') === value && http().get('proxy') === proxy.url, `http.proxySupport is ${value}`, 10_000);
  };

  /** Whether one GET through `fetch` went through the proxy (it answered) or direct (refused). */
  const probe = async (fetch: HttpFetch, url: string): Promise<'proxy' | 'direct'> => {
    const before = proxy.seen.length;
    try {
      await (await fetch(url)).text();
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      assert.equal(code, 'ECONNREFUSED', `a direct request to ${url} is refused (${String(err)})`);
      assert.equal(proxy.seen.length, before);
      return 'direct';
    }
    assert.deepEqual(proxy.seen.slice(before), [`GET ${url}`]);
    return 'proxy';
  };

  it('the patch, per http.proxySupport: our own keep-alive agent escapes "on"; without one ("host") every value but "off" proxies', async () => {
    const own = createHttpFetch('own');
    const host = createHttpFetch('host');
    const url = `${viaProxy}/probe`;
    const seen: Record<string, { own: string; host: string }> = {};
    for (const value of ['override', 'fallback', 'on', 'off'] as const) {
      await setSupport(value);
      seen[value] = { own: await probe(own, url), host: await probe(host, url) };
    }
    assert.deepEqual(seen, {
      override: { own: 'proxy', host: 'proxy' },
      fallback: { own: 'proxy', host: 'proxy' },
      on: { own: 'direct', host: 'proxy' },
      off: { own: 'direct', host: 'direct' },
    });
  });

  it('127.0.0.1 goes direct whatever http.proxy says', async () => {
    await setSupport('override');
    const before = proxy.seen.length;
    const res = await createHttpFetch('host')(`http://127.0.0.1:${(page.address() as AddressInfo).port}/direct`);
    assert.equal(await res.text(), 'page /direct');
    assert.equal(proxy.seen.length, before);
  });

  it('with http.proxySupport "on", Ask… reaches the Messages API and web_fetch its page through http.proxy', async () => {
    await setSupport('on');
    api.approver.prompt = async () => 'allow';
    api.controller.newSession();
    const before = proxy.seen.length;
    const pageUrl = `${viaProxy}/v1/page.txt`;
    server.script(reply.toolUse({ name: 'web_fetch', input: { url: pageUrl } }), reply.text('Read it through the proxy.'));
    await vscode.commands.executeCommand('delegate.ask', 'Read the page.');
    const seen = proxy.seen.slice(before);
    assert.deepEqual(seen, [`POST ${viaProxy}/v1/messages`, `GET ${pageUrl}`, `POST ${viaProxy}/v1/messages`]);
    // The page request reached the proxy's one upstream, the Messages-API server, which has no such page: 404.
    const result = lastToolResults(must(server.messageRequests().at(-1), 'the last request'))[0];
    assert.match(String(result?.content), /HTTP 404/);
  });
});

