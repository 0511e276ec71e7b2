/**
 * Proxies on 127.0.0.1 for the proxy tests, each recording what reached it:
 *
 *   startProxy({ credentials? })   http-proxy.ts: the `proxy` package (not here: it cannot be bundled for the
 *                                  extension host, its pkg.js needs import.meta.url)
 *   startRefusingProxy(status)     answers every CONNECT and every request with `status` (a 502 gateway)
 *   startForwardingProxy(upstream) sends every request and tunnel to `upstream` whatever host it names: for the
 *                                  extension host, where VS Code sends 127.0.0.1 and localhost direct always
 *                                  (the client names 127.0.0.2, where nothing listens), and where the `proxy`
 *                                  package's own upstream requests would be sent to the proxy by VS Code's patch
 *
 * `seen` holds one line per request: `CONNECT host:port` or `METHOD absolute-url`; `authorizations` the
 * Proxy-Authorization headers that came (decoded), '' where none did.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  port: number;
  seen: string[];
  authorizations: string[];
  close(): Promise<void>;
}

export function decode(req: IncomingMessage): string {
  const header = req.headers['proxy-authorization'];
  return header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : (header ?? '');
}

export async function listen(server: Server): Promise<TestProxy> {
  const seen: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  // Ahead of the proxy's own listeners: every request is recorded, the refused ones too.
  server.prependListener('request', (req: IncomingMessage) => {
    seen.push(`${req.method} ${req.url}`);
    authorizations.push(decode(req));
  });
  server.prependListener('connect', (req: IncomingMessage) => {
    seen.push(`CONNECT ${req.url}`);
    authorizations.push(decode(req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function startRefusingProxy(status: number, statusText: string): Promise<TestProxy> {
  const server = createServer((_req, res) => {
    res.writeHead(status, statusText, { 'content-type': 'text/plain' });
    res.end(`${status} ${statusText}\n`);
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(`HTTP/1.1 ${status} ${statusText}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  });
  return listen(server);
}

export async function startForwardingProxy(upstream: { host: string; port: number }): Promise<TestProxy> {
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const out = request({ host: upstream.host, port: upstream.port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(out);
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket, head: Buffer) => {
    const up = connect(upstream.port, upstream.host, () => {
      socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    socket.on('error', () => up.destroy());
  });
  return listen(server);
}
