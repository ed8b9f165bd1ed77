/**
 * The platform's APIs as the resilience policies see them: one breaker, one Retry-After window and
 * one retry budget each. identity/v1 is served beside rest/v1 (one API for these purposes).
 */
import type { UpstreamService } from '../../errors/codes';

export const UPSTREAM_APIS = ['auth/v1', 'rest/v1', 'core/v2', 'search'] as const;
export type UpstreamApi = (typeof UPSTREAM_APIS)[number];

const API_OF: Readonly<Record<UpstreamService, UpstreamApi>> = {
  'auth-v1': 'auth/v1',
  'rest-v1': 'rest/v1',
  'identity-v1': 'rest/v1',
  'core-v2': 'core/v2',
  search: 'search',
};

export function apiOf(service: UpstreamService): UpstreamApi {
  return API_OF[service];
}

/** A clock in ms (`Date.now` in production; tests move their own). */
export type Clock = () => number;
