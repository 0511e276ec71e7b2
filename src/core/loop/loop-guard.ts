/**
 * Dead-loop guard: a model that repeats the same call (same tool, same input) keeps getting the same
 * answer. The third identical consecutive call, and any further, is not run; the model is told to stop.
 */
const REPEAT_LIMIT = 3;

export class LoopGuard {
  private lastKey: string | undefined;
  private count = 0;

  /** Records a call; returns an error text when it must not run. */
  check(toolName: string, input: unknown): string | undefined {
    const key = `${toolName}\u0000${stableJson(input)}`;
    this.count = key === this.lastKey ? this.count + 1 : 1;
    this.lastKey = key;
    if (this.count < REPEAT_LIMIT) return undefined;
    return (
      `Not run: this is call ${this.count} in a row of ${toolName} with the same input. ` +
      'Repeating it will not give a different result. Stop repeating it: use what you already have and give your answer.'
    );
  }
}

/** JSON with sorted object keys, so {a,b} and {b,a} are the same call. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  }) ?? 'undefined';
}
