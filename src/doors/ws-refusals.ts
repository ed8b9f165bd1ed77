/**
 * What the WebSocket door's edge refusals are in the log and the metrics: a handshake `ws`
 * refuses, a close the door or graphql-ws makes for a protocol reason, an operation past the
 * connection's bound. Each one is a formatted error with a code and the HTTP-like status the log
 * line carries (graphql-ws's 44xx codes mirror HTTP's). A table, so the door only looks it up.
 */
import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../errors/codes';

export interface EdgeRefusal {
  status: number;
  error: GraphQLFormattedError;
}

const refusal = (status: number, code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): EdgeRefusal => ({ status, error: { message, extensions: { code, ...extensions } } });

/**
 * A handshake `ws` refused (its `wsClientError`: it gives the message, not the status): the status
 * and headers `ws` itself would have answered, and the refusal to note.
 */
export function handshakeRefusal(message: string): EdgeRefusal & { headers: Record<string, string> } {
  if (message === 'Invalid HTTP method') return { ...refusal(405, ErrorCode.BAD_REQUEST, `WebSocket handshake refused: ${message}`), headers: { Allow: 'GET' } };
  const headers: Record<string, string> = message.includes('Sec-WebSocket-Version') ? { 'Sec-WebSocket-Version': '13, 8' } : {};
  return { ...refusal(400, ErrorCode.BAD_REQUEST, `WebSocket handshake refused: ${message}`), headers };
}

/** A client that left (or half-closed) before its handshake completed: `ws` drops it without a word. */
export const LEFT_BEFORE_HANDSHAKE = refusal(400, ErrorCode.BAD_REQUEST, 'the client closed its side before the WebSocket handshake completed');

/** A close the server makes, by code; undefined for an ordinary close (1000, 1001) that is no refusal. */
export function closeRefusal(code: number, reason: string): EdgeRefusal | undefined {
  const why = reason === '' ? `closed with ${code}` : `closed with ${code}: ${reason}`;
  switch (code) {
    case 1002:
    case 1007:
      // A protocol error; a text message that is not UTF-8.
      return refusal(400, ErrorCode.BAD_REQUEST, why);
    case 1009:
      return refusal(413, ErrorCode.BAD_REQUEST, why);
    case 1013:
      return refusal(503, ErrorCode.OPERATION_BUDGET_EXCEEDED, why, { limit: 'wsBufferedBytes' });
    case 4401:
      return refusal(401, ErrorCode.UNAUTHENTICATED, why);
    case 4403:
      return refusal(403, ErrorCode.FORBIDDEN, why);
    case 4429:
      return refusal(429, ErrorCode.RATE_LIMITED, why);
    case 4500:
      return refusal(500, ErrorCode.INTERNAL_SERVER_ERROR, why);
    default:
      // graphql-ws's other 44xx codes (4400 bad message, 4406 subprotocol, 4408 init timeout, 4409 duplicate id).
      return code >= 4400 && code < 4500 ? refusal(code - 4000, ErrorCode.BAD_REQUEST, why) : undefined;
  }
}

/** An operation past `WS_MAX_OPERATIONS_PER_CONNECTION`: the socket stays open, the operation is refused. */
export function operationsRefusal(max: number): EdgeRefusal {
  return refusal(429, ErrorCode.RATE_LIMITED, `this connection has ${max} operations in flight already (WS_MAX_OPERATIONS_PER_CONNECTION); wait for an answer first`, {
    limit: 'operationsPerConnection',
    max,
    scope: 'caller',
    retryAfter: 1,
  });
}
