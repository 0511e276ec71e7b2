/**
 * The ModelPort over the real Anthropic SDK: one streamed assistant message per call.
 *
 *   stream(request, signal, callbacks)
 *     attempt ──▶ client.messages.create({stream: true}) — raw events, accumulated by message-accumulator.ts
 *                 (signal: the attempt's own AbortController, linked to `signal`)
 *       │  SDK retries by itself: connection errors, 408/409/429/5xx/529 before the stream starts (maxRetries);
 *       │    each wait before such a retry is said first (onWaiting with `retry`), and one longer than the cap
 *       │    ends the request instead (retry-wait.ts)
 *       │  text deltas ──▶ callbacks.onTextDelta
 *       │  idle watchdog: armed when the response headers arrive, reset by every body chunk (pings count);
 *       │                 no byte for idleTimeoutMs ──▶ abort this attempt
 *       ▼
 *     failed after the stream started (`event: error`, idle, connection dropped)? ──▶ callbacks.onRetry(reason),
 *       new attempt, at most `streamRetries` times. Anything else ──▶ ModelError (one line, no stack).
 *
 * onRetry contract: the failed attempt's text deltas were already forwarded. A host that shows streamed
 * text must treat onRetry as "discard the partial text of this turn": the deltas that follow restart the
 * message from its beginning.
 *
 * Credentials are passed explicitly (apiKey, else authToken): with neither, SDK 1.x would look for
 * profile files, so this client refuses to start a request instead.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Middleware } from '@anthropic-ai/sdk';
// The base client and the one resource used, not the index: the full client builds every resource (beta,
// files, skills…) and the bundle parses ~3× the code (~30 ms of CPU before the CLI's first request).
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import { abortableDelay } from '../errors';
import { withCacheBreakpoints } from './cache-breakpoints';
import { proxyFailureIn } from './env-proxy';
import { httpFetch, withBody, type HttpFetch } from './http-fetch';
import { observedBody } from './lite-response';
import { MessageAccumulator } from './message-accumulator';
import { retryReason, retryWaitOf, retryWaitRefusal, DEFAULT_MAX_RETRY_WAIT_MS, type RetryWaitCap } from './retry-wait';
import { thinkingFields } from './thinking';
import { ModelError, type ModelCallbacks, type ModelPort, type ModelRequest, type ModelResponse } from './types';

export interface AnthropicModelOptions {
  apiKey?: string;
  /** Used only when no apiKey is given. */
  authToken?: string;
  /** Where the credential came from, for an authentication failure's "check …". Default: the variable's name. */
  keyHint?: string;
  /** Defaults to the SDK's (ANTHROPIC_BASE_URL, else https://api.anthropic.com). */
  baseURL?: string;
  /** SDK retries of connection errors and 408/409/429/5xx before a stream starts. Default 2. */
  maxRetries?: number;
  /** Abort and retry an attempt whose stream sends nothing for this long. Default 60 000. */
  idleTimeoutMs?: number;
  /** Harness retries of a stream that failed after it started. Default 2. */
  streamRetries?: number;
  /** Pause before harness retry n (1-based): n × this. Default 500. */
  streamRetryDelayMs?: number;
  /** How long the SDK waits for response headers (per attempt; timeouts are retried). Default 120 000. */
  requestTimeoutMs?: number;
  /** While no response has come, tell the caller (onWaiting) every this many ms. Default 10 000. */
  waitingNoticeMs?: number;
  /** The HTTP client (http-fetch.ts): the CLI's by default; the editor's leaves the proxy to VS Code. */
  fetch?: HttpFetch;
  /** The longest wait before a retry the API may ask for (retry-after), and the setting that raises it. Default 60 s. */
  retryWait?: RetryWaitCap;
}

/** The SDK's base client with `messages` only (what `Anthropic` is, less the other resources). */
class MessagesClient extends BaseAnthropic {
  readonly messages = new Messages(this);
}

