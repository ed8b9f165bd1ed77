/**
 * Per-request event search (created by the context). The search service is the installation's,
 * read with the gateway's basic credentials and no filter by caller, so before the first search of
 * a request the caller must be one the operator allowed (`admit`: the token verified with the
 * platform, its organization in `EVENTS_ALLOWED_ORGANIZATIONS`). No token → UNAUTHENTICATED with
 * no call at all; a refused one → UNAUTHENTICATED, another organization → FORBIDDEN, and no
 * search call. The rest/v1 search proxy (`networkEvents`) reads with the caller's own token for
 * the caller's own organization: the platform decides there.
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
  /** Resolves when the caller may read the installation's search service; rejects UNAUTHENTICATED or FORBIDDEN. */
  admit: () => Promise<void>;
}

export function createSearchLoaders(deps: SearchLoaderDeps): SearchLoaders {
  const client = new SearchClient(deps.http);
  let caller: Promise<OrganizationRecord> | null = null;
  let admitted: Promise<void> | null = null;

  function acceptedCaller(): Promise<OrganizationRecord> {
    if (!deps.authenticated) return Promise.reject(new GatewayError(ErrorCode.UNAUTHENTICATED, 'Event search needs a bearer token (Authorization header)'));
    caller ??= deps.organization();
    return caller;
  }

  return {
    async search(index, body) {
      if (!deps.configured) throw new GatewayError(ErrorCode.NOT_CONFIGURED, 'No search service is configured (SEARCH_URL): event search is not available on this gateway');
      if (!deps.authenticated) throw new GatewayError(ErrorCode.UNAUTHENTICATED, 'Event search needs a bearer token (Authorization header)');
      admitted ??= deps.admit();
      await admitted;
      return client.search(index, body);
    },
    async networkEvents(body) {
      const organization = await acceptedCaller();
      return client.networkEvents(organization.id, body);
    },
  };
}
