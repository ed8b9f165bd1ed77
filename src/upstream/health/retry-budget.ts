/**
 * A retry budget (as Envoy's and Apollo Router's): retries of one API may be at most `ratio` of
 * its first attempts over a sliding window, plus a small floor per second so a quiet API can
 * still retry. When the platform struggles, the gateway adds at most that share of load instead of
 * multiplying it by its attempts.
 */
import type { Clock } from './apis';
import { SlidingCounts } from './sliding-counts';

export interface RetryBudgetSettings {
  /** Retries per first attempt over the window (0.2 = 20%). */
  readonly ratio: number;
  /** Retries allowed per second of the window whatever the ratio says. */
  readonly minPerSecond: number;
  readonly windowMs: number;
}

export class RetryBudget {
  private readonly counts: SlidingCounts<'firsts' | 'retries'>;

  constructor(
    private readonly settings: RetryBudgetSettings,
    private readonly now: Clock,
  ) {
    this.counts = new SlidingCounts(settings.windowMs, ['firsts', 'retries']);
  }

  /** A first attempt left: it earns `ratio` of a retry. */
  recordFirst(): void {
    this.counts.add('firsts', this.now());
  }

  /** Takes one retry if the budget has one (true), else false. */
  tryRetry(): boolean {
    const now = this.now();
    const { firsts, retries } = this.counts.total(now);
    const allowed = firsts * this.settings.ratio + this.settings.minPerSecond * (this.settings.windowMs / 1000);
    if (retries + 1 > allowed) return false;
    this.counts.add('retries', now);
    return true;
  }
}
