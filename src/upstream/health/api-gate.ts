/**
 * One API's circuit breaker and Retry-After window (one state machine: a window is an opening
 * whose length the platform chose).
 *
 * - closed: calls pass; each attempt's outcome is recorded as it ends (not once its retries are
 *   done), and an attempt still in flight past `slowCallMs` counts as a failure then (as
 *   resilience4j's slow calls do: a hanging platform is seen while it hangs). It opens after
 *   `consecutiveFailures` failures in a row, or when at least `failureRatio` of the calls of the
 *   window failed (once the window holds `minimumCalls`). Failures are 5xx, timeouts, connection
 *   errors and slow attempts, never a 4xx.
 * - open: calls fail fast, until `openMs` has passed (the probe interval), or until the end of the
 *   window a 429/503 `Retry-After` asked for.
 * - half-open: one call at a time goes through as a probe; the others fail fast. A probe that
 *   succeeds closes the breaker; one that fails opens it again.
 */
import type { Clock } from './apis';
import { SlidingCounts } from './sliding-counts';

export interface BreakerSettings {
  readonly consecutiveFailures: number;
  /** 0..1; 1 means the ratio alone never opens the breaker below every call failing. */
  readonly failureRatio: number;
  readonly minimumCalls: number;
  readonly windowMs: number;
  /** How long an opened breaker stays open before one probe may go: the probe interval. */
  readonly openMs: number;
  /** An attempt in flight this long counts as a failure at once (0: never). */
  readonly slowCallMs: number;
}

export type GateState = 'closed' | 'open' | 'half-open';

/** Why the API is closed: its breaker opened, or the platform asked (`Retry-After` on a 429 or 503). */
export type OpenReason = 'failures' | 'rate-limited' | 'unavailable';

export interface Opening {
  /** Epoch ms at which a probe may go. */
  readonly until: number;
  readonly reason: OpenReason;
}

export type Admission =
  | { readonly pass: true; readonly probe: boolean }
  | { readonly pass: false; readonly reason: OpenReason; /** ms until a call may be tried again (at least 1 s rounded up by callers). */ readonly retryAfterMs: number };

export type CallResult = 'success' | 'failure' | 'neutral';

export class ApiGate {
  private state: GateState = 'closed';
  private opening: Opening | null = null;
  private consecutive = 0;
  private probing = false;
  private readonly counts: SlidingCounts<'calls' | 'failures'>;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: Clock,
    /** Told each time this process opens the gate (to share the opening with the fleet). */
    private readonly onOpen: (opening: Opening) => void = () => undefined,
  ) {
    this.counts = new SlidingCounts(settings.windowMs, ['calls', 'failures']);
  }

  /** The state now (an opening that has passed reads as half-open). */
  current(): { state: GateState; opening: Opening | null } {
    this.expire(this.now());
    return { state: this.state, opening: this.opening };
  }

  /** Whether a call may go now; a probe must be followed by `record(…, true)`. */
  admit(): Admission {
    const now = this.now();
    this.expire(now);
    if (this.state === 'closed') return { pass: true, probe: false };
    if (this.state === 'half-open' && !this.probing) {
      this.probing = true;
      return { pass: true, probe: true };
    }
    const opening = this.opening;
    // Half-open with its probe out: try again once the probe has had an interval to answer.
    const retryAfterMs = opening !== null && opening.until > now ? opening.until - now : this.settings.openMs;
    return { pass: false, reason: opening?.reason ?? 'failures', retryAfterMs };
  }

  /** The outcome of an attempt of a call that was admitted (`probe`: the first attempt of the probe). */
  record(result: CallResult, probe: boolean): void {
    const now = this.now();
    if (probe) this.probing = false;
    if (result === 'neutral') return;
    if (result === 'success') {
      this.consecutive = 0;
      this.counts.add('calls', now);
      if (probe || this.state !== 'closed') this.close();
      return;
    }
    this.consecutive += 1;
    this.counts.add('calls', now);
    this.counts.add('failures', now);
    if (probe || this.state === 'half-open') {
      this.open({ until: now + this.settings.openMs, reason: 'failures' });
      return;
    }
    if (this.state !== 'closed') return;
    const { calls, failures } = this.counts.total(now);
    const ratioTripped = calls >= this.settings.minimumCalls && failures / calls >= this.settings.failureRatio;
    if (this.consecutive >= this.settings.consecutiveFailures || ratioTripped) this.open({ until: now + this.settings.openMs, reason: 'failures' });
  }

  /** The API asked for a pause (`Retry-After` on a 503): closed to every call until `until`. A 429's is the credential's (index.ts). */
  pause(until: number, reason: 'rate-limited' | 'unavailable'): void {
    this.open({ until, reason });
  }

  /** Another replica opened this API: take its opening when it ends later than ours. */
  adopt(opening: Opening): void {
    if (opening.until <= this.now()) return;
    if (this.state === 'open' && this.opening !== null && this.opening.until >= opening.until) return;
    this.state = 'open';
    this.opening = opening;
  }

  private open(opening: Opening): void {
    // A longer opening already in force (a Retry-After window) is not cut short by a breaker's.
    if (this.state === 'open' && this.opening !== null && this.opening.until > opening.until) return;
    this.state = 'open';
    this.opening = opening;
    this.onOpen(opening);
  }

  private close(): void {
    this.state = 'closed';
    this.opening = null;
    this.consecutive = 0;
    this.counts.clear();
  }

  private expire(now: number): void {
    if (this.state === 'open' && this.opening !== null && this.opening.until <= now) this.state = 'half-open';
  }
}
