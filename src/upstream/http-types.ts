/**
 * The contract of the HTTP layer (implemented in http.ts). Clients depend on this interface
 * only, so unit tests can hand them a fake and the layer can change underneath.
 */
import type { UpstreamService } from '../errors/codes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface UpstreamRequest {
  service: UpstreamService;
  method: HttpMethod;
  /** Path below the service's base (e.g. `/networks/abc`), or an absolute URL on the same origin (HAL hrefs). */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null | readonly string[]>;
  /** JSON body; serialized by the layer with `Content-Type: application/json`. */
  json?: unknown;
  /** A non-JSON body (CSV, YAML uploads). */
  raw?: { contentType: string; data: string };
  /** Extra headers (never Authorization: the layer adds the caller's credentials itself). */
  headers?: Record<string, string>;
  /**
   * A change (set by the one sender, writes.ts): once answered, or maybe applied, the cached reads
   * it touched are forgotten for every credential on every replica (src/upstream/cache).
   */
  change?: true;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, the text otherwise, null when empty. */
  body: unknown;
  /** The raw text of the body (blueprint YAML, registration keys). */
  text: string;
}

/**
 * One caller's view of the HTTP layer: it carries that caller's credentials and the request's
 * AbortSignal and concurrency cap. Created per GraphQL request by the context.
 *
 * `send` resolves with 2xx responses only; anything else throws UpstreamError already mapped
 * to an error code (http-errors.ts). GETs are retried per the retry policy; other methods never.
 */
export interface HttpClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
}
