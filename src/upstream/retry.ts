/**
 * Retry policy of the HTTP layer: which outcomes of a GET are worth another attempt, and how
 * long to wait. Non-GET requests are never retried (a create must not be sent twice).
 */
import { onAbort, type CancelSignal } from '../core/cancellation';

export interface RetryPolicy {
  /** Total attempts including the first (1 = no retries). */
  attempts: number;
  /** Base of the exponential backoff, in ms. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay, in ms. */
  maxDelayMs: number;
  /** The longest window a 429/503 `Retry-After` may close an API for (a longer one is cut to it). */
  maxRetryAfterMs: number;
}

// Connection-level failures where the request cannot have been processed, or a GET can be replayed.
const RETRYABLE_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export function isRetryableErrorCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_ERROR_CODES.has(code);
}

/** Full jitter: a uniform delay in [0, min(max, base * 2^(retry-1))] (AWS architecture blog). */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as a delay in ms (delta-seconds or an HTTP-date); null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** Wait `ms`, or less when `signal` aborts (then reject with the signal's reason). */
export function sleep(ms: number, signal: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
    const stopListening = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
