/**
 * The proxy a request goes through, from the environment, as curl and Claude Code read it (proxy-from-env):
 *
 *   NO_PROXY / no_proxy matches the host (`*`, `host`, `.suffix`, `host:port`)?  ──▶ direct (null)
 *   https://… ──▶ HTTPS_PROXY, else ALL_PROXY ──▶ HttpsProxyAgent: `CONNECT host:443` to the proxy, TLS inside the
 *                                                tunnel (the endpoint's certificate is checked as without a proxy)
 *   http://…  ──▶ HTTP_PROXY,  else ALL_PROXY ──▶ HttpProxyAgent: the request, with an absolute URI, to the proxy
 *
 * Lower case wins over upper case. A proxy URL without a scheme is http:// (curl's reading: proxy-from-env would
 * take the target's scheme, i.e. TLS to the proxy). `user:password@` in the proxy URL becomes Basic
 * Proxy-Authorization. One keep-alive agent per proxy and scheme, as http-fetch.ts keeps one per scheme.
 * Loaded only when env-proxy.ts saw a proxy variable: these packages stay off a start without one.
 */
import type { Agent } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';
import { ProxyFailure, showProxy, type ProxyRoute } from './env-proxy';

const agents = new Map<string, Agent>();

function variableFor(protocol: string, env: NodeJS.ProcessEnv): string {
  // proxy-from-env's order.
  const scheme = protocol.replace(/:$/, '');
  for (const name of [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY']) if (env[name]) return name;
  return `${scheme.toUpperCase()}_PROXY`;
}

/** The agent that takes `url` through the environment's proxy, or null when it goes direct. */
export function proxyRoute(url: URL): ProxyRoute | null {
  const env = process.env; // what proxy-from-env reads
  const chosen = getProxyForUrl(url.href);
  if (!chosen) return null;
  const variable = variableFor(url.protocol, env);
  const raw = (env[variable] ?? chosen).trim();
  let proxy: URL;
  try {
    proxy = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new ProxyFailure(`${variable} is not a URL (expected http://host:port)`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new ProxyFailure(`${variable} names a ${proxy.protocol.replace(/:$/, '')} proxy (${showProxy(proxy)}): only http:// and https:// proxies are supported`);
  }
  const key = `${url.protocol} ${proxy.href}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = url.protocol === 'https:' ? new HttpsProxyAgent(proxy, { keepAlive: true }) : new HttpProxyAgent(proxy, { keepAlive: true });
    agents.set(key, agent);
  }
  return { agent, proxy, variable };
}
