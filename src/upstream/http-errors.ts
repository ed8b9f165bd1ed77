/**
 * Classification of upstream outcomes into error codes (the gateway's error table), and safe messages
 * from upstream error bodies. One table for statuses, one for transport errors.
 */
import { ErrorCode } from '../errors/codes';
import { isObject } from '../core/parse';

/**
 * Status → code. Besides 400, 401, 403, 404, 409, 429 and 5xx: 410 is a missing record (NOT_FOUND); 413 and
 * 422 reject the caller's input (BAD_USER_INPUT); any other 4xx (405, 406, 415…) means the gateway
 * built a request the upstream does not accept, which the caller cannot fix: UPSTREAM_ERROR.
 */
const STATUS_CODES: ReadonlyMap<number, ErrorCode> = new Map([
  [400, ErrorCode.BAD_USER_INPUT],
  [401, ErrorCode.UNAUTHENTICATED],
  [403, ErrorCode.FORBIDDEN],
  [404, ErrorCode.NOT_FOUND],
  [409, ErrorCode.CONFLICT],
  [410, ErrorCode.NOT_FOUND],
  [413, ErrorCode.BAD_USER_INPUT],
  [422, ErrorCode.BAD_USER_INPUT],
  [429, ErrorCode.RATE_LIMITED],
]);

export function codeForStatus(status: number): ErrorCode {
  const known = STATUS_CODES.get(status);
  if (known) return known;
  if (status >= 400 && status <= 599) return ErrorCode.UPSTREAM_ERROR;
  // 1xx/3xx: undici follows no redirects, and the contract has none.
  return ErrorCode.UPSTREAM_BAD_RESPONSE;
}

const TIMEOUT_ERROR_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** Transport error → code: timeouts vs. everything that means "nobody answered". */
export function codeForTransportError(errorCode: string | undefined): ErrorCode {
  return errorCode !== undefined && TIMEOUT_ERROR_CODES.has(errorCode) ? ErrorCode.UPSTREAM_TIMEOUT : ErrorCode.UPSTREAM_UNAVAILABLE;
}

/**
 * The `code` of a Node/undici error, looking through AggregateError (happy eyeballs) and `cause`.
 * Duck-typed on purpose: `instanceof Error` fails across realms (e.g. under jest's VM contexts).
 */
export function transportErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 4; depth += 1) {
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string') return code;
    const inner = 'errors' in e && Array.isArray(e.errors) ? e.errors.map(transportErrorCode).find((c) => c !== undefined) : undefined;
    if (inner !== undefined) return inner;
    e = 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

/** Transport errors raised before a request could leave: nothing reached the upstream. */
const NOT_SENT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed change (POST/PUT/DELETE) may have been applied anyway: the request may have
 * reached the upstream when the connection broke or timed out after connecting, or when a proxy
 * answered 504 (it gave up waiting, the upstream may not have). GETs change nothing.
 */
export function outcomeUnknown(method: string, failure: { transportCode?: string | undefined; status?: number }): boolean {
  if (method === 'GET') return false;
  if (failure.status !== undefined) return failure.status === 504;
  return failure.transportCode === undefined || !NOT_SENT_ERROR_CODES.has(failure.transportCode);
}

const MAX_MESSAGE_LENGTH = 300;

/**
 * The upstream's own error message, from either body shape on record
 * (`{ timestamp, status, error, message }` or `{ errors: [string], status: { code, label } }`);
 * null for HTML, empty or unknown bodies. Anything that looks like a credential is redacted.
 */
export function upstreamErrorMessage(body: unknown): string | null {
  if (!isObject(body)) return null;
  const record = body;
  const parts: string[] = [];
  if (typeof record['message'] === 'string' && record['message'].trim() !== '') parts.push(record['message']);
  else if (Array.isArray(record['errors'])) {
    parts.push(...record['errors'].filter((x): x is string => typeof x === 'string' && x.trim() !== ''));
  }
  if (parts.length === 0) {
    if (typeof record['error'] === 'string' && record['error'].trim() !== '') parts.push(record['error']);
    else {
      const status = record['status'];
      if (isObject(status) && typeof status['label'] === 'string') parts.push(status['label']);
    }
  }
  if (parts.length === 0) return null;
  const text = redactSecrets(parts.join('; ').replace(/\s+/g, ' ').trim());
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}

/**
 * Remove bearer/basic credentials and JWT-shaped strings from text meant for clients or logs.
 * Only a credential *value* is redacted: what follows the scheme must look like one (a digit or
 * one of `._~+/=`, or 16+ characters), so prose such as "missing bearer token" stays readable.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(/\b(Bearer|Basic)\s+([A-Za-z0-9._~+/=-]*[A-Za-z0-9_~+/=-])/gi, (match: string, scheme: string, value: string) =>
      looksLikeCredential(value) ? `${scheme} [redacted]` : match,
    )
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]');
}

function looksLikeCredential(value: string): boolean {
  return value.length >= 16 || /[0-9._~+/=]/.test(value);
}
