/**
 * The one sender of changes (POST, PUT, DELETE) to the writable APIs (auth/v1, rest/v1, core/v2). Each change is
 * sent once (the HTTP layer retries GETs only); when it may have been applied without an answer,
 * its error says so (`outcomeUnknown`) and how to check before trying again; and, answered or
 * maybe applied, the request's loaders forget the cached reads it touched, so fields read after
 * it in the same operation see the new state.
 */
import type { WriteService } from '../core/upstream-apis';
import { UpstreamError } from '../errors/codes';
import type { HttpClient, HttpMethod, UpstreamRequest } from './http-types';

/** The services that take changes: the rows marked `writable` (src/core/upstream-apis.ts). */
export type { WriteService };

/** One change: method, path below the service, and a JSON or raw (CSV, YAML) body. */
export interface WriteRequest {
  method: Exclude<HttpMethod, 'GET'>;
  path: string;
  json?: unknown;
  raw?: { contentType: string; data: string };
}

/** What a change answered (a 2xx); network/change-answer.ts reads the entity, ids and business key. */
export interface WriteAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

/**
 * What a change means besides its request, from its area's write table: how to check it, and
 * which cached reads it makes stale (in the area's own terms: the loaders know how to forget them).
 */
export interface WriteEffect<T> {
  /** Added to the message of an unknown outcome: how to find out (list by name, read by id). */
  hint: string;
  touches: T;
}

export class Writer<T> {
  constructor(
    private readonly http: HttpClient,
    private readonly service: WriteService,
    private readonly forget: (touched: T) => void,
  ) {}

  async send(request: WriteRequest, effect: WriteEffect<T>): Promise<WriteAnswer> {
    const sent: UpstreamRequest = { service: this.service, method: request.method, path: request.path, change: true };
    if (request.json !== undefined) sent.json = request.json;
    if (request.raw !== undefined) sent.raw = request.raw;
    let answer: WriteAnswer;
    try {
      const res = await this.http.send(sent);
      answer = { status: res.status, headers: res.headers, body: res.body };
    } catch (error) {
      // A refused change (4xx, 5xx) changed nothing; one that may have been applied did touch.
      if (!(error instanceof UpstreamError && error.outcomeUnknown)) throw error;
      this.forget(effect.touches);
      throw error.withHint(effect.hint);
    }
    this.forget(effect.touches);
    return answer;
  }
}