/** A failure after the stream started: worth another attempt. */
class RetryableStreamFailure extends Error {}
/** A host callback threw: rethrown as is, it is the host's bug, not the API's. */
class CallbackFailure extends Error {
  constructor(readonly error: unknown) {
    super('callback failed');
  }
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * The SDK's logger (it logs at `warn` and above by default, to the console). Its report of an SSE event whose `data:`
 * is not JSON — the event and the raw chunk, over several lines, once per attempt — is dropped: the stream's failure
 * reaches the run as one line (a retry, or the error it gave up with). Anything else it logs stays one line.
 */
const SAID_BY_THE_CLIENT = /^(Could not parse message into JSON|From chunk)/;
const shown = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
const sdkLog = (write: (line: string) => void) => (message: string, ...rest: unknown[]): void => {
  if (SAID_BY_THE_CLIENT.test(message)) return;
  write(`anthropic-sdk: ${oneLine([message, ...rest.map(shown)].join(' '))}`);
};
const sdkLogger = {
  error: sdkLog((line) => console.error(line)),
  warn: sdkLog((line) => console.warn(line)),
  info: sdkLog((line) => console.info(line)),
  debug: sdkLog((line) => console.debug(line)),
};
const NOT_RETRIED_IN_STREAM = new Set(['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error']);

export function createAnthropicModel(opts: AnthropicModelOptions): ModelPort {
  const maxRetries = opts.maxRetries ?? 2;
  const credential = opts.apiKey ? { apiKey: opts.apiKey } : opts.authToken ? { authToken: opts.authToken } : null;
  const keyHint = opts.keyHint ?? (opts.apiKey ? 'ANTHROPIC_API_KEY' : 'ANTHROPIC_AUTH_TOKEN');
  const client =
    credential &&
    new MessagesClient({
      ...credential,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      maxRetries,
      timeout: opts.requestTimeoutMs ?? 120_000,
      logger: sdkLogger,
      // node:http, not Node's fetch: no undici to load before the first request (http-fetch.ts).
      fetch: (opts.fetch ?? httpFetch) as unknown as typeof fetch, // a LiteResponse has all of Response that the SDK reads
    });
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  const streamRetries = opts.streamRetries ?? 2;
  const retryDelayMs = opts.streamRetryDelayMs ?? 500;
  const waitingMs = opts.waitingNoticeMs ?? 10_000;
  const limits: AttemptLimits = { idleMs, waitingMs, maxRetries, retryWait: opts.retryWait ?? { maxMs: DEFAULT_MAX_RETRY_WAIT_MS, setting: 'the cap on retry waits' } };

  return {
    // Copilot's model lists name models by display name ('GPT-5 (copilot)'): only Claude ids go to this API.
    knows: async (modelId) => /^claude-[\w.-]+$/i.test(modelId),
    async stream(request, signal, callbacks) {
      if (!client) throw new ModelError('no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)', 'auth');
      for (let attempt = 0; ; attempt++) {
        if (signal.aborted) throw new ModelError('request aborted', 'aborted');
        try {
          return await attemptOnce(client, request, signal, callbacks, limits);
        } catch (err) {
          if (err instanceof CallbackFailure) throw err.error;
          if (signal.aborted) throw new ModelError('request aborted', 'aborted');
          if (!(err instanceof RetryableStreamFailure)) throw toModelError(err, keyHint, client.baseURL);
          if (attempt >= streamRetries) {
            throw new ModelError(`${err.message} (gave up after ${attempt + 1} attempts)`, 'api');
          }
          callbacks.onRetry?.(`${err.message}; retrying (${attempt + 1}/${streamRetries})`);
          await abortableDelay(retryDelayMs * (attempt + 1), signal);
        }
      }
    },
  };
}

function toParams(r: ModelRequest): { params: Anthropic.MessageCreateParamsNonStreaming; betas: string[] } {
  const hasTools = r.tools.length > 0 || (r.serverTools?.length ?? 0) > 0;
  // Thinking, effort and max_tokens by the model's rules (thinking.ts); its beta header goes in the request options.
  const { betas, ...thinking } = thinkingFields(r.model, r.thinking, r.maxTokens, hasTools);
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: r.model,
    ...thinking,
    messages: r.messages,
    ...(r.system ? { system: r.system } : {}),
    ...(hasTools ? { tools: [...r.tools, ...(r.serverTools ?? [])] } : {}),
    ...(r.toolChoice === 'none' && hasTools ? { tool_choice: { type: 'none' as const } } : {}),
  };
  return { params: withCacheBreakpoints(params, r.cache), betas };
}

interface AttemptLimits {
  idleMs: number;
  waitingMs: number;
  /** The SDK's retries (to know whether a failed response will be retried). */
  maxRetries: number;
  retryWait: RetryWaitCap;
}

