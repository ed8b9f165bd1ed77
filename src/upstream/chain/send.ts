/**
 * "Send": the last step, one attempt on the wire. A keep-alive undici `Pool` per origin with
 * explicit timeouts; headers (the call's credential, never one from the request; the attempt's
 * trace context); the body read as text, JSON parsed; every outcome that is not a 2xx thrown as an
 * `UpstreamError` with its code (../http-errors.ts). What it learnt (status, retryable,
 * Retry-After) is left on the attempt (`attempt.result`) for retry, metrics and the breaker.
 */
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { ErrorCode, UpstreamError, type UpstreamCallInfo } from '../../errors/codes';
import type { UpstreamRequest, UpstreamResponse } from '../http-types';
import { codeForStatus, codeForTransportError, outcomeUnknown, transportErrorCode, upstreamErrorMessage } from '../http-errors';
import { isRetryableErrorCode, isRetryableStatus, parseRetryAfter } from '../retry';
import type { AttemptResult, SendAttempt, UpstreamAttempt } from './call';
import { cancelled } from './stopped';

export interface SendSettings {
  readonly timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  /** Largest body read; past it the read stops and the call is `UPSTREAM_BAD_RESPONSE`. */
  readonly maxBodyBytes: number;
  /** Whether the caller's `tracestate` goes out with `traceparent` (vendor data the platform need not see). */
  readonly forwardTracestate: boolean;
  /** The clock an HTTP-date `Retry-After` is read against (the breakers' clock). */
  readonly now: () => number;
}

/** 32 MiB: far above the largest page the contract sends (1,000 records), far below what hurts the process. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Connections kept per origin; the pool-share step (pool-share.ts) hands them out, so undici never queues. */
export const POOL_CONNECTIONS = 64;

/** The results most attempts end with, made once (they are read, never changed). */
const OK: AttemptResult = { status: 200, retryable: false, retryAfterMs: null, transportCode: undefined };
const CANCELLED: AttemptResult = { status: null, retryable: false, retryAfterMs: null, transportCode: undefined };

/** undici's code when a body passes the Pool's `maxResponseSize` (it destroys the socket: the read stops). */
const TOO_LARGE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

export interface Sender {
  readonly send: SendAttempt;
  close(): Promise<void>;
}

export function createSender(settings: SendSettings): Sender {
  const pools = new Map<string, Pool>();
  function poolFor(origin: string): Pool {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: POOL_CONNECTIONS,
        connectTimeout: settings.timeouts.connectMs,
        headersTimeout: settings.timeouts.headersMs,
        bodyTimeout: settings.timeouts.bodyMs,
        maxResponseSize: settings.maxBodyBytes,
      });
      pools.set(origin, pool);
    }
    return pool;
  }
  return {
    send: (attempt) => sendOnce(poolFor(attempt.call.target.origin), attempt, settings),
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
}

async function sendOnce(pool: Pool, attempt: UpstreamAttempt, settings: SendSettings): Promise<UpstreamResponse> {
  const { call } = attempt;
  const { request, target, signal } = call;
  let statusCode: number | null = null;
  let headers: Record<string, string>;
  let received: string;
  try {
    const res = await pool.request({
      method: request.method,
      path: target.pathAndQuery,
      headers: buildHeaders(request, call.authorization, settings.forwardTracestate ? attempt.headers : withoutTracestate(attempt.headers)),
      body: requestBody(request),
      signal,
    });
    statusCode = res.statusCode;
    headers = flattenHeaders(res.headers);
    received = await res.body.text();
  } catch (error) {
    if (signal.aborted) {
      attempt.result = CANCELLED;
      throw cancelled(target.info, signal);
    }
    const code = transportErrorCode(error);
    if (code === TOO_LARGE) {
      attempt.result = { status: statusCode, retryable: false, retryAfterMs: null, transportCode: undefined };
      throw new UpstreamError(ErrorCode.UPSTREAM_BAD_RESPONSE, `${request.service} sent a body larger than ${settings.maxBodyBytes} bytes (UPSTREAM_MAX_BODY_BYTES); it was not read`, { ...target.info, status: statusCode }, { cause: error });
    }
    attempt.result = { status: null, retryable: isRetryableErrorCode(code), retryAfterMs: null, transportCode: code };
    const errorCode = codeForTransportError(code);
    const unknown = outcomeUnknown(request.method, { transportCode: code });
    const message = unknown
      ? `${request.service} ${errorCode === ErrorCode.UPSTREAM_TIMEOUT ? 'did not answer' : `dropped the connection${code ? ` (${code})` : ''}`} after ${request.method} ${target.info.path} was sent: the change may or may not have been applied (it is not sent again)`
      : errorCode === ErrorCode.UPSTREAM_TIMEOUT
        ? `${request.service} did not answer in time`
        : `${request.service} is unreachable${code ? ` (${code})` : ''}`;
    throw new UpstreamError(errorCode, message, target.info, { cause: error, outcomeUnknown: unknown });
  }
  // Fields named, not spread: spreads on the request path cost microseconds each (src/server/README.md).
  const info: UpstreamCallInfo = { service: target.info.service, method: target.info.method, path: target.info.path, status: statusCode };
  const isJson = /[/+]json\b/i.test(headers['content-type'] ?? '');
  if (statusCode >= 200 && statusCode < 300) {
    attempt.result = statusCode === 200 ? OK : { status: statusCode, retryable: false, retryAfterMs: null, transportCode: undefined };
    if (isJson && received.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(received);
      } catch (error) {
        throw new UpstreamError(ErrorCode.UPSTREAM_BAD_RESPONSE, `${request.service} sent a JSON body that does not parse`, info, { cause: error });
      }
      return { status: statusCode, headers, body, text: received };
    }
    return { status: statusCode, headers, body: received === '' ? null : received, text: received };
  }
  attempt.result = {
    status: statusCode,
    retryable: isRetryableStatus(statusCode),
    retryAfterMs: statusCode === 429 || statusCode === 503 ? parseRetryAfter(headers['retry-after'], settings.now()) : null,
    transportCode: undefined,
    headers,
  };
  const upstreamMessage = isJson || looksLikeJson(received) ? upstreamErrorMessage(safeJson(received)) : null;
  const unknown = outcomeUnknown(request.method, { status: statusCode });
  const message = unknown
    ? `${request.service} answered ${statusCode} (a gateway timeout) to ${request.method} ${info.path}: the change may or may not have been applied (it is not sent again)`
    : `${request.service} answered ${statusCode}${upstreamMessage ? `: ${upstreamMessage}` : ''}`;
  throw new UpstreamError(unknown ? ErrorCode.UPSTREAM_TIMEOUT : codeForStatus(statusCode), message, info, { outcomeUnknown: unknown });
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

function withoutTracestate(trace: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  if (trace === undefined || !('tracestate' in trace)) return trace;
  const { tracestate: _dropped, ...rest } = trace;
  return rest;
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
