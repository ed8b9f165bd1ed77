/**
 * The one HTTP layer every upstream client goes through:
 * a keep-alive undici Pool per origin with explicit timeouts, the caller's credentials,
 * a per-request concurrency cap, GET-only retries with backoff + full jitter, outcome → UpstreamError
 * mapping, per-request call counting and a Prometheus histogram.
 */
import { Histogram, type Registry } from 'prom-client';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { BudgetExceededError, ErrorCode, UpstreamError, type UpstreamCallInfo, type UpstreamService } from '../errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from './http-types';
import { codeForStatus, codeForTransportError, outcomeUnknown, transportErrorCode, upstreamErrorMessage } from './http-errors';
import type { OperationSpan, UpstreamSpan } from '../tracing';
import { onAbort, type CancelSignal } from '../core/cancellation';
import { linkTarget, type ServiceBase } from './link-target';
import { backoffDelay, isRetryableErrorCode, isRetryableStatus, parseRetryAfter, sleep, type RetryPolicy } from './retry';

export interface HttpLayerConfig {
  /** The platform's `{base_url}` (may carry a path prefix). */
  upstreamBaseUrl: string;
  /** The search service's address; null when not configured. */
  searchUrl: string | null;
  searchCredentials: { username: string; password: string } | null;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  retry: RetryPolicy;
  /** Upstream calls one GraphQL request may have in flight at once. */
  maxConcurrentPerRequest: number;
  /** Where the upstream call histogram is exposed (none: it is kept but not exposed). */
  metrics?: Registry;
  /** A per-caller quota of upstream calls (`CALLER_UPSTREAM_CALLS_PER_MINUTE`); none when unset. */
  quota?: UpstreamQuota;
}

/**
 * Counts the upstream requests one caller causes (src/state/call-quota.ts). `forCaller` answers
 * the counter of one Authorization value (it hashes it; null: nothing counted); the counter
 * rejects past the quota, and the request is then not sent (its retries count with it).
 */
export interface UpstreamQuota {
  forCaller(authorization: string | undefined): (() => Promise<void>) | null;
}

export interface CallerOptions {
  /** The caller's Authorization header, forwarded verbatim to every service except search. */
  authorization?: string | undefined;
  /** The GraphQL request's signal: aborting it cancels queued and running upstream calls. */
  signal: CancelSignal;
  /** Incremented once per HTTP request sent (retries included). */
  calls?: { count: number };
  /** The operation's running budget (src/limits/budget.ts): calls counted against it, its deadline aborts reads. */
  budget?: CallBudget;
  /** The operation's span when tracing is on (src/tracing): each attempt gets a child span and sends its trace headers. */
  trace?: OperationSpan;
  /** The gateway's own call for the caller (verifying the token), not the caller's: outside the per-caller quota. */
  unmetered?: boolean;
}

/**
 * What the HTTP layer needs of an operation's budget. Its signal aborts reads (GET) when a budget
 * is crossed or the deadline passes; a change already sent is never cut by it, so its outcome
 * stays known (and no change is ever sent twice): a change only checks the budget before it is sent.
 */
export interface CallBudget {
  readonly signal: CancelSignal;
  /** Counts one call; throws the budget's error (nothing is sent) when none is left. */
  spendCall(): void;
}

export interface HttpLayer {
  forCaller(options: CallerOptions): HttpClient;
  /** Base URL of each configured service (for the readiness probe). */
  serviceUrls(): ReadonlyArray<{ service: UpstreamService; url: string }>;
  close(): Promise<void>;
}

/** Where each platform service lives below `{base_url}` (search has its own URL). */
const SERVICE_PATHS: ReadonlyArray<readonly [Exclude<UpstreamService, 'search'>, string]> = [
  ['auth-v1', '/auth/v1'],
  ['rest-v1', '/rest/v1'],
  ['identity-v1', '/identity/v1'],
  ['core-v2', '/core/v2'],
];

