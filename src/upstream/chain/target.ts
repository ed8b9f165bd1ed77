/**
 * The chain's first step, "link target check": it makes the call. Where the request goes is
 * resolved once here (normalized and held under the service's base path on its origin,
 * ../link-target.ts) or refused unsent; the credential that will be sent is chosen here too
 * (the caller's, verbatim, to an API whose row forwards it; the gateway's own to the others:
 * search's configured basic credentials).
 */
import { forwardsToken, type OwnCredentialService, type UpstreamService } from '../../core/upstream-apis';
import { ErrorCode, UpstreamError } from '../../errors/codes';
import type { UpstreamRequest } from '../http-types';
import { linkTarget, type ServiceBase } from '../link-target';
import type { CallerScope, Target, UpstreamCall } from './call';
import { requestInfo } from './stopped';

export interface TargetSettings {
  readonly bases: ReadonlyMap<UpstreamService, ServiceBase>;
  /** The search service's `Authorization` value; null without credentials. */
  readonly searchAuthorization: string | null;
}

/** The call for `request` on behalf of `scope`; throws (nothing sent) when it cannot go anywhere. */
export function startCall(settings: TargetSettings, request: UpstreamRequest, scope: CallerScope): UpstreamCall {
  const base = settings.bases.get(request.service);
  if (!base) throw new UpstreamError(ErrorCode.NOT_CONFIGURED, `${request.service} is not configured on this gateway`, requestInfo(request));
  const target = resolveTarget(request, base);
  const service = request.service;
  const caller = scope.options;
  const forwarded = forwardsToken(service);
  return {
    request,
    target,
    authorization: forwarded ? (caller.authorization ?? null) : ownAuthorization(settings, service),
    // Hashed once per caller (the scope keeps it), not per call; the gateway's own credentials go by the service's name.
    credentialKey: forwarded ? scope.credentialKey() : service,
    caller,
    scope,
    signal: request.method === 'GET' && caller.budget ? caller.budget.signal : caller.signal,
    outcome: 'network',
    apiState: null,
    charges: [],
    watchers: [],
    lastAttempt: null,
  };
}

/** The gateway's own credentials for an API that does not take the caller's token (a new such row needs its case). */
function ownAuthorization(settings: TargetSettings, service: OwnCredentialService): string | null {
  switch (service) {
    case 'search':
      return settings.searchAuthorization;
  }
}

/** Where a request goes: normalized and held under the service's base path on its origin, or refused unsent. */
export function resolveTarget(request: UpstreamRequest, base: ServiceBase): Target {
  const resolved = linkTarget(request.path, base);
  if (!resolved.ok) {
    throw new UpstreamError(ErrorCode.UPSTREAM_BAD_RESPONSE, `${request.service} ${resolved.reason} (not followed)`, {
      service: request.service,
      method: request.method,
      path: resolved.path,
      status: null,
    });
  }
  const { pathname, query } = resolved;
  const target = (search: string): Target => ({
    origin: base.origin,
    pathAndQuery: search === '' ? pathname : `${pathname}?${search}`,
    info: { service: request.service, method: request.method, path: pathname, status: null },
  });
  // Most calls (a record by id) carry no query at all: no URLSearchParams to build and print.
  if (query === '' && request.query === undefined) return target('');
  const search = new URLSearchParams(query);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else search.set(key, String(value));
  }
  return target(search.toString());
}
