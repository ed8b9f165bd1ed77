/**
 * The health of each platform API in this process: its breaker and 503 Retry-After window
 * (api-gate.ts), its retry budget (retry-budget.ts), the credentials a 429 closed it to
 * (credential-windows.ts), the metrics that show them, and the link to the fleet (an opening learnt
 * here is announced; one announced elsewhere is adopted here).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiGate, type BreakerSettings, type GateState, type Opening, type OpenReason } from './api-gate';
import { realTimers, API_GATES, type Clock, type Timers, type UpstreamApi } from './apis';
import { CredentialWindows } from './credential-windows';
import { RetryBudget, type RetryBudgetSettings } from './retry-budget';

export { apiOf, realTimers, API_GATES, type UpstreamApi, type Clock, type Timers } from './apis';
export type { Admission, ApiGate, BreakerSettings, CallResult, GateState, Opening, OpenReason } from './api-gate';
export type { RetryBudgetSettings } from './retry-budget';

/** Defaults: open after 10 failures in a row or 75% of 20+ calls in 10 s (an attempt in flight 2 s is one); probe once a second; retries ≤ 20% of first attempts + 1/s. */
export const DEFAULT_RESILIENCE: Omit<HealthSettings, 'maxWindowMs'> = {
  breaker: { consecutiveFailures: 10, failureRatio: 0.75, minimumCalls: 20, windowMs: 10_000, openMs: 1000, slowCallMs: 2000 },
  retryBudget: { ratio: 0.2, minPerSecond: 1, windowMs: 10_000 },
};

export interface HealthSettings {
  readonly breaker: BreakerSettings;
  readonly retryBudget: RetryBudgetSettings;
  /** The longest window a `Retry-After` may close an API for (longer ones are cut to it). */
  readonly maxWindowMs: number;
}

/** Openings shared by the fleet (src/state/redis/upstream-closures.ts); in one process nothing is shared. */
export interface ClosureBoard {
  /** Tell the other replicas: `api` is closed for `remainingMs` (its breaker, a 503's window). */
  announce(api: UpstreamApi, remainingMs: number, reason: OpenReason): void;
  /** Hear what the other replicas announce (and what is in force when the link comes up). */
  listen(apis: readonly UpstreamApi[], heard: (api: UpstreamApi, remainingMs: number, reason: OpenReason) => void): void;
  /** Tell the other replicas: `api` is closed to one credential (its keyed hash, never the credential) for `remainingMs` (a 429's window). */
  announceCredential(api: UpstreamApi, credentialKey: string, remainingMs: number): void;
  /** Hear the credential windows the other replicas announce. */
  listenCredentials(apis: readonly UpstreamApi[], heard: (api: UpstreamApi, credentialKey: string, remainingMs: number) => void): void;
  /**
   * The key credentials are hashed under when the fleet shares one (`FLEET_TOKEN_KEY`), so a
   * credential's key is the same on every replica; null: a key of this process's own.
   */
  readonly credentialSecret: Buffer | null;
}

export interface ApiHealth {
  readonly api: UpstreamApi;
  readonly state: GateState;
  readonly reason: OpenReason | null;
  /** Seconds until a probe may go (0 when closed or half-open). */
  readonly retryAfter: number;
}

export class UpstreamHealth {
  private readonly gates = new Map<UpstreamApi, ApiGate>();
  private readonly budgets = new Map<UpstreamApi, RetryBudget>();
  private readonly credentials: CredentialWindows;
  private readonly slowCalls: Counter<'api'>;
  private readonly fastFailures: Counter<'api' | 'reason'>;
  private readonly retries: Counter<'api'>;
  private readonly refusals: Counter<'api'>;