export function createHttpLayer(config: HttpLayerConfig): HttpLayer {
  const bases = serviceBases(config);
  const pools = new Map<string, Pool>();
  const histogram = new Histogram({
    name: 'netgraph_upstream_request_duration_seconds',
    help: 'Duration of upstream HTTP requests (each attempt), by service, method and status class.',
    labelNames: ['service', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: config.metrics ? [config.metrics] : [],
  });
  const searchAuth = config.searchCredentials
    ? `Basic ${Buffer.from(`${config.searchCredentials.username}:${config.searchCredentials.password}`).toString('base64')}`
    : null;

  function poolFor(origin: string): Pool {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: 64,
        connectTimeout: config.timeouts.connectMs,
        headersTimeout: config.timeouts.headersMs,
        bodyTimeout: config.timeouts.bodyMs,
      });
      pools.set(origin, pool);
    }
    return pool;
  }

  function forCaller(caller: CallerOptions): HttpClient {
    const limit = createLimiter(config.maxConcurrentPerRequest);
    const spend = caller.unmetered === true ? null : (config.quota?.forCaller(caller.authorization) ?? null);
    return {
      send: (request) => {
        const signal = signalFor(request, caller);
        return limit(
          signal,
          () => {
            const base = bases.get(request.service);
            if (!base) throw new UpstreamError(ErrorCode.NOT_CONFIGURED, `${request.service} is not configured on this gateway`, requestInfo(request));
            const authorization = request.service === 'search' ? searchAuth : (caller.authorization ?? null);
            if (spend === null) return sendWithRetries(request, base, authorization, caller);
            return spend().then(() => sendWithRetries(request, base, authorization, caller));
          },
          // A call still queued when the request stops fails as one stopped in flight does.
          () => cancelled(requestInfo(request), signal),
        );
      },
    };
  }

  async function sendWithRetries(request: UpstreamRequest, base: ServiceBase, authorization: string | null, caller: CallerOptions): Promise<UpstreamResponse> {
    const target = resolveTarget(request, base);
    const attempts = request.method === 'GET' ? Math.max(1, config.retry.attempts) : 1;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await attemptOnce(request, target, authorization, caller, attempt);
      if (outcome.ok) return outcome.response;
      const last = attempt >= attempts;
      if (last || !outcome.retryable) throw outcome.error;
      let delay = backoffDelay(config.retry, attempt);
      if (outcome.retryAfterMs !== null) {
        // Honour Retry-After; when it asks for longer than we may wait, give up now.
        if (outcome.retryAfterMs > config.retry.maxRetryAfterMs) throw outcome.error;
        delay = outcome.retryAfterMs;
      }
      try {
        await sleep(delay, signalFor(request, caller));
      } catch {
        throw cancelled(target.info, signalFor(request, caller));
      }
    }
  }

  type Outcome =
    | { ok: true; response: UpstreamResponse }
    | { ok: false; error: UpstreamError | BudgetExceededError; retryable: boolean; retryAfterMs: number | null };

  async function attemptOnce(request: UpstreamRequest, target: Target, authorization: string | null, caller: CallerOptions, attempt: number): Promise<Outcome> {
    const signal = signalFor(request, caller);
    if (signal.aborted) return { ok: false, error: cancelled(target.info, signal), retryable: false, retryAfterMs: null };
    caller.budget?.spendCall();
    if (caller.calls) caller.calls.count += 1;
    // Only attempts actually sent get a span (a budget refusal above sends nothing).
    const span = caller.trace?.startUpstream({ service: request.service, method: request.method, path: target.info.path, attempt });
    const outcome = await sendOnce(request, target, authorization, signal, span);
    if (span) span.end(outcome.ok ? { status: outcome.response.status } : { status: outcome.error instanceof UpstreamError ? outcome.error.upstream.status : null, errorCode: outcome.error.code });
    return outcome;
  }

  async function sendOnce(request: UpstreamRequest, target: Target, authorization: string | null, signal: CancelSignal, span: UpstreamSpan | undefined): Promise<Outcome> {
    const started = performance.now();
    const observe = (statusClass: string): void => {
      histogram.observe({ service: request.service, method: request.method, status_class: statusClass }, (performance.now() - started) / 1000);
    };
    let statusCode: number;
    let headers: Record<string, string>;
    let received: string;
    try {
      const res = await poolFor(target.origin).request({
        method: request.method,
        path: target.pathAndQuery,
        headers: buildHeaders(request, authorization, span?.headers),
        body: requestBody(request),
        signal,
      });
      statusCode = res.statusCode;
      headers = flattenHeaders(res.headers);
      received = await res.body.text();
    } catch (error) {
      observe('error');
      if (signal.aborted) return { ok: false, error: cancelled(target.info, signal), retryable: false, retryAfterMs: null };
      const code = transportErrorCode(error);
      const errorCode = codeForTransportError(code);
      const unknown = outcomeUnknown(request.method, { transportCode: code });
      const message = unknown
        ? `${request.service} ${errorCode === ErrorCode.UPSTREAM_TIMEOUT ? 'did not answer' : `dropped the connection${code ? ` (${code})` : ''}`} after ${request.method} ${target.info.path} was sent: the change may or may not have been applied (it is not sent again)`
        : errorCode === ErrorCode.UPSTREAM_TIMEOUT
          ? `${request.service} did not answer in time`
          : `${request.service} is unreachable${code ? ` (${code})` : ''}`;
      return {
        ok: false,
        error: new UpstreamError(errorCode, message, target.info, { cause: error, outcomeUnknown: unknown }),
        retryable: isRetryableErrorCode(code),
        retryAfterMs: null,
      };
    }
    observe(`${Math.floor(statusCode / 100)}xx`);
    // Fields named, not spread: spreads on the request path cost microseconds each (src/server/README.md).
    const info: UpstreamCallInfo = { service: target.info.service, method: target.info.method, path: target.info.path, status: statusCode };
    const isJson = /[/+]json\b/i.test(headers['content-type'] ?? '');
    if (statusCode >= 200 && statusCode < 300) {
      if (isJson && received.trim() !== '') {
        let body: unknown;
        try {
          body = JSON.parse(received);
        } catch (error) {
          const bad = new UpstreamError(ErrorCode.UPSTREAM_BAD_RESPONSE, `${request.service} sent a JSON body that does not parse`, info, { cause: error });
          return { ok: false, error: bad, retryable: false, retryAfterMs: null };
        }
        return { ok: true, response: { status: statusCode, headers, body, text: received } };
      }
      return { ok: true, response: { status: statusCode, headers, body: received === '' ? null : received, text: received } };
    }
    const text = received;
    const upstreamMessage = isJson || looksLikeJson(text) ? upstreamErrorMessage(safeJson(text)) : null;
    const unknown = outcomeUnknown(request.method, { status: statusCode });
    const message = unknown
      ? `${request.service} answered ${statusCode} (a gateway timeout) to ${request.method} ${info.path}: the change may or may not have been applied (it is not sent again)`
      : `${request.service} answered ${statusCode}${upstreamMessage ? `: ${upstreamMessage}` : ''}`;
    return {
      ok: false,
      error: new UpstreamError(unknown ? ErrorCode.UPSTREAM_TIMEOUT : codeForStatus(statusCode), message, info, { outcomeUnknown: unknown }),
      retryable: isRetryableStatus(statusCode),
      retryAfterMs: statusCode === 429 || statusCode === 503 ? parseRetryAfter(headers['retry-after']) : null,
    };
  }

  return {
    forCaller,
    serviceUrls: () => [...bases].map(([service, base]) => ({ service, url: `${base.origin}${base.basePath}/` })),
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
}

