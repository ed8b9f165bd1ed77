/**
 * The pause before a poller's next poll. A change brings it back to the base interval (things
 * are moving: look again soon); a poll without change stretches it by the backoff factor, a
 * transient error doubles it; neither passes the ceiling.
 */
import type { PollerSettings } from './types';

export type PauseReason = 'changed' | 'unchanged' | 'error';

export const DEFAULT_BACKOFF_FACTOR = 1.5;

export function nextPause(current: number, reason: PauseReason, settings: PollerSettings): number {
  if (reason === 'changed') return settings.intervalMs;
  const factor = reason === 'error' ? 2 : (settings.backoffFactor ?? DEFAULT_BACKOFF_FACTOR);
  return Math.min(settings.maxIntervalMs, Math.max(settings.intervalMs, Math.round(current * factor)));
}
