/**
 * The Response that http-fetch.ts answers with: what the SDK and the watchdog read of a fetch Response (status,
 * headers, `body` as a web ReadableStream, text/json/arrayBuffer, clone), without loading undici (see http-fetch.ts).
 */
import { LiteHeaders, type HeadersLike } from './lite-headers';

interface ResponseInit {
  status: number;
  statusText?: string;
  headers?: HeadersLike;
  url?: string;
  redirected?: boolean;
}

/** A fetch Response as far as the SDK and the watchdog use one. */
export class LiteResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic';
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(body: ReadableStream<Uint8Array> | null, init: ResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers instanceof LiteHeaders ? init.headers : new LiteHeaders(init.headers);
    this.url = init.url ?? '';
    this.redirected = init.redirected ?? false;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  clone(): LiteResponse {
    if (this.#used || this.body?.locked) throw new TypeError('Response.clone: the body has already been used');
    let body: ReadableStream<Uint8Array> | null = null;
    if (this.#body) {
      // As fetch's clone does: this response keeps one branch of the tee, the clone gets the other.
      const [a, b] = this.#body.tee();
      this.#body = a;
      body = b;
    }
    return new LiteResponse(body, this);
  }

  async #bytes(): Promise<Uint8Array> {
    if (this.#used || this.body?.locked) throw new TypeError('Response: the body has already been read');
    this.#used = true;
    if (!this.body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = this.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) out.set(c, (at += c.byteLength) - c.byteLength);
    return out;
  }
}

/** The same response with another body (what a middleware returns when it wraps the stream). */
export function withBody(res: { status: number; statusText: string; headers: HeadersLike; url: string }, body: ReadableStream<Uint8Array> | null): LiteResponse {
  return new LiteResponse(body, { status: res.status, statusText: res.statusText, headers: res.headers, url: res.url });
}

/**
 * `body` with an async iterator of its own that calls `onChunk` for every chunk and never releases the reader's lock
 * (the body is read to its end or cancelled, and nothing reads it after that). What the SDK iterates a streamed
 * response by. Not a `pipeThrough(new TransformStream())`, nor Node's own iterator: on Node 20 the first release of a
 * web stream's reader or writer (a pipe's end does both, the SDK's iterator the reader's) builds Node's cross-realm
 * regular expression, which creates a new V8 context: 2.6–12 ms once per process, before the second request went out
 * (docs/benchmarks.md, issue 30 target 2). The body is still a ReadableStream for every other reader.
 */
export function observedBody(body: ReadableStream<Uint8Array>, onChunk: () => void): ReadableStream<Uint8Array> {
  Object.defineProperty(body, Symbol.asyncIterator, {
    configurable: true,
    value: (): AsyncIterableIterator<Uint8Array> => {
      const reader = body.getReader();
      const iterator: AsyncIterableIterator<Uint8Array> = {
        async next() {
          const read = await reader.read();
          if (!read.done) onChunk();
          return read.done ? { done: true, value: undefined } : { done: false, value: read.value };
        },
        async return() {
          await reader.cancel();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
  });
  return body;
}
