/**
 * `web_fetch{url, prompt?}`: reads a web page for the model (Claude Code's WebFetch).
 *
 *   http(s) only ─▶ per hop: resolve the host once, check every address ─▶ GET to exactly those addresses
 *               ─▶ redirects followed by hand, each hop checked again (30 s; 5 MB) ─▶ HTML → markdown (turndown)
 *               ─▶ with `prompt`: the session's model answers it from the page (a request without tools)
 *
 * It reaches outside Delegate (kind `external`) but changes nothing there; still, a URL can carry what the agent
 * read out of the workspace, so it is asked in default and acceptEdits, in plan and in an untrusted workspace
 * (policy/web-fetch-policy.ts). A hop to this machine or a private network (private-address.ts) needs its own
 * permission naming the host, in every mode: `ctx.allowPrivateDestination`. The result is cut like any output
 * (the whole page is saved beside the transcript).
 * Its requests go where the model's go: http-fetch.ts (HTTPS_PROXY / NO_PROXY in the CLI; the editor passes its
 * own, which leaves the proxy to VS Code). Node 20's own fetch would ignore the proxy variables.
 */
import type { RequestOptions } from 'node:http';
import { pinnedLookup, resolveDestination, systemLookup, unresolvedDestination, type HostLookup } from './fetch-destination';
import { privatePlace, privateRange, type PrivateRange } from './private-address';
import { asRecord, type ParseResult, type Tool, type ToolContext } from './types';

export interface WebFetchInput {
  url: string;
  prompt?: string;
}

/** The response as far as web_fetch reads one (llm/http-fetch.ts's LiteResponse is one). */
export interface PageResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/** The HTTP client web_fetch needs (the session passes llm/http-fetch.ts's): one hop, redirects returned as they are. */
export type PageFetch = (
  url: URL,
  init: { redirect: 'manual'; signal: AbortSignal; lookup?: RequestOptions['lookup']; headers: Record<string, string> },
) => Promise<PageResponse>;

export interface WebFetchOptions {
  /** Answers `prompt` from the page's markdown (the session's model); without it `prompt` is ignored. */
  ask?(page: string, prompt: string, url: string, signal: AbortSignal): Promise<string>;
  timeoutMs?: number;
  maxBytes?: number;
  /** Resolves host names (DNS by default). */
  lookup?: HostLookup;
  /** Which addresses are private (private-address.ts by default; a test can call one of its loopbacks public). */
  classify?: (address: string) => PrivateRange | undefined;
  fetch: PageFetch;
  /** Whether a proxy takes this URL (then a host this machine cannot resolve is the proxy's to resolve). */
  proxied: (url: URL) => Promise<boolean>;
}

const MAX_REDIRECTS = 5;

function checkUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `not a valid URL: ${raw}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs can be fetched (got ${url.protocol})`;
  if (url.username || url.password) return 'URLs with credentials in them are not fetched';
  return url;
}

