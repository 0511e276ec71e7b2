/**
 * The `fetch` the SDK is given: HTTP/1.1 over node:http / node:https with keep-alive, answering with a
 * LiteResponse (status, headers, `body` as a web ReadableStream, text/json/arrayBuffer, clone).
 *
 * Why not Node's own fetch: on Node 20 its first use loads undici, 40–50 ms of CPU that the CLI paid before
 * every first request (and `new Response(...)` or touching `Headers` loads it too). What the SDK reads
 * of a response is listed above; what it sends is a string body with headers it built.
 *
 * Kept from fetch: redirects followed (≤ 20; 303, and 301/302 after a POST, become a GET; credentials
 * dropped across origins), gzip/deflate/br answers decoded, `fetch failed` TypeErrors carrying the socket
 * error as `cause` (the model's error messages name it), and an abort that rejects, or errors the body,
 * with the signal's reason (an AbortError).
 *
 * Where the socket comes from (createHttpFetch's `agents`):
 *   'own'  (the CLI)     our keep-alive agents; with HTTPS_PROXY / HTTP_PROXY / ALL_PROXY set, the proxy's agent
 *                        from env-proxy-agents.ts unless NO_PROXY says direct. A proxy that refuses (407, 502…)
 *                        or cannot be reached fails with a ProxyFailure naming it (env-proxy.ts).
 *   'host' (the editor)  no agent of ours: VS Code's extension host patches http/https.request and picks the
 *                        proxy from http.proxy / http.proxySupport / http.noProxy (and the same variables); with
 *                        an agent of our own, `http.proxySupport: on` would send the request direct
 *                        (docs/real-editor.md, "Proxy").
 */
import type { IncomingMessage, RequestOptions } from 'node:http';
import * as http from 'node:http';
import type { Readable } from 'node:stream';
import { envProxyConfigured, proxyRefused, proxyUnreachable, type ProxyRoute } from './env-proxy';
import { LiteHeaders, type HeadersLike } from './lite-headers';
import { LiteResponse } from './lite-response';

export { LiteResponse, withBody } from './lite-response';

export type FetchBody = string | ArrayBuffer | ArrayBufferView | AsyncIterable<Uint8Array> | null | undefined;

export interface FetchInit {
  method?: string;
  headers?: HeadersLike;
  body?: FetchBody;
  signal?: AbortSignal | null;
  /** 'follow' (the default) or 'manual' (the redirect response is returned as is). */
  redirect?: 'follow' | 'manual' | 'error';
  /**
   * Resolves the host instead of DNS (web_fetch: the addresses it checked, so a DNS rebind cannot swap them).
   * The request then gets a socket of its own, never a kept-alive one that was connected elsewhere.
   */
  lookup?: RequestOptions['lookup'];
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const MAX_REDIRECTS = 20;

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

// One keep-alive pool per protocol, as undici keeps one per origin. Idle sockets do not hold the process open.
let httpAgent: http.Agent | undefined;
let httpsModule: typeof import('node:https') | undefined;
let httpsAgent: http.Agent | undefined;

/** See the top of this file. */
export type AgentChoice = 'own' | 'host';

interface Transport {
  request: typeof http.request;
  /** undefined: the module's global agent (keep-alive too since Node 19), as the host patched it. */
  agent: http.Agent | undefined;
  /** Set when the request goes through a proxy from the environment. */
  proxy?: ProxyRoute;
}

async function transport(url: URL, agents: AgentChoice): Promise<Transport> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`fetch failed`, { cause: new Error(`unsupported protocol ${url.protocol}`) });
  // TLS loads only for an https endpoint.
  const request = url.protocol === 'http:' ? http.request : (httpsModule ??= await import('node:https')).request;
  if (agents === 'host') return { request, agent: undefined };
  if (envProxyConfigured()) {
    // Loaded only now: a start without a proxy variable never parses the proxy packages.
    const { proxyRoute } = await import('./env-proxy-agents');
    let proxy: ProxyRoute | null;
    try {
      proxy = proxyRoute(url);
    } catch (err) {
      throw new TypeError('fetch failed', { cause: err });
    }
    if (proxy) return { request, agent: proxy.agent, proxy };
  }
  if (url.protocol === 'http:') return { request, agent: (httpAgent ??= new http.Agent({ keepAlive: true })) };
  return { request, agent: (httpsAgent ??= new (httpsModule as typeof import('node:https')).Agent({ keepAlive: true })) };
}