async function attemptOnce(client: MessagesClient, request: ModelRequest, signal: AbortSignal, callbacks: ModelCallbacks, limits: AttemptLimits): Promise<ModelResponse> {
  const { idleMs, waitingMs } = limits;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let idle = false;
  let started = false;
  let callbackError: CallbackFailure | null = null;
  const touch = () => {
    started = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      controller.abort();
    }, idleMs);
  };
  // Arms the watchdog on a 2xx response and resets it on every body chunk.
  const asked = Date.now();
  let httpAttempt = 0;
  const watchdog: Middleware = async (req, next) => {
    // Every HTTP attempt (the SDK's own retries included) passes here: until its headers come, say we wait.
    const attempt = ++httpAttempt;
    const ticker = setInterval(() => callbacks.onWaiting?.({ attempt, waitedMs: Date.now() - asked }), waitingMs);
    let res: Response;
    try {
      res = await next(req);
    } finally {
      clearInterval(ticker);
    }
    if (!res.ok) {
      // The SDK is about to sleep before its retry: say how long, or refuse a wait past the cap (retry-wait.ts).
      const wait = retryWaitOf(res, limits.maxRetries - (attempt - 1), limits.maxRetries);
      if (wait && wait.waitMs > limits.retryWait.maxMs) {
        await res.body?.cancel().catch(() => undefined);
        // Thrown from the middleware: the SDK hands it on as it is, without retrying.
        throw new ModelError(retryWaitRefusal(wait, limits.retryWait), 'api', res.status);
      }
      if (wait) callbacks.onWaiting?.({ attempt, waitedMs: Date.now() - asked, retry: { ...wait, reason: retryReason(wait.status) } });
      return res;
    }
    if (!res.body) return res;
    touch();
    // Every chunk the SDK reads resets the watchdog (observedBody: not a TransformStream, see there).
    // Not `new Response(...)`: that class loads undici (see http-fetch.ts).
    return withBody(res, observedBody(res.body, touch)) as unknown as Response; // the same shape the SDK's fetch returns
  };

  try {
    // Raw events, accumulated here: the SDK's own accumulator throws on a tool input that is not valid JSON.
    const { params, betas } = toParams(request);
    const headers = betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : undefined;
    const stream = await client.messages.create({ ...params, stream: true }, { signal: controller.signal, middleware: [watchdog], ...(headers ? { headers } : {}) });
    const guarded = <T>(fn: ((arg: T) => void) | undefined) => (arg: T): void => {
      if (callbackError) return;
      try {
        fn?.(arg);
      } catch (error) {
        callbackError = new CallbackFailure(error);
        controller.abort();
      }
    };
    const message = new MessageAccumulator(guarded(callbacks.onTextDelta), guarded(callbacks.onThinking));
    for await (const event of stream) message.add(event);
    if (callbackError) throw callbackError;
    const done = message.result();
    return { content: done.content, stopReason: done.stopReason, usage: done.usage };
  } catch (err) {
    if (callbackError) throw callbackError;
    if (signal.aborted) throw err;
    if (idle) throw new RetryableStreamFailure(`stream stalled: no data for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)}s` : `${idleMs}ms`}`);
    if (started && !(err instanceof APIUserAbortError)) {
      if (err instanceof APIError && err.status === undefined && err.type && NOT_RETRIED_IN_STREAM.has(err.type)) throw err;
      const what =
        err instanceof APIError && err.type ? `${err.type}: ${err.apiMessage ?? oneLine(err.message)}`
        : err instanceof SyntaxError ? `an event that is not valid JSON: ${oneLine(err.message)}`
        : errorText(err);
      throw new RetryableStreamFailure(`stream failed (${what})`);
    }
    throw err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** The API's own message, else the error's message with its deepest cause (`connect ECONNREFUSED …`). */
function errorText(err: unknown): string {
  if (err instanceof APIError && err.apiMessage) return oneLine(err.apiMessage);
  if (!(err instanceof Error)) return oneLine(String(err));
  let root: unknown = err;
  for (let i = 0; i < 5 && root instanceof Error && root.cause instanceof Error; i++) root = root.cause;
  const cause = root !== err && root instanceof Error ? `: ${root.message}` : '';
  return oneLine(`${err.message.replace(/\.$/, '')}${cause}`);
}

function toModelError(err: unknown, keyHint: string, baseURL: string): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof APIUserAbortError) return new ModelError('request aborted', 'aborted');
  // The proxy refused or is down: say so, not that the endpoint is unreachable (env-proxy.ts).
  const proxy = err instanceof APIConnectionError ? proxyFailureIn(err) : undefined;
  if (proxy) return new ModelError(proxy.message, 'api');
  if (err instanceof APIConnectionTimeoutError) return new ModelError(`no response from ${baseURL} (timed out)`, 'api');
  if (err instanceof APIConnectionError) return new ModelError(`cannot reach ${baseURL}: ${errorText(err)}`, 'api');
  if (!(err instanceof APIError) || err.status === undefined) {
    // An `event: error` inside the stream has a type but no status.
    const type = err instanceof APIError ? err.type : null;
    const what = type ? `${type}: ${errorText(err)}` : errorText(err);
    if (type === 'authentication_error' || type === 'permission_error') return new ModelError(`${what} — check ${keyHint}`, 'auth');
    if (type === 'invalid_request_error' || type === 'not_found_error') return new ModelError(`request rejected (${what})`, 'bad_request');
    return new ModelError(`API request failed: ${what}`, 'api');
  }
  const status = err.status;
  const detail = errorText(err);
  const type = err.type ? ` ${err.type}` : '';
  if (status === 401) return new ModelError(`authentication failed (401): ${detail} — check ${keyHint}`, 'auth', status);
  if (status === 403) return new ModelError(`permission denied (403): ${detail} — check ${keyHint} and its permissions`, 'auth', status);
  if ([400, 404, 413, 422].includes(status)) return new ModelError(`request rejected (${status}${type}): ${detail}`, 'bad_request', status);
  return new ModelError(`API error (${status}${type}): ${detail}`, 'api', status);
}
