/**
 * One AbortSignal per step of an agent (a model request and the tools it asked for), each linked to the
 * agent's own signal: a budget that runs out mid-step aborts that step alone, and the agent still makes
 * its last request ("budget reached: report what you have") on a fresh one.
 */
export class StepSignals {
  private current: AbortController | undefined;
  private unlink: (() => void) | undefined;

  constructor(private readonly agent: AbortSignal) {}

  /** A fresh signal for the next step (the previous one is let go). */
  next(): AbortSignal {
    this.unlink?.();
    const step = new AbortController();
    const relay = (): void => step.abort();
    if (this.agent.aborted) step.abort();
    else this.agent.addEventListener('abort', relay, { once: true });
    this.unlink = () => this.agent.removeEventListener('abort', relay);
    this.current = step;
    return step.signal;
  }

  abortCurrent(): void {
    this.current?.abort();
  }

  dispose(): void {
    this.unlink?.();
    this.unlink = undefined;
  }
}
