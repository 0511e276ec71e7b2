// The SDK's fetch over node:http (http-fetch.ts) and its Headers (lite-headers.ts), held to what Node's own
// fetch does: the same answers from a local server, redirects, decoding, and the same failures.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { httpFetch, withBody } from '../../../src/core/llm/http-fetch';
import { LiteHeaders } from '../../../src/core/llm/lite-headers';
import { Headers as SdkHeaders } from '../../../src/core/llm/sdk-web-globals';
import { must } from '../../kit/must';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('LiteHeaders', () => {
  it('behaves as the platform Headers: names, order, joined values, set-cookie apart, validation', () => {
    const ops = (h: { append(n: string, v: string): void; set(n: string, v: string): void; delete(n: string): void }) => {
      h.append('X-B', ' two ');
      h.append('x-b', 'three');
      h.set('Content-Type', 'application/json');
      h.append('Set-Cookie', 'a=1');
      h.append('set-cookie', 'b=2');
      h.append('A-First', '1');
      h.delete('a-first');
      h.append('z', '');
    };
    const mine = new LiteHeaders();
    const platform = new Headers();
    ops(mine);
    ops(platform);
    assert.deepEqual([...mine], [...platform]);
    assert.equal(mine.get('X-b'), platform.get('X-b'));
    assert.equal(mine.get('set-cookie'), platform.get('set-cookie'));
    assert.deepEqual(mine.getSetCookie(), platform.getSetCookie());
    assert.equal(mine.get('missing'), null);
    assert.equal(mine.has('CONTENT-type'), true);
    assert.throws(() => mine.set('bad name', 'x'), TypeError);
    assert.throws(() => new Headers().set('bad name', 'x'), TypeError);
    assert.throws(() => mine.set('x', 'a\nb'), TypeError);
    assert.deepEqual([...new LiteHeaders(platform)], [...platform], 'built from a platform Headers');
    assert.deepEqual([...new LiteHeaders([['A', '1']])], [['a', '1']]);
    assert.deepEqual([...new LiteHeaders({ A: '1', b: ['2', '3'] })], [['a', '1'], ['b', '2, 3']]);
    assert.equal(Object.prototype.toString.call(mine), '[object Headers]');
  });

  it("is what the SDK's modules in the CLI bundle see as Headers, the platform's instances included", () => {
    assert.ok(new SdkHeaders() instanceof SdkHeaders);
    assert.ok(new LiteHeaders() instanceof SdkHeaders);
    assert.ok(new Headers() instanceof SdkHeaders);
    assert.ok(!({} instanceof SdkHeaders));
  });
});

