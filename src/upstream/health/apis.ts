/**
 * The platform's APIs as the resilience policies see them: one breaker, one Retry-After window and
 * one retry budget per gate, named by the table of upstream APIs (src/core/upstream-apis.ts).
 * identity/v1 (the gateway's check of who a token belongs to) is its own gate: a stream of refused
 * or rate-limited tokens there never closes rest/v1, nor rest/v1's trouble the identity checks.
 */
import { API_GATES, perService, type UpstreamApi, type UpstreamService } from '../../core/upstream-apis';

export { API_GATES, type UpstreamApi };

const API_OF = perService((api) => api.gate);

/** The gate `service`'s calls pass. */
export function apiOf(service: UpstreamService): UpstreamApi {
  return API_OF[service];
}

/** A clock in ms (`Date.now` in production; tests move their own). */
export type Clock = () => number;

/** Runs `fn` once after `ms` (real timers in production, unref'd; tests fire their own); answers a cancel. */
export type Timers = (fn: () => void, ms: number) => () => void;

export const realTimers: Timers = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};
