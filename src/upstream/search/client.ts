/**
 * The search service client. Two ways in, each with the credentials its service takes (the HTTP layer adds them;
 * see ../http.ts):
 *
 * - `search(index, body)`: `GET {search_url}/{index}/_search` with a JSON body, service `search`:
 *   the configured basic credentials, never the caller's token;
 * - `networkEvents(orgId, body)`: `POST {base}/rest/v1/elastic/ncentityevent/{orgId}/_search/`,
 *   service `rest-v1`: the caller's token (the platform filters by organization).
 */
import type { UpstreamService } from '../../errors/codes';
import type { HttpClient, HttpMethod } from '../http-types';
import type { JsonObject } from '../../core/parse';
import { readBody } from '../read-body';
import { parseSearchAnswer, type SearchAnswer } from './records';
import { segment } from '../path-segment';

export class SearchClient {
  constructor(private readonly http: HttpClient) {}

  search(index: string, body: JsonObject): Promise<SearchAnswer> {
    return this.send('search', 'GET', `/${index}/_search`, body);
  }

  networkEvents(organizationId: string, body: JsonObject): Promise<SearchAnswer> {
    return this.send('rest-v1', 'POST', `/elastic/ncentityevent/${segment(organizationId, 'organizationId')}/_search/`, body);
  }

  private send(service: UpstreamService, method: HttpMethod, path: string, body: JsonObject): Promise<SearchAnswer> {
    return readBody(this.http, { service, method, path, json: body }, service, (res) => parseSearchAnswer(res.body));
  }
}