  constructor(
    readonly settings: HealthSettings,
    readonly now: Clock = Date.now,
    registry?: Registry,
    private readonly board: ClosureBoard | null = null,
    /** Timers of the slow-call marks (tests fire their own). */
    readonly timers: Timers = realTimers,
  ) {
    this.credentials = new CredentialWindows(now);
    for (const api of API_GATES) {
      const announce = (opening: Opening): void => board?.announce(api, opening.until - this.now(), opening.reason);
      this.gates.set(api, new ApiGate(settings.breaker, now, announce));
      this.budgets.set(api, new RetryBudget(settings.retryBudget, now));
    }
    board?.listen(API_GATES, (api, remainingMs, reason) => this.gate(api).adopt({ until: this.now() + remainingMs, reason }));
    board?.listenCredentials(API_GATES, (api, credentialKey, remainingMs) => this.credentials.close(api, credentialKey, this.now() + remainingMs));
    const registers = registry ? [registry] : [];
    this.fastFailures = new Counter({ name: 'netgraph_upstream_fast_failures_total', help: 'Upstream calls answered at once, without a request, because their API was closed (reason: failures, rate-limited, unavailable).', labelNames: ['api', 'reason'], registers });
    this.retries = new Counter({ name: 'netgraph_upstream_retries_total', help: 'Upstream GETs sent again after a failed attempt.', labelNames: ['api'], registers });
    this.refusals = new Counter({ name: 'netgraph_upstream_retry_budget_refusals_total', help: 'Retries not sent because the API\'s retry budget was spent.', labelNames: ['api'], registers });
    this.slowCalls = new Counter({ name: 'netgraph_upstream_slow_calls_total', help: 'Upstream attempts still in flight past UPSTREAM_SLOW_CALL_MS, counted against their API\'s breaker then.', labelNames: ['api'], registers });
    const credentials = this.credentials;
    new Gauge({
      name: 'netgraph_upstream_rate_limited_credentials',
      help: 'Credentials inside a 429 Retry-After window (closed to them alone; the API stays open to the others).',
      registers,
      collect() {
        this.set(credentials.count());
      },
    });
    const views = (): ApiHealth[] => this.view();
    new Gauge({
      name: 'netgraph_upstream_breaker_state',
      help: 'Circuit breaker state per upstream API: 1 for the state it is in, 0 for the others.',
      labelNames: ['api', 'state'],
      registers,
      collect() {
        for (const { api, state } of views()) {
          for (const s of ['closed', 'open', 'half-open'] as const) this.set({ api, state: s }, s === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'netgraph_upstream_closed_seconds',
      help: 'Seconds until an open upstream API (breaker or Retry-After window) takes a probe; 0 when it is not open.',
      labelNames: ['api', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const view of views()) if (view.state === 'open' && view.reason !== null) this.set({ api: view.api, reason: view.reason }, view.retryAfter);
      },
    });
  }

  gate(api: UpstreamApi): ApiGate {
    return this.gates.get(api)!;
  }

  budget(api: UpstreamApi): RetryBudget {
    return this.budgets.get(api)!;
  }

  /** Ms left of the 429 window that closed `api` to this credential (its keyed hash); 0: none. */
  credentialWindow(api: UpstreamApi, credentialKey: string): number {
    return this.credentials.remaining(api, credentialKey);
  }

  /** A 429 with `Retry-After`: `api` is closed to this credential (on every replica) until `until`, to no one else. */
  closeForCredential(api: UpstreamApi, credentialKey: string, until: number): void {
    this.credentials.close(api, credentialKey, until);
    this.board?.announceCredential(api, credentialKey, until - this.now());
  }

  countSlowCall(api: UpstreamApi): void {
    this.slowCalls.inc({ api });
  }

  countFastFailure(api: UpstreamApi, reason: OpenReason): void {
    this.fastFailures.inc({ api, reason });
  }

  countRetry(api: UpstreamApi): void {
    this.retries.inc({ api });
  }

  countBudgetRefusal(api: UpstreamApi): void {
    this.refusals.inc({ api });
  }

  /** Every API's state now (for /readyz, the map and the metrics). */
  view(): ApiHealth[] {
    const now = this.now();
    return API_GATES.map((api) => {
      const { state, opening } = this.gate(api).current();
      const retryAfter = state === 'open' && opening !== null ? Math.max(1, Math.ceil((opening.until - now) / 1000)) : 0;
      return { api, state, reason: state === 'closed' ? null : (opening?.reason ?? null), retryAfter };
    });
  }
}
