/** The upstream-call quota's counts in one process (the window itself is ../call-quota.ts). */
import type { MinuteCounter } from '../call-quota';

/** A count per caller for the current minute; the callers of a past minute are forgotten when it turns. */
export class MemoryMinuteCounter implements MinuteCounter {
  private minute = -1;
  private readonly counts = new Map<string, number>();

  count(fingerprint: string, index: number, max: number): Promise<number> {
    if (index !== this.minute) {
      this.minute = index;
      this.counts.clear();
    }
    const used = this.counts.get(fingerprint) ?? 0;
    if (used < max) this.counts.set(fingerprint, used + 1);
    return Promise.resolve(used + 1);
  }
}
