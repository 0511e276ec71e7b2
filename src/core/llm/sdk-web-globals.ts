/**
 * What the SDK's modules see as `Headers`, `FormData` and `Response` (client.mjs also `globalThis.ReadableStream`)
 * in the CLI bundle (scripts/build-cli.mjs imports these names into each of the SDK's files; the globals are
 * untouched, other code still gets Node's).
 *
 * Why: on Node 20 each of those globals is a lazy getter that loads undici (~40 ms of CPU), and the SDK
 * touches `Headers` and `FormData` while it builds every request, though http-fetch.ts sends it without
 * undici. `Headers` becomes LiteHeaders; `FormData` and `Response` stay the platform's classes (created
 * and recognised as before), looked up only when a value could be one.
 */
import { LiteHeaders } from './lite-headers';

/** Tagged `[object Name]`: the platform's instance of that class, known without loading the class itself. */
const tagged = (value: unknown, name: string): boolean => typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === `[object ${name}]`;

export class Headers extends LiteHeaders {
  /** The platform's Headers too: the SDK only calls what both have (get, set, has, delete, entries…). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof LiteHeaders || tagged(value, 'Headers');
  }
}

// The SDK builds a FormData only for file uploads (this CLI sends none) and asks `body instanceof FormData`
// of every JSON body: that question must not load undici, building one may.
export const FormData = new Proxy(function FormData() {}, {
  construct: (_target, args: unknown[]) => Reflect.construct(globalThis.FormData, args),
  get: (target, key) => (key === Symbol.hasInstance ? (value: unknown) => tagged(value, 'FormData') : Reflect.get(target, key)),
});

export const Response = new Proxy(function Response() {}, {
  construct: (_target, args: unknown[]) => Reflect.construct(globalThis.Response, args),
  get: (target, key) => (key === Symbol.hasInstance ? (value: unknown) => tagged(value, 'Response') : Reflect.get(target, key)),
});

// client.mjs asks `instanceof ReadableStream` of every body (a JSON string here) and passes a stream body on: the
// question must not load Node's web streams before the first request; constructing one still gets the platform's.
export const ReadableStream = new Proxy(function ReadableStream() {}, {
  construct: (_target, args: unknown[]) => Reflect.construct(globalThis.ReadableStream, args),
  get: (target, key) => (key === Symbol.hasInstance ? (value: unknown) => tagged(value, 'ReadableStream') : Reflect.get(target, key)),
});