describe('httpFetch (node:http, for the SDK)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server) await close(server);
    server = undefined;
  });

  it('sends method, headers and body, and answers with status, headers, text and json', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    let url: string;
    ({ url, server } = await serve((req, res, body) => {
      seen = { method: req.method, headers: req.headers, body };
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end(JSON.stringify({ ok: true, é: 'ü' }));
    }));
    const res = await httpFetch(`${url}/v1/x?q=1`, { method: 'post', headers: new LiteHeaders({ 'x-api-key': 'k', 'content-type': 'application/json' }), body: '{"a":"é"}' });
    assert.equal(seen.method, 'POST');
    assert.equal(seen.headers?.['x-api-key'], 'k');
    assert.equal(seen.headers?.['content-length'], String(Buffer.byteLength('{"a":"é"}')));
    assert.equal(seen.headers?.['accept-encoding'], 'gzip, deflate');
    assert.equal(seen.body, '{"a":"é"}');
    assert.equal(res.status, 201);
    assert.equal(res.statusText, 'Made');
    assert.equal(res.ok, true);
    assert.equal(res.url, `${url}/v1/x?q=1`);
    assert.equal(res.headers.get('Request-Id'), 'req_1');
    assert.equal(res.bodyUsed, false);
    const copy = res.clone();
    assert.deepEqual(await res.json(), { ok: true, é: 'ü' });
    assert.equal(res.bodyUsed, true);
    assert.equal(await copy.text(), '{"ok":true,"é":"ü"}');
    await assert.rejects(res.text(), TypeError);
  });

  it('streams the body as it comes, and decodes a gzip answer', async () => {
    let url: string;
    ({ url, server } = await serve((req, res) => {
      if (req.url === '/gz') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        return res.end(gzipSync('packed text'));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: a\n\n');
      setTimeout(() => res.end('event: b\n\n'), 30);
    }));
    const res = await httpFetch(`${url}/sse`);
    const reader = must(res.body, 'body').getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), 'event: a\n\n');
    assert.ok(first.value instanceof Uint8Array);
    const second = await reader.read();
    assert.equal(new TextDecoder().decode(second.value), 'event: b\n\n');
    assert.equal((await reader.read()).done, true);
    assert.equal(await (await httpFetch(`${url}/gz`)).text(), 'packed text');
  });

  it('follows redirects: 303 becomes a GET without body, credentials stay on the same origin only', async () => {
    const other = await serve((req, res) => res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null })));
    try {
      let url: string;
      ({ url, server } = await serve((req, res, body) => {
        if (req.url === '/see-other') return res.writeHead(303, { location: '/landed' }).end();
        if (req.url === '/temp') return res.writeHead(307, { location: '/landed' }).end();
        if (req.url === '/away') return res.writeHead(302, { location: `${other.url}/there` }).end();
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
      }));
      const init = { method: 'POST', body: 'payload', headers: { authorization: 'Bearer t' } };
      const a = await httpFetch(`${url}/see-other`, init);
      assert.deepEqual(await a.json(), { method: 'GET', body: '', auth: 'Bearer t' });
      assert.equal(a.redirected, true);
      assert.equal(a.url, `${url}/landed`);
      assert.deepEqual(await (await httpFetch(`${url}/temp`, init)).json(), { method: 'POST', body: 'payload', auth: 'Bearer t' });
      assert.deepEqual(await (await httpFetch(`${url}/away`, init)).json(), { method: 'GET', auth: null });
      const manual = await httpFetch(`${url}/temp`, { ...init, redirect: 'manual' });
      assert.equal(manual.status, 307);
    } finally {
      await close(other.server);
    }
  });

  it('fails as fetch does: "fetch failed" with the socket error as cause; a cut body errors, never ends', async () => {
    const refused = await serve(() => undefined);
    await close(refused.server);
    const err = await httpFetch(refused.url).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TypeError && err.message === 'fetch failed');
    assert.equal((err.cause as NodeJS.ErrnoException).code, 'ECONNREFUSED');

    let url: string;
    ({ url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    }));
    const res = await httpFetch(url);
    await assert.rejects(res.text(), (e: unknown) => e instanceof TypeError && e.message === 'terminated');
  });

  it('an abort rejects with an AbortError before the answer, and errors the body after it', async () => {
    let url: string;
    ({ url, server } = await serve((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      res.writeHead(200);
      res.write('first');
    }));
    const before = new AbortController();
    const pending = httpFetch(`${url}/slow`, { signal: before.signal });
    setTimeout(() => before.abort(), 20);
    await assert.rejects(pending, (e: unknown) => (e as Error).name === 'AbortError');

    const during = new AbortController();
    const res = await httpFetch(`${url}/open`, { signal: during.signal });
    const reader = must(res.body, 'body').getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), 'first');
    during.abort();
    await assert.rejects(reader.read(), (e: unknown) => (e as Error).name === 'AbortError');
    await assert.rejects(httpFetch(url, { signal: during.signal }), (e: unknown) => (e as Error).name === 'AbortError');
  });

  it('withBody keeps status and headers and swaps the body (what the idle watchdog returns)', async () => {
    let url: string;
    ({ url, server } = await serve((_req, res) => res.writeHead(200, { 'x-a': '1' }).end('orig')));
    const res = await httpFetch(url);
    const swapped = withBody(res, must(res.body, 'body').pipeThrough(new TransformStream<Uint8Array, Uint8Array>()));
    assert.equal(swapped.status, 200);
    assert.equal(swapped.headers.get('x-a'), '1');
    assert.equal(await swapped.text(), 'orig');
  });
  it('sends a request again on a new socket when the kept-alive one was closed by the server (once; never a stream body)', async () => {
    // The server drops the second request on any socket at once, as a server does that closed an idle
    // keep-alive connection just as the client reused it.
    const perSocket = new Map<unknown, number>();
    const seen: string[] = [];
    let url: string;
    ({ url, server } = await serve((req, res, body) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      seen.push(`${body || req.url} #${n}`);
      if (n > 1) return req.socket.destroy();
      res.writeHead(200, { connection: 'keep-alive' }).end(`ok ${body || req.url}`);
    }));
    assert.equal(await (await httpFetch(`${url}/a`)).text(), 'ok /a');
    assert.equal(await (await httpFetch(url, { method: 'POST', body: 'b' })).text(), 'ok b', 'replayed on a fresh socket');
    assert.deepEqual(seen, ['/a #1', 'b #2', 'b #1']);

    async function* stream(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('c');
    }
    await assert.rejects(httpFetch(url, { method: 'POST', body: stream() }), (e: unknown) => e instanceof TypeError && e.message === 'fetch failed');
    assert.equal(seen.at(-1), 'c #2', 'a stream body is not sent twice');
  });
});
