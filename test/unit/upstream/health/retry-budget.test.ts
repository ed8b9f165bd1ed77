/** The retry budget (src/upstream/health/retry-budget.ts): a share of first attempts, a floor per second, a sliding window. */
import { RetryBudget } from '../../../../src/upstream/health/retry-budget';
import { TestClock } from '../../../helpers/upstream-call';

describe('the retry budget', () => {
  it('allows retries up to the share of first attempts plus the floor, over the window', () => {
    const clock = new TestClock();
    const budget = new RetryBudget({ ratio: 0.2, minPerSecond: 1, windowMs: 10_000 }, clock.now);
    for (let i = 0; i < 100; i += 1) budget.recordFirst();
    let granted = 0;
    while (budget.tryRetry()) granted += 1;
    // 20% of 100, plus 1 per second of a 10 s window.
    expect(granted).toBe(30);
    clock.advance(10_000);
    // The window moved on: only the floor is left.
    granted = 0;
    while (budget.tryRetry()) granted += 1;
    expect(granted).toBe(10);
  });

  it('with no floor and no first attempts, allows none', () => {
    const budget = new RetryBudget({ ratio: 0.2, minPerSecond: 0, windowMs: 10_000 }, new TestClock().now);
    expect(budget.tryRetry()).toBe(false);
  });
});
