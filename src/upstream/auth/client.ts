/**
 * AuthClient: the typed methods over auth/v1. It knows paths and changes (resources.ts), list
 * forms (list-body.ts) and parsers (records.ts); it reads through the HTTP layer and changes
 * through the one sender (../writes.ts). A body that does not fit the contract becomes
 * UPSTREAM_BAD_RESPONSE.
 */
import { ErrorCode, UpstreamError } from '../../errors/codes';
import type { HttpClient, UpstreamRequest } from '../http-types';
import { type PageFetcher, WHOLE_LIST_PAGE_SIZE, fetchAll } from '../paging';
import { ShapeError } from '../../errors/shape-error';
import { Writer, type WriteRequest } from '../writes';
import { parseListBody } from './list-body';
import { AUTH_WRITES, type AuthResource, type AuthResourceName, type AuthWriteDef, type AuthWriteName, type AuthWriteTypes, type ListFilter, canonicalFilter } from './resources';
import { segment } from '../path-segment';

const SERVICE = 'auth-v1';

export class AuthClient {
  /** `writer` makes the request's loaders forget what a change touched; a client on its own caches nothing. */
  constructor(
    private readonly http: HttpClient,
    private readonly writer: Writer<readonly AuthResourceName[]> = new Writer(http, SERVICE, () => undefined),
  ) {}

  /**
   * The whole list. A page object is followed through its `totalPages` (paging.ts). A bare array
   * as long as the size asked for may be a clamped page (the platform pages some lists without
   * saying which): the next page is asked until a shorter one, an empty one, or a repeat (an upstream
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
    const request: UpstreamRequest = { service: SERVICE, method: 'GET', path: `${res.path}/${segment(id)}` };
    const answer = await this.http.send(request);
    return this.parsed(request, answer.status, () => res.parse(answer.body));
  }

  /** One change of the table (AUTH_WRITES): a POST sends `input` as its body. */
  async write<N extends AuthWriteName>(name: N, input: AuthWriteTypes[N]['input']): Promise<AuthWriteTypes[N]['result']> {
    const def: AuthWriteDef<AuthWriteTypes[N]['input'], AuthWriteTypes[N]['result']> = AUTH_WRITES[name];
    const path = def.path(input);
    const request: WriteRequest = def.method === 'POST' ? { method: def.method, path, json: input } : { method: def.method, path };
    const answer = await this.writer.send(request, { hint: def.hint(input), touches: def.touches });
    return this.parsed({ service: SERVICE, method: def.method, path }, answer.status, () => def.parse(answer.body));
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
