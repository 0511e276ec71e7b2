/**
 * What http-fetch.ts needs to know about a proxy before it loads any proxy code: whether the environment names
 * one at all (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, each also lower case, as curl reads them), and the error a
 * proxy's refusal becomes. With none of those variables set (the common case) the CLI's start pays for nothing
 * more than these reads; env-proxy-agents.ts (proxy-from-env, https-proxy-agent, http-proxy-agent) loads only
 * when one is set. Node 20 has no proxy support of its own (NODE_USE_ENV_PROXY came with Node 22.21 and 24.5).
 */
import type { Agent } from 'node:http';

/** Where env-proxy-agents.ts routes a request: declared here so neither file imports the other back. */
export interface ProxyRoute {
  agent: Agent;
  /** The proxy (credentials included: never show it as is, see showProxy). */
  proxy: URL;
  /** The variable it came from, e.g. HTTPS_PROXY, for the user's error line. */
  variable: string;
}

const VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

/** True when some request may have to go through a proxy (NO_PROXY is looked at per request, later). */
export function envProxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return VARIABLES.some((name) => !!env[name]?.trim());
}

/**
 * The proxy, not the endpoint behind it, failed: it refused the tunnel (407, 502…), or could not be reached.
 * Its message is the one line the user sees; it names the proxy (without its credentials) and the variable
 * it came from. Carried as the `cause` of fetch's `TypeError('fetch failed')`.
 */
export class ProxyFailure extends Error {
  override name = 'ProxyFailure';
}

/** The proxy as it may be shown: scheme, host and port, never the user and password in it. */
export function showProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** The first ProxyFailure in an error's cause chain, if any. */
export function proxyFailureIn(err: unknown): ProxyFailure | undefined {
  for (let e = err, i = 0; e instanceof Error && i < 8; e = e.cause, i++) if (e instanceof ProxyFailure) return e;
  return undefined;
}

/** The proxy answered our CONNECT (or, for an http endpoint, the request) with `status`, not 200. */
export function proxyRefused(route: ProxyRoute, url: URL, status: number, statusText: string | undefined): ProxyFailure {
  const proxy = `the proxy ${showProxy(route.proxy)} (${route.variable})`;
  const answer = `${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 407) {
    const hint = route.proxy.username ? `the user and password in ${route.variable} were not accepted` : `put them in ${route.variable}: http://user:password@host:port`;
    return new ProxyFailure(`${proxy} wants credentials (${answer}): ${hint}`);
  }
  const target = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  return new ProxyFailure(`${proxy} refused to connect to ${target} (${answer})`);
}

/** The proxy could not be reached, or closed the connection before it answered. */
export function proxyUnreachable(route: ProxyRoute, err: Error): ProxyFailure {
  return new ProxyFailure(`cannot connect to the proxy ${showProxy(route.proxy)} (${route.variable}): ${err.message}`, { cause: err });
}