function serviceBases(config: HttpLayerConfig): Map<UpstreamService, ServiceBase> {
  const bases = new Map<UpstreamService, ServiceBase>();
  const upstream = new URL(config.upstreamBaseUrl);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  for (const [service, path] of SERVICE_PATHS) bases.set(service, { origin: upstream.origin, basePath: `${prefix}${path}`, servicePath: path });
  if (config.searchUrl !== null) {
    const search = new URL(config.searchUrl);
    bases.set('search', { origin: search.origin, basePath: search.pathname.replace(/\/+$/, ''), servicePath: null });
  }
  return bases;
}

interface Target {
  origin: string;
  pathAndQuery: string;
  info: UpstreamCallInfo;
}

/** Where a request goes: normalized and held under the service's base path on its origin (link-target.ts), or refused unsent. */
function resolveTarget(request: UpstreamRequest, base: ServiceBase): Target {
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

function buildHeaders(request: UpstreamRequest, authorization: string | null, trace: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const headers: Record<string, string> = request.headers === undefined ? { accept: 'application/json' } : { accept: 'application/json', ...lowerKeys(request.headers) };
  delete headers['authorization'];
  if (authorization !== null) headers['authorization'] = authorization;
  // `traceparent`, and `tracestate` when the trace carries one.
  if (trace !== undefined) Object.assign(headers, trace);
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  else if (request.raw) headers['content-type'] = request.raw.contentType;
  return headers;
}

function requestBody(request: UpstreamRequest): string | undefined {
  if (request.json !== undefined) return JSON.stringify(request.json);
  return request.raw?.data;
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const key in headers) {
    const value = headers[key];
    if (value === undefined) continue;
    flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads stop with the operation's budget; changes only with the request itself (see CallBudget). */
function signalFor(request: UpstreamRequest, caller: CallerOptions): CancelSignal {
  return request.method === 'GET' && caller.budget ? caller.budget.signal : caller.signal;
}

/** The error of a call stopped by `signal`: the budget's own error when a budget stopped it. */
function cancelled(info: UpstreamCallInfo, signal: CancelSignal): UpstreamError | BudgetExceededError {
  if (signal.reason instanceof BudgetExceededError) return signal.reason;
  return new UpstreamError(ErrorCode.UPSTREAM_UNAVAILABLE, 'the request was cancelled before the upstream answered', info);
}

/** A call's info before it has a target: its path without the query string. */
function requestInfo(request: UpstreamRequest): UpstreamCallInfo {
  return { service: request.service, method: request.method, path: request.path.split('?')[0] ?? '', status: null };
}

/** A small semaphore: at most `max` tasks run at once; queued tasks leave, with `stopped()`'s error, when the signal aborts. */
function createLimiter(max: number): <T>(signal: CancelSignal, task: () => Promise<T>, stopped: () => Error) => Promise<T> {
  let running = 0;
  const queue: Array<() => void> = [];
  // A finishing task hands its slot straight to the next queued one, so `running` never overshoots.
  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };
  return async (signal, task, stopped) => {
    if (running < max) running += 1;
    else {
      await new Promise<void>((resolve, reject) => {
        const start = (): void => {
          stopListening();
          resolve();
        };
        const stopListening = onAbort(signal, () => {
          const i = queue.indexOf(start);
          if (i >= 0) queue.splice(i, 1);
          reject(stopped());
        });
        queue.push(start);
      });
    }
    try {
      return await task();
    } finally {
      release();
    }
  };
}
