/**
 * A real HTTP proxy on 127.0.0.1 for the CLI's proxy tests: the `proxy` package (by https-proxy-agent's author, who
 * tests with it): CONNECT tunnels for https, absolute-URI requests for http; with `credentials` ('user:pass')
 * anything without that Basic Proxy-Authorization gets 407. What reached it is recorded (proxy-recorder.ts).
 */
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createProxy } from 'proxy';
import { decode, listen, type TestProxy } from './proxy-recorder';

export { startForwardingProxy, startRefusingProxy, type TestProxy } from './proxy-recorder';

/** With `tls` the proxy itself speaks HTTPS (an `https://` proxy URL). */
export async function startProxy(opts: { credentials?: string; tls?: { key: string; cert: string } } = {}): Promise<TestProxy> {
  const server = createProxy(opts.tls ? createTlsServer(opts.tls) : createServer());
  if (opts.credentials !== undefined) server.authenticate = (req) => decode(req) === opts.credentials;
  const proxy = await listen(server);
  return opts.tls ? { ...proxy, url: proxy.url.replace(/^http:/, 'https:') } : proxy;
}

