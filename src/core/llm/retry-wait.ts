/**
 * The waits before the SDK's retries of a failed request (429 rate limited, 529 overloaded, 5xx…), said and bounded.
 * SDK 1.x sleeps as long as `retry-after` says (any positive value up to 24 days), silently; so the model client reads
 * the failed response first, in its middleware, before the SDK does:
 *
 *   response the SDK will retry (429, 5xx, 408, 409, or x-should-retry: true; retries left)
 *     ─▶ wait = retry-after-ms | retry-after (seconds, or an HTTP date) | the SDK's own back-off (0.5 s × 2ⁿ, ≤ 8 s)
 *     ─▶ wait ≤ cap: said (ModelCallbacks.onWaiting with `retry`: a `waiting` event), then the SDK sleeps and retries
 *        wait > cap: the request fails at once with one line naming the wait, the reason and the setting of the cap
 */

export interface RetryWait {
  status: number;
  /** How long the SDK will sleep before the next attempt. */
  waitMs: number;
  /** The API said how long (retry-after / retry-after-ms); false: the SDK's own back-off. */
  asked: boolean;
}

/** The cap and how the user raises it, as the host names it (`--max-retry-wait`, `delegate.maxRetryWaitSeconds`). */
export interface RetryWaitCap {
  maxMs: number;
  setting: string;
}

export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

interface ResponseLike {
  ok?: boolean;
  status: number;
  headers: { get(name: string): string | null };
}

/** The SDK's rule (client.js shouldRetry): the server's x-should-retry first, then the status. */
function willRetry(res: ResponseLike): boolean {
  const header = res.headers.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  return res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500;
}

/** What the SDK will wait before retrying `res`, or undefined when it will not retry it (`retriesLeft` 0, or not retryable). */
export function retryWaitOf(res: ResponseLike, retriesLeft: number, maxRetries: number, now = Date.now()): RetryWait | undefined {
  if (res.ok === true || retriesLeft <= 0 || !willRetry(res)) return undefined;
  // The SDK reads retry-after-ms first, then retry-after as seconds or as a date, and takes a positive value.
  let asked: number | undefined;
  const ms = parseFloat(res.headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) asked = ms;
  const after = res.headers.get('retry-after');
  if (after && !asked) {
    const seconds = parseFloat(after);
    asked = Number.isNaN(seconds) ? Date.parse(after) - now : seconds * 1000;
  }
  if (asked !== undefined && asked > 0 && asked <= 2 ** 31 - 1) return { status: res.status, waitMs: asked, asked: true };
  // calculateDefaultRetryTimeoutMillis, less its jitter (which only shortens it).
  const retries = maxRetries - retriesLeft;
  return { status: res.status, waitMs: Math.min(0.5 * 2 ** retries, 8) * 1000, asked: false };
}

/** Why the API refused: the words the user knows for each status. */
export function retryReason(status: number): string {
  if (status === 429) return 'rate limited';
  if (status === 529) return 'overloaded';
  // Not "timed out": the SDK takes an error from its middleware whose text says so for a timeout, and retries it.
  if (status === 408) return 'the request took too long';
  if (status === 409) return 'conflict';
  return 'server error';
}

const seconds = (ms: number): string => `${Math.ceil(ms / 1000).toLocaleString('en-US')} s`;

/** The one line of a run that ends because the API asked for a longer wait than the cap. */
export function retryWaitRefusal(wait: RetryWait, cap: RetryWaitCap): string {
  return `the API asked to wait ${seconds(wait.waitMs)} (${retryReason(wait.status)}, ${wait.status}); the cap is ${seconds(cap.maxMs)} (${cap.setting}): raise it to wait, or try again later`;
}
