// The wait before each of the SDK's retries, read as the SDK reads it (retry-after-ms, retry-after in seconds or as a
// date, else its back-off), and the one line of a wait past the cap.
import assert from 'node:assert/strict';
import { retryReason, retryWaitOf, retryWaitRefusal } from '../../../src/core/llm/retry-wait';

const res = (status: number, headers: Record<string, string> = {}) => ({ ok: status < 400, status, headers: { get: (name: string) => headers[name] ?? null } });

describe('retry waits', () => {
  it('reads retry-after-ms first, then retry-after as seconds or as an HTTP date', () => {
    assert.deepEqual(retryWaitOf(res(429, { 'retry-after': '30' }), 2, 2), { status: 429, waitMs: 30_000, asked: true });
    assert.deepEqual(retryWaitOf(res(429, { 'retry-after': '30', 'retry-after-ms': '250' }), 2, 2), { status: 429, waitMs: 250, asked: true });
    const now = Date.parse('2026-12-01T10:00:00Z');
    assert.deepEqual(retryWaitOf(res(529, { 'retry-after': 'Tue, 01 Dec 2026 10:10:00 GMT' }), 1, 2, now), { status: 529, waitMs: 600_000, asked: true });
  });

  it("without a usable header it is the SDK's back-off; nothing when the SDK will not retry", () => {
    assert.deepEqual(retryWaitOf(res(529), 2, 2), { status: 529, waitMs: 500, asked: false });
    assert.deepEqual(retryWaitOf(res(500, { 'retry-after': '0' }), 1, 2), { status: 500, waitMs: 1000, asked: false });
    assert.equal(retryWaitOf(res(429, { 'retry-after': '30' }), 0, 2), undefined, 'no retries left');
    assert.equal(retryWaitOf(res(429, { 'x-should-retry': 'false' }), 2, 2), undefined);
    assert.equal(retryWaitOf(res(400), 2, 2), undefined);
    assert.deepEqual(retryWaitOf(res(400, { 'x-should-retry': 'true' }), 2, 2)?.asked, false);
  });

  it('past the cap: one line with the wait, the reason, the status and the setting, no word the SDK takes for a timeout', () => {
    const line = retryWaitRefusal({ status: 429, waitMs: 600_000, asked: true }, { maxMs: 60_000, setting: '--max-retry-wait' });
    assert.equal(line, 'the API asked to wait 600 s (rate limited, 429); the cap is 60 s (--max-retry-wait): raise it to wait, or try again later');
    for (const status of [408, 409, 429, 500, 503, 529]) {
      assert.doesNotMatch(retryWaitRefusal({ status, waitMs: 90_000, asked: true }, { maxMs: 1000, setting: 'x' }), /timed? ?out/i);
    }
    assert.equal(retryReason(529), 'overloaded');
    assert.equal(retryReason(503), 'server error');
  });
});
