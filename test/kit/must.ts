/** Narrows a value a test needs to exist, failing the test with a clear message when it does not. */
import assert from 'node:assert/strict';

export function must<T>(value: T | undefined | null, what = 'value'): T {
  assert.ok(value !== undefined && value !== null, `${what} is missing`);
  return value;
}
