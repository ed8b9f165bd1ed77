/** A fake HttpClient over fixed auth/v1 routes, recording every call (for unit tests). */
import { ErrorCode, UpstreamError } from '../../../src/errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';

export type Route = (request: UpstreamRequest) => unknown;

export class FakeAuthHttp implements HttpClient {
  readonly calls: UpstreamRequest[] = [];
  constructor(private readonly routes: Record<string, Route>) {}

  async send(request: UpstreamRequest): Promise<UpstreamResponse> {
    this.calls.push(request);
    const route = this.routes[`${request.method} ${request.path}`];
    if (route === undefined) {
      throw new UpstreamError(ErrorCode.NOT_FOUND, 'not found', { service: 'auth-v1', method: request.method, path: request.path, status: 404 });
    }
    const body = route(request);
    return { status: 200, headers: {}, body, text: JSON.stringify(body ?? null) };
  }

  /** Calls as `METHOD path?query` strings without paging parameters. */
  described(): string[] {
    return this.calls.map((c) => {
      const q = Object.entries(c.query ?? {}).filter(([k]) => k !== 'page' && k !== 'size');
      return `${c.method} ${c.path}${q.length > 0 ? `?${q.map(([k, v]) => `${k}=${String(v)}`).join('&')}` : ''}`;
    });
  }
}

export function queryOf(request: UpstreamRequest, key: string): string | undefined {
  const v = request.query?.[key];
  return v === undefined || v === null ? undefined : String(v);
}
