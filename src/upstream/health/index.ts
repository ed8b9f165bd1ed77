/**
 * The health of each platform API in this process: its breaker and Retry-After window
 * (api-gate.ts) and its retry budget (retry-budget.ts), the metrics that show them, and the link to
 * the fleet (an opening learnt here is announced; one announced elsewhere is adopted here).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiGate, type BreakerSettings, type GateState, type Opening, type OpenReason } from './api-gate';
import { UPSTREAM_APIS, type Clock, type UpstreamApi } from './apis';
import { RetryBudget, type RetryBudgetSettings } from './retry-budget';

export { apiOf, UPSTREAM_APIS, type UpstreamApi, type Clock } from './apis';
export type { Admission, BreakerSettings, CallResult, GateState, Opening, OpenReason } from './api-gate';
export type { RetryBudgetSettings } from './retry-budget';

/** Defaults: open after 10 failures in a row or 75% of 20+ calls in 10 s; probe once a second; retries ≤ 20% of first attempts + 1/s. */
export const DEFAULT_RESILIENCE: Omit<HealthSettings, 'maxWindowMs'> = {
  breaker: { consecutiveFailures: 10, failureRatio: 0.75, minimumCalls: 20, windowMs: 10_000, openMs: 1000 },
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
  /** Tell the other replicas: `api` is closed for `remainingMs`. */
  announce(api: UpstreamApi, remainingMs: number, reason: OpenReason): void;
  /** Hear what the other replicas announce (and what is in force when the link comes up). */
  listen(apis: readonly UpstreamApi[], heard: (api: UpstreamApi, remainingMs: number, reason: OpenReason) => void): void;
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
  private readonly fastFailures: Counter<'api' | 'reason'>;
  private readonly retries: Counter<'api'>;
  private readonly refusals: Counter<'api'>;

  constructor(
    readonly settings: HealthSettings,
    readonly now: Clock = Date.now,
    registry?: Registry,
    private readonly board: ClosureBoard | null = null,
  ) {
    for (const api of UPSTREAM_APIS) {
      const announce = (opening: Opening): void => board?.announce(api, opening.until - this.now(), opening.reason);
      this.gates.set(api, new ApiGate(settings.breaker, now, announce));
      this.budgets.set(api, new RetryBudget(settings.retryBudget, now));
    }
    board?.listen(UPSTREAM_APIS, (api, remainingMs, reason) => this.gate(api).adopt({ until: this.now() + remainingMs, reason }));
    const registers = registry ? [registry] : [];
    this.fastFailures = new Counter({ name: 'netgraph_upstream_fast_failures_total', help: 'Upstream calls answered at once, without a request, because their API was closed (reason: failures, rate-limited, unavailable).', labelNames: ['api', 'reason'], registers });
    this.retries = new Counter({ name: 'netgraph_upstream_retries_total', help: 'Upstream GETs sent again after a failed attempt.', labelNames: ['api'], registers });
    this.refusals = new Counter({ name: 'netgraph_upstream_retry_budget_refusals_total', help: 'Retries not sent because the API\'s retry budget was spent.', labelNames: ['api'], registers });
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
    return UPSTREAM_APIS.map((api) => {
      const { state, opening } = this.gate(api).current();
      const retryAfter = state === 'open' && opening !== null ? Math.max(1, Math.ceil((opening.until - now) / 1000)) : 0;
      return { api, state, reason: state === 'closed' ? null : (opening?.reason ?? null), retryAfter };
    });
  }
}
