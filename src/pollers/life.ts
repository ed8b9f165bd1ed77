/**
 * How a poller ends, written once for the in-process `Poller` (poller.ts) and a fleet entry
 * (src/state/redis/fleet-entry.ts): one timer, one AbortSignal for the reads it makes itself, and
 * a stop that runs once (timer cleared, reads aborted, then the owner's own teardown).
 */
export class PollerLife {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly subscribers: { endAll(failure: { error: unknown } | null): void },
    private readonly teardown: () => void,
  ) {}

  get stopped(): boolean {
    return this.ended;
  }

  /** Aborts when it stops: no subscriber owns it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A pause is running (none while a poll is in flight). */
  get waiting(): boolean {
    return this.timer !== null;
  }

  /** `fn` once, after `ms`. */
  after(ms: number, fn: () => void): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      fn();
    }, ms);
  }

  /** `fn` every `ms` (at least 10), in place of any timer before; it does not keep the process up. */
  every(ms: number, fn: () => void): void {
    this.clearTimer();
    this.timer = setInterval(fn, Math.max(10, Math.round(ms)));
    this.timer.unref();
  }

  clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** End every subscriber (with `failure`'s error, or done) and stop. */
  finish(failure: { error: unknown } | null): void {
    this.subscribers.endAll(failure);
    this.stop();
  }

  stop(): void {
    if (this.ended) return;
    this.ended = true;
    this.clearTimer();
    this.controller.abort();
    this.teardown();
  }
}
