/**
 * How often a followed network is polled: fastest after a change and while something is in
 * progress (for a while), 1.5× slower per quiet poll up to the ceiling, 2× after an error.
 */
import { IN_PROGRESS_FAST_FOR_MS, nextNetworkPause } from '../../../src/resolvers/network-live/pace';
import { deletedState, type NetworkState } from '../../../src/resolvers/network-live/state';

const BOUNDS = { intervalMs: 1000, maxIntervalMs: 8000 };
const quiet: NetworkState = deletedState('n', 0);
const busy: NetworkState = { ...quiet, inProgress: true };

/** The pauses a run of outcomes leads to, from the interval. */
function pauses(outcomes: Array<'changed' | 'unchanged' | 'error'>, last: NetworkState | null, sinceChangeMs = 0): number[] {
  let pauseMs = BOUNDS.intervalMs;
  return outcomes.map((outcome) => (pauseMs = nextNetworkPause({ outcome, pauseMs, proposedMs: -1, last, sinceChangeMs }, BOUNDS)));
}

it('slows 1.5× per quiet poll up to the ceiling, and is fast again after a change', () => {
  expect(pauses(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'changed', 'unchanged'], quiet)).toEqual([1500, 2250, 3375, 5063, 7595, 8000, 1000, 1500]);
});

it('stays fast while something is in progress, until it has not moved for a long while', () => {
  expect(pauses(['unchanged', 'unchanged', 'unchanged'], busy, 60_000)).toEqual([1000, 1000, 1000]);
  expect(pauses(['unchanged', 'unchanged'], busy, IN_PROGRESS_FAST_FOR_MS)).toEqual([1500, 2250]);
});

it('slows before the first value too (a network not known yet)', () => {
  expect(pauses(['unchanged', 'unchanged'], null)).toEqual([1500, 2250]);
});

it('doubles after a transient error, within the bounds, busy or not', () => {
  expect(pauses(['error', 'error', 'error', 'error'], busy)).toEqual([2000, 4000, 8000, 8000]);
});