function bodyBytes(body: FetchBody): Uint8Array | string | AsyncIterable<Uint8Array> | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') return body;
  throw new TypeError('fetch: unsupported body type (a string, bytes or an async iterable of bytes)');
}

export type HttpFetch = (input: string | URL | { url: string }, init?: FetchInit) => Promise<LiteResponse>;

/** A fetch whose sockets come from `agents` (see the top of this file). */
export function createHttpFetch(agents: AgentChoice): HttpFetch {
  return (input, init) => fetchWith(agents, input, init);
}

/** The CLI's: own keep-alive agents, the environment's proxy. */
export const httpFetch: HttpFetch = createHttpFetch('own');

async function fetchWith(agents: AgentChoice, input: string | URL | { url: string }, init: FetchInit = {}): Promise<LiteResponse> {
  let url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  let method = (init.method ?? 'GET').toUpperCase();
  const headers = new LiteHeaders(init.headers);
  let body = bodyBytes(init.body);
  const signal = init.signal ?? undefined;
  for (let redirects = 0; ; redirects++) {
    if (signal?.aborted) throw abortReason(signal);
    const res = await send(agents, url, method, headers, body, signal, init.lookup);
    const location = res.headers.location;
    const isRedirect = [301, 302, 303, 307, 308].includes(res.statusCode ?? 0) && location !== undefined;
    if (!isRedirect || init.redirect === 'manual' || (typeof body === 'object' && !(body instanceof Uint8Array))) {
      return respond(res, url, redirects > 0, signal);
    }
    res.resume();
    if (init.redirect === 'error' || redirects >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect refused or too many redirects') });
    const next = new URL(location, url);
    if (next.origin !== url.origin) for (const h of ['authorization', 'proxy-authorization', 'cookie']) headers.delete(h);
    if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(h);
    }
    url = next;
  }
}

/**
 * One request. A kept-alive socket the server closed while it sat idle fails at once (ECONNRESET, "socket
 * hang up") before any answer: that request is sent again on a new socket, once, as Node's docs advise
 * (`request.reusedSocket`) and as fetch does. A body that cannot be replayed (a stream) is not retried.
 */
async function send(
  agents: AgentChoice,
  url: URL,
  method: string,
  headers: LiteHeaders,
  body: ReturnType<typeof bodyBytes>,
  signal: AbortSignal | undefined,
  lookup?: RequestOptions['lookup'],
): Promise<IncomingMessage> {
  const sendOnce = (): Promise<IncomingMessage> => transport(url, agents).then((t) => sendOn(t, url, method, headers, body, signal, lookup));
  try {
    return await sendOnce();
  } catch (err) {
    const replayable = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
    if (!(err instanceof StaleSocket) || !replayable || signal?.aborted) throw err instanceof StaleSocket ? err.failure : err;
    return sendOnce().catch((again: unknown) => {
      throw again instanceof StaleSocket ? again.failure : again;
    });
  }
}

/** A reused keep-alive socket that turned out closed: `failure` is what fetch would report. */
class StaleSocket extends Error {
  constructor(readonly failure: unknown) {
    super('stale keep-alive socket');
  }
}

