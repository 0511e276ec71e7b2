/**
 * A `Headers` of our own, with the WHATWG class's behaviour (case-insensitive names, values trimmed and
 * validated, iteration sorted by name with values joined by ", ", set-cookie kept apart).
 *
 * Why: on Node 20 the global `Headers` (like `fetch`, `Request`, `Response`, `FormData`) is a lazy getter
 * that loads undici, ~40 ms of CPU. The SDK builds a `Headers` for every request, so the CLI would pay
 * that before its first request even though http-fetch.ts never uses undici. The CLI bundle gives the
 * SDK's modules this class instead (scripts/build.mjs, sdk-web-globals.ts); elsewhere it is only what
 * http-fetch.ts returns as a response's headers.
 */

/** What a Headers constructor accepts: another Headers (ours or the platform's), pairs, or a record. */
export type HeadersLike = { entries(): IterableIterator<[string, string]> } | Iterable<readonly [string, string]> | Record<string, string | readonly string[]>;

// RFC 9110 token characters: what a header name may hold.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Leading and trailing HTTP whitespace (tab, space, CR, LF) is stripped; NUL, CR and LF inside are refused.
const EDGE_WS = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const BAD_VALUE = /[\0\r\n]/;

function checkName(name: string): string {
  const n = String(name);
  if (!TOKEN.test(n)) throw new TypeError(`Headers: invalid header name "${n}"`);
  return n.toLowerCase();
}

function normalizeValue(name: string, value: string): string {
  const v = String(value).replace(EDGE_WS, '');
  if (BAD_VALUE.test(v)) throw new TypeError(`Headers: invalid value for header "${name}"`);
  return v;
}

export class LiteHeaders {
  /** Lower-case name → its values in the order they were appended. */
  readonly #map = new Map<string, string[]>();

  constructor(init?: HeadersLike | null) {
    if (init == null) return;
    if (typeof (init as { entries?: unknown }).entries === 'function' && !Array.isArray(init)) {
      for (const [name, value] of (init as { entries(): IterableIterator<[string, string]> }).entries()) this.append(name, value);
    } else if (Symbol.iterator in Object(init)) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each header pair must be [name, value]');
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const [name, value] of Object.entries(init as Record<string, string | readonly string[]>)) {
        this.append(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
    }
  }

  append(name: string, value: string): void {
    const key = checkName(name);
    const v = normalizeValue(key, value);
    const list = this.#map.get(key);
    if (list) list.push(v);
    else this.#map.set(key, [v]);
  }

  set(name: string, value: string): void {
    const key = checkName(name);
    this.#map.set(key, [normalizeValue(key, value)]);
  }

  delete(name: string): void {
    this.#map.delete(checkName(name));
  }

  has(name: string): boolean {
    return this.#map.has(checkName(name));
  }

  get(name: string): string | null {
    return this.#map.get(checkName(name))?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#map.get('set-cookie') ?? [])];
  }

  /** Sorted by name; set-cookie values one pair each, every other name once with its values joined. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#map.keys()].sort()) {
      const values = this.#map.get(name) ?? [];
      if (name === 'set-cookie') for (const v of values) yield [name, v];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}
