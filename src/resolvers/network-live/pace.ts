/**
 * How often a network is looked at: at the fastest pace after a change and while anything in it
 * is in progress (a status that is not final: someone is changing it, a poll soon will show the
 * result), then 1.5× slower per quiet poll up to the ceiling, 2× after a transient error. Both
 * bounds are the gateway's `NETWORK_POLL_*` settings.
 */
import type { PollPace } from '../../pollers';
import type { NetworkState } from './state';

/**
 * How long "in progress" keeps the fastest pace without any change: provisioning moves within
 * minutes, so a status that has not moved for this long is stuck (an AppWAN left empty stays NEW),
 * and the network is treated as quiet.
 */
export const IN_PROGRESS_FAST_FOR_MS = 10 * 60_000;

export interface PaceBounds {
  intervalMs: number;
  maxIntervalMs: number;
}

export function nextNetworkPause(pace: PollPace<NetworkState>, bounds: PaceBounds): number {
  const busy = pace.last !== null && pace.last.inProgress && pace.sinceChangeMs < IN_PROGRESS_FAST_FOR_MS;
  if (pace.outcome === 'changed' || (pace.outcome === 'unchanged' && busy)) return bounds.intervalMs;
  const factor = pace.outcome === 'error' ? 2 : 1.5;
  return Math.min(bounds.maxIntervalMs, Math.max(bounds.intervalMs, Math.round(pace.pauseMs * factor)));
}
