/**
 * Counts over a sliding window of one-second buckets (the retry budget's first attempts and
 * retries, the breaker's calls and failures). Buckets of a past second are cleared when reused.
 */
const BUCKET_MS = 1000;

export class SlidingCounts<K extends string> {
  private readonly seconds: number[];
  private readonly counts: Array<Record<K, number>>;

  constructor(
    windowMs: number,
    private readonly keys: readonly K[],
  ) {
    const size = Math.max(1, Math.ceil(windowMs / BUCKET_MS));
    this.seconds = new Array<number>(size).fill(-1);
    this.counts = Array.from({ length: size }, () => this.zero());
  }

  add(key: K, now: number): void {
    const second = Math.floor(now / BUCKET_MS);
    const i = second % this.seconds.length;
    if (this.seconds[i] !== second) {
      this.seconds[i] = second;
      this.counts[i] = this.zero();
    }
    this.counts[i]![key] += 1;
  }

  /** The totals of the buckets still inside the window at `now`. */
  total(now: number): Record<K, number> {
    const second = Math.floor(now / BUCKET_MS);
    const sum = this.zero();
    for (let i = 0; i < this.seconds.length; i += 1) {
      if (second - this.seconds[i]! >= this.seconds.length) continue;
      for (const key of this.keys) sum[key] += this.counts[i]![key];
    }
    return sum;
  }

  clear(): void {
    this.seconds.fill(-1);
  }

  private zero(): Record<K, number> {
    const zero = {} as Record<K, number>;
    for (const key of this.keys) zero[key] = 0;
    return zero;
  }
}
