/**
 * The platform's APIs as the resilience policies see them: one breaker, one Retry-After window and
 * one retry budget each. identity/v1 (the gateway's check of who a token belongs to) is its own
 * gate: a stream of refused or rate-limited tokens there never closes rest/v1, nor rest/v1's
 * trouble the identity checks.
 */
import type { UpstreamService } from '../../errors/codes';

export const UPSTREAM_APIS = ['auth/v1', 'rest/v1', 'identity/v1', 'core/v2', 'search'] as const;
export type UpstreamApi = (typeof UPSTREAM_APIS)[number];

const API_OF: Readonly<Record<UpstreamService, UpstreamApi>> = {
  'auth-v1': 'auth/v1',
  'rest-v1': 'rest/v1',
  'identity-v1': 'identity/v1',
  'core-v2': 'core/v2',
  search: 'search',
};

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
