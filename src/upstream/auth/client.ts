/**
 * AuthClient: the typed methods over auth/v1. It knows paths (resources.ts), list forms
 * (list-body.ts) and parsers (records.ts); it sends through the HTTP layer and nothing else.
 * A body that does not fit the contract becomes UPSTREAM_BAD_RESPONSE.
 */
import { ErrorCode, UpstreamError } from '../../errors/codes';
import type { HttpClient, HttpMethod, UpstreamRequest } from '../http-types';
import { type PageFetcher, WHOLE_LIST_PAGE_SIZE, fetchAll } from '../paging';
import { asArray } from '../parse';
import { ShapeError } from '../../errors/shape-error';
import { parseListBody } from './list-body';
import { parseMasquerade } from './records';
import { type AuthResource, type ListFilter, canonicalFilter } from './resources';
import { AUTH_RESOURCES } from './resources';
import type {
  DomainRecord,
  MasqueradeRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SuperUserRecord,
} from './types';

const SERVICE = 'auth-v1';

/** Body of `POST /resource-types` (children nest to any depth). */
export interface ResourceTypeDefinition {
  name: string;
  code: string;
  children?: ResourceTypeDefinition[];
}

export class AuthClient {
  constructor(private readonly http: HttpClient) {}

  /**
   * The whole list. A page object is followed through its `totalPages` (paging.ts). A bare array
   * as long as the size asked for may be a clamped page (the seed pages some lists without saying
   * which): the next page is asked until a shorter one, an empty one, or a repeat (an upstream
   * that ignores `page`) comes back.
   */
  async list<T>(res: AuthResource<T>, filter: ListFilter = {}): Promise<T[]> {
    const params = Object.fromEntries(canonicalFilter(res, filter));
    const fetchPage: PageFetcher<T> = async (page, size) => {
      const request: UpstreamRequest = { service: SERVICE, method: 'GET', path: res.path, query: { ...params, page, size } };
      const answer = await this.http.send(request);
      return this.parsed(request, answer.status, () => parseListBody(answer.body, res.parse, `${res.name} list`));
    };
    const first = await fetchPage(0, WHOLE_LIST_PAGE_SIZE);
    if (first.page !== null) {
      return fetchAll((page, size) => (page === 0 && size === WHOLE_LIST_PAGE_SIZE ? Promise.resolve(first) : fetchPage(page, size)));
    }
    const items = [...first.items];
    let last = first.items;
    for (let page = 1; last.length >= WHOLE_LIST_PAGE_SIZE; page++) {
      const next = (await fetchPage(page, WHOLE_LIST_PAGE_SIZE)).items;
      if (next.length === 0 || JSON.stringify(next[0]) === JSON.stringify(last[0])) break;
      items.push(...next);
      last = next;
    }
    return items;
  }

  async get<T>(res: AuthResource<T>, id: string): Promise<T> {
    return this.call('GET', `${res.path}/${encodeURIComponent(id)}`, undefined, res.parse);
  }

  createDomain(body: { name: string; code: string }): Promise<DomainRecord> {
    return this.call('POST', AUTH_RESOURCES.domain.path, body, AUTH_RESOURCES.domain.parse);
  }

  createResourceType(body: {
    domainId: string | null;
    parentId: string | null;
    resourceType: ResourceTypeDefinition;
  }): Promise<ResourceTypeRecord> {
    return this.call('POST', AUTH_RESOURCES.resourceType.path, body, AUTH_RESOURCES.resourceType.parse);
  }

  createResourceActions(body: {
    resourceTypeId: string | null;
    actions: Array<{ name: string; code: string }>;
  }): Promise<ResourceActionRecord[]> {
    const parse = AUTH_RESOURCES.resourceAction.parse;
    return this.call('POST', AUTH_RESOURCES.resourceAction.path, body, (value) =>
      asArray(value, 'created resource actions').map(parse),
    );
  }

  createSuperUser(body: { identityId: string; domainId: string | null }): Promise<SuperUserRecord> {
    return this.call('POST', AUTH_RESOURCES.superUser.path, body, AUTH_RESOURCES.superUser.parse);
  }

  /** `DELETE /super-users/{id}`: empty body, 200. */
  async deleteSuperUser(id: string): Promise<void> {
    await this.http.send({ service: SERVICE, method: 'DELETE', path: `${AUTH_RESOURCES.superUser.path}/${encodeURIComponent(id)}` });
  }

  createPublicGrant(body: {
    resourceActionId: string | null;
    path: Array<{ resourceId: string; resourceTypeId: string | null }>;
    anonymous: boolean | null;
  }): Promise<PublicGrantRecord> {
    return this.call('POST', AUTH_RESOURCES.publicGrant.path, body, AUTH_RESOURCES.publicGrant.parse);
  }

  masquerade(body: { identityId: string; audience: string; claims: Record<string, unknown> }): Promise<MasqueradeRecord> {
    return this.call('POST', '/masquerade', body, parseMasquerade);
  }

  private async call<T>(method: HttpMethod, path: string, json: unknown, parse: (value: unknown) => T): Promise<T> {
    const request: UpstreamRequest = json === undefined ? { service: SERVICE, method, path } : { service: SERVICE, method, path, json };
    const answer = await this.http.send(request);
    return this.parsed(request, answer.status, () => parse(answer.body));
  }

  /** Runs a parser; a ShapeError becomes UPSTREAM_BAD_RESPONSE naming the call. */
  private parsed<T>(request: UpstreamRequest, status: number, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      throw new UpstreamError(ErrorCode.UPSTREAM_BAD_RESPONSE, `auth/v1 answered an unexpected body: ${error.message}`, {
        service: SERVICE,
        method: request.method,
        path: request.path,
        status,
      }, { cause: error });
    }
  }
}
