/**
 * Per-request event search (created by the context). Before the first search of a request the
 * caller's token is checked upstream (identity/v1 `/organization`, the same call `myOrganization`
 * makes, once per request): the search service never sees the caller's token, so this is what
 * keeps a caller the platform does not accept from searching. No token → UNAUTHENTICATED with no
 * call at all; an expired one → the upstream's 401 → UNAUTHENTICATED, and no search call.
 */
import { ErrorCode, GatewayError } from '../../errors/codes';
import type { HttpClient } from '../http-types';
import type { OrganizationRecord } from '../identity/records';
import type { JsonObject } from '../../core/parse';
import { SearchClient } from './client';
import type { SearchAnswer } from './records';

export interface SearchLoaders {
  /** A search of the configured search service (basic credentials), after the caller check. */
  search(index: string, body: JsonObject): Promise<SearchAnswer>;
  /** A search of the caller's organization's network events (rest/v1 proxy, the caller's token). */
  networkEvents(body: JsonObject): Promise<SearchAnswer>;
}

export interface SearchLoaderDeps {
  http: HttpClient;
  /** A search service is configured (else searches answer NOT_CONFIGURED, without any call). */
  configured: boolean;
  /** The caller sent credentials. */
  authenticated: boolean;
  /** The caller's organization (identity/v1, cached per request by the network loaders). */
  organization: () => Promise<OrganizationRecord>;
}

export function createSearchLoaders(deps: SearchLoaderDeps): SearchLoaders {
  const client = new SearchClient(deps.http);
  let caller: Promise<OrganizationRecord> | null = null;

  function acceptedCaller(): Promise<OrganizationRecord> {
    if (!deps.authenticated) return Promise.reject(new GatewayError(ErrorCode.UNAUTHENTICATED, 'Event search needs a bearer token (Authorization header)'));
    caller ??= deps.organization();
    return caller;
  }

  return {
    async search(index, body) {
      if (!deps.configured) throw new GatewayError(ErrorCode.NOT_CONFIGURED, 'No search service is configured (SEARCH_URL): event search is not available on this gateway');
      await acceptedCaller();
      return client.search(index, body);
    },
    async networkEvents(body) {
      const organization = await acceptedCaller();
      return client.networkEvents(organization.id, body);
    },
  };
}