function sendOn(
  { request, agent, proxy }: Transport,
  url: URL,
  method: string,
  headers: LiteHeaders,
  body: ReturnType<typeof bodyBytes>,
  signal: AbortSignal | undefined,
  lookup?: RequestOptions['lookup'],
): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const out: Record<string, string> = Object.fromEntries(headers.entries());
    // What fetch adds when the caller did not say (undici: br only over TLS).
    out['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
    if (typeof body === 'string') out['content-length'] ??= String(Buffer.byteLength(body));
    else if (body instanceof Uint8Array) out['content-length'] ??= String(body.byteLength);
    // A pinned lookup (web_fetch connects only to the addresses it checked) gets a socket of its own: a pooled one
    // may be older than the check. Through a proxy the proxy connects; in the editor its agent may be swapped for
    // VS Code's proxy agent, so the lookup rides along without taking the agent away.
    const options: RequestOptions =
      lookup && !proxy ? { method, headers: out, agent: agent === undefined ? undefined : false, lookup } : { method, headers: out, agent };
    const req = request(url, options);
    const onAbort = () => req.destroy(abortReason(signal as AbortSignal) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    let tunnelled = false;
    const failWith = (failure: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      reject(failure);
      req.destroy();
    };
    if (proxy) {
      // https-proxy-agent's answer to our CONNECT; on a refusal it would hand the proxy's own response (407…)
      // to the caller as if the endpoint had sent it.
      req.once('proxyConnect', (connect: { statusCode: number; statusText?: string }) => {
        tunnelled = connect.statusCode === 200;
        if (!tunnelled) failWith(new TypeError('fetch failed', { cause: proxyRefused(proxy, url, connect.statusCode, connect.statusText) }));
      });
    }
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      // Through HTTP_PROXY (absolute URI) a 407 can only be the proxy's.
      if (proxy && res.statusCode === 407) {
        res.resume();
        return failWith(new TypeError('fetch failed', { cause: proxyRefused(proxy, url, 407, res.statusMessage) }));
      }
      resolve(res);
    });
    // `on`, not `once`: a socket can fail again after the first error, and an unheard 'error' would throw.
    req.on('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(abortReason(signal));
      // Through a proxy, the only connection we open is to the proxy: a failure to connect, or a close before
      // its answer to CONNECT, is the proxy's.
      const proxyDown = proxy && !tunnelled && (err.syscall === 'connect' || err.syscall === 'getaddrinfo' || /^Proxy connection ended/.test(err.message));
      const failure = new TypeError('fetch failed', { cause: proxyDown ? proxyUnreachable(proxy, err) : err });
      reject(req.reusedSocket && err.code === 'ECONNRESET' ? new StaleSocket(failure) : failure);
    });
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) req.end(body);
    else void pump(body, req);
  });
}

async function pump(body: AsyncIterable<Uint8Array>, req: http.ClientRequest): Promise<void> {
  try {
    for await (const chunk of body) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
    req.end();
  } catch (err) {
    req.destroy(err instanceof Error ? err : new Error(String(err)));
  }
}

async function respond(res: IncomingMessage, url: URL, redirected: boolean, signal: AbortSignal | undefined): Promise<LiteResponse> {
  const headers = new LiteHeaders();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers, url: url.href, redirected };
  if (NULL_BODY_STATUS.has(status)) {
    res.resume();
    return new LiteResponse(null, init);
  }
  let source: Readable = res;
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate' || coding === 'br') {
    const zlib = await import('node:zlib');
    const decoder = coding === 'br' ? zlib.createBrotliDecompress() : coding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    res.on('error', (err) => decoder.destroy(err));
    source = res.pipe(decoder);
  }
  return new LiteResponse(webBody(res, source, signal), init);
}

/**
 * The response body as a web stream, read as it is pulled. It errors (never ends cleanly) when the
 * connection drops before the message is complete, and with the signal's reason on an abort.
 */
function webBody(res: IncomingMessage, source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let onAbort: (() => void) | undefined;
  let settled = false;
  const done = () => {
    settled = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (err: unknown) => {
        if (settled) return;
        done();
        controller.error(err);
      };
      onAbort = () => {
        const reason = abortReason(signal as AbortSignal);
        fail(reason);
        res.destroy();
        source.destroy();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      source.on('data', (chunk: Buffer) => {
        // Bytes already read when the reader cancelled are dropped, as fetch drops them.
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.once('end', () => {
        if (settled) return;
        done();
        controller.close();
      });
      source.on('error', (err) => fail(new TypeError('terminated', { cause: err })));
      // A connection that closes mid-message: undici says "terminated" too.
      res.once('close', () => {
        if (!res.complete) fail(new TypeError('terminated', { cause: new Error('other side closed') }));
      });
    },
    pull() {
      if (!settled) source.resume();
    },
    cancel() {
      done();
      res.destroy();
      source.destroy();
    },
  });
}

/** Does the environment's proxy take this URL (HTTPS_PROXY… and NO_PROXY, as httpFetch decides)? */
export async function envProxyTakes(url: URL): Promise<boolean> {
  if (!envProxyConfigured()) return false;
  const { proxyRoute } = await import('./env-proxy-agents');
  try {
    return proxyRoute(url) !== null;
  } catch {
    return false; // an unsupported proxy: the request itself says so
  }
}
