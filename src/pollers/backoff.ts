/**
 * The pause before a poller's next poll. A change brings it back to the base interval (things
 * are moving: look again soon); a poll without change stretches it by the backoff factor, a
 * transient error doubles it; neither passes the ceiling.
 */
import type { PollerSettings, PollKind } from './types';

export type PauseReason = 'changed' | 'unchanged' | 'error';

export const DEFAULT_BACKOFF_FACTOR = 1.5;

export function nextPause(current: number, reason: PauseReason, settings: PollerSettings): number {
  if (reason === 'changed') return settings.intervalMs;
  const factor = reason === 'error' ? 2 : (settings.backoffFactor ?? DEFAULT_BACKOFF_FACTOR);
  return Math.min(settings.maxIntervalMs, Math.max(settings.intervalMs, Math.round(current * factor)));
}

/** One poller's pause, after each poll: `nextPause`, or the kind's own when it paces itself (`nextPauseMs`). */
export class Pacer<T, V> {
  /** The pause before the next poll. */
  ms: number;
  private changedAt: number;

  constructor(
    private readonly kind: Pick<PollKind<T, V, unknown>, 'nextPauseMs'>,
    private readonly target: T,
    private readonly settings: PollerSettings,
    startedAt: number,
  ) {
    this.ms = settings.intervalMs;
    this.changedAt = startedAt;
  }

  /** Subscribers heard a new value now. */
  changed(): void {
    this.changedAt = Date.now();
  }

  pace(outcome: PauseReason, last: V | null): void {
    const proposedMs = nextPause(this.ms, outcome, this.settings);
    const own = this.kind.nextPauseMs?.({ outcome, pauseMs: this.ms, proposedMs, last, sinceChangeMs: Date.now() - this.changedAt }, this.target);
    this.ms = own !== undefined && Number.isFinite(own) && own >= 0 ? own : proposedMs;
  }
}