async function readCapped(res: PageResponse, maxBytes: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= maxBytes) {
      await reader.cancel();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

async function toMarkdown(html: string): Promise<string> {
  // Loaded on first use: the CLI's start does not pay for an HTML parser it may never need.
  const { default: TurndownService } = await import('turndown');
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove(['script', 'style', 'noscript', 'iframe', 'svg', 'head', 'title']);
  return service
    .turndown(html)
    .replace(/^(\s*)([-*]|\d+\.)\s{2,}/gm, '$1$2 ') // turndown pads list markers to four columns
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function createWebFetchTool(opts: WebFetchOptions): Tool<WebFetchInput> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const lookup = opts.lookup ?? systemLookup;
  const classify = opts.classify ?? privateRange;
  const proxied = opts.proxied;
  const doFetch = opts.fetch;
  return {
    name: 'web_fetch',
    description:
      'Fetch a web page (http or https) as markdown, or with "prompt" the answer to it drawn from the page. ' +
      `Pages over ${Math.round(maxBytes / 1048576)} MB are cut; it gives up after ${timeoutMs / 1000} s.`,
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        prompt: { type: 'string' },
      },
      required: ['url'],
    },
    kind: 'external',
    readOnly: true,

    parse(raw): ParseResult<WebFetchInput> {
      const rec = asRecord(raw);
      if (!rec) return { ok: false, error: 'web_fetch input must be an object with a "url" string' };
      if (typeof rec.url !== 'string' || rec.url.trim() === '') return { ok: false, error: 'web_fetch needs "url" (a non-empty string)' };
      if (rec.prompt !== undefined && typeof rec.prompt !== 'string') return { ok: false, error: '"prompt" must be a string' };
      return { ok: true, input: { url: rec.url.trim(), ...(typeof rec.prompt === 'string' && rec.prompt.trim() ? { prompt: rec.prompt.trim() } : {}) } };
    },
    describe: (input) => ({ summary: input.url, paths: [] }),

    async execute(input, ctx) {
      let url = checkUrl(input.url);
      if (typeof url === 'string') return { content: url, isError: true };
      // The time limit counts the network only: a user reading a permission question is not a slow server.
      let spent = 0;
      let signal = ctx.signal;
      // Private hosts allowed once for this call (a redirect back to the same host is not asked again).
      const permitted = new Set<string>();
      let res: PageResponse;
      try {
        for (let hop = 0; ; hop++) {
          const resolving = Date.now();
          signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeoutMs - spent))]);
          const target = url;
          const destination = await untilAborted(resolveDestination(target, lookup, classify), signal).catch(async (err: unknown) => {
            if (signal.aborted) throw err;
            // Behind a proxy, the proxy resolves the name: this machine may have no DNS for the outside at all.
            if (await proxied(target)) return unresolvedDestination(target);
            throw new Error(`its host could not be resolved`, { cause: err });
          });
          spent += Date.now() - resolving;
          if (destination.private && !permitted.has(destination.host)) {
            const refused = await askPrivate(url, destination.host, destination.port, destination.private, ctx);
            if (refused !== undefined) return { content: refused, isError: true };
            permitted.add(destination.host);
          }
          signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeoutMs - spent))]);
          const sending = Date.now();
          res = await doFetch(url, { redirect: 'manual', signal, ...(destination.addresses.length > 0 ? { lookup: pinnedLookup(destination.addresses) } : {}), headers: { 'user-agent': 'Delegate (web_fetch)', accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.5' } });
          spent += Date.now() - sending;
          const location = res.headers.get('location');
          if (res.status < 300 || res.status >= 400 || !location) break;
          await res.body?.cancel().catch(() => undefined);
          if (hop >= MAX_REDIRECTS) return { content: `too many redirects (more than ${MAX_REDIRECTS}) from ${input.url}`, isError: true };
          const next = checkUrl(new URL(location, url).toString());
          if (typeof next === 'string') return { content: `redirected to a URL that is not fetched: ${next}`, isError: true };
          url = next;
        }
      } catch (err) {
        if (ctx.signal.aborted) return { content: 'web_fetch cancelled', isError: true };
        const why = signal.aborted ? `no answer within ${timeoutMs / 1000} s` : err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : String(err);
        return { content: `could not fetch ${input.url}: ${why}`, isError: true };
      }
      const type = res.headers.get('content-type') ?? '';
      const { bytes, cut } = await readCapped(res, maxBytes).catch(() => ({ bytes: new Uint8Array(), cut: false }));
      const from = url.toString() === input.url ? '' : ` (redirected to ${url.toString()})`;
      if (!res.ok) return { content: `HTTP ${res.status} ${res.statusText} from ${url.toString()}`, isError: true };
      if (!/^(text\/|application\/(json|xml|xhtml\+xml|javascript))/.test(type) && type !== '') {
        return { content: `${url.toString()} is ${type} (${bytes.length} bytes): not text, so not shown` };
      }
      const text = Buffer.from(bytes).toString('utf8');
      const page = /html/.test(type) || /^\s*<(!doctype|html)/i.test(text) ? await toMarkdown(text) : text;
      const note = cut ? `\n\n[the page was cut at ${Math.round(maxBytes / 1048576)} MB]` : '';
      if (input.prompt && opts.ask) {
        try {
          const answer = await opts.ask(page, input.prompt, url.toString(), ctx.signal);
          return { content: `${answer}\n\n[answered from ${url.toString()}]` };
        } catch (err) {
          return { content: `could not answer the prompt from ${url.toString()}: ${err instanceof Error ? err.message : String(err)}\n\n${page}${note}`, isError: true };
        }
      }
      return { content: `${page}${note}${from ? `\n\n[fetched ${input.url}${from}]` : ''}` };
    },
  };
}

/** A hop to this machine or a private network: the pipeline asks for it (a refusal names the host and why). */
async function askPrivate(url: URL, host: string, port: string, where: { address: string; range: PrivateRange }, ctx: ToolContext): Promise<string | undefined> {
  const place = `${privatePlace(where.range)} (${where.address === host ? where.range : `${where.address}, ${where.range}`})`;
  if (!ctx.allowPrivateDestination) return `Permission denied: ${url.toString()} is on ${place}, and fetches there need a permission naming the host`;
  return ctx.allowPrivateDestination({ host, port, address: where.address, range: where.range, url: url.toString() });
}

/** A lookup has no signal of its own (getaddrinfo cannot be cancelled): the call stops waiting for it instead. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
