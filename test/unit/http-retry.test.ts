import { backoffDelay, isRetryableErrorCode, isRetryableStatus, parseRetryAfter, sleep, type RetryPolicy } from '../../src/upstream/retry';
import { codeForStatus, codeForTransportError, redactSecrets, transportErrorCode } from '../../src/upstream/http-errors';

const policy: RetryPolicy = { attempts: 3, baseDelayMs: 50, maxDelayMs: 300, maxRetryAfterMs: 1000 };

describe('backoffDelay (full jitter)', () => {
  it('spans 0 up to base * 2^(retry-1), capped', () => {
    expect(backoffDelay(policy, 1, () => 0)).toBe(0);
    expect(backoffDelay(policy, 1, () => 0.999)).toBe(49);
    expect(backoffDelay(policy, 3, () => 0.999)).toBe(199);
    expect(backoffDelay(policy, 10, () => 0.999)).toBe(299);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('retryable outcomes', () => {
  it('retries 429 and 5xx only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409].some(isRetryableStatus)).toBe(false);
  });
  it('retries connection errors but not header/body timeouts', () => {
    expect(['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'].every(isRetryableErrorCode)).toBe(true);
    expect(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', undefined].some(isRetryableErrorCode)).toBe(false);
  });
});

describe('classification', () => {
  it('maps transport errors to timeout or unavailable', () => {
    expect(codeForTransportError('UND_ERR_HEADERS_TIMEOUT')).toBe('UPSTREAM_TIMEOUT');
    expect(codeForTransportError('ECONNREFUSED')).toBe('UPSTREAM_UNAVAILABLE');
    expect(codeForTransportError(undefined)).toBe('UPSTREAM_UNAVAILABLE');
  });
  it('finds error codes inside AggregateError and cause chains', () => {
    const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    expect(transportErrorCode(new AggregateError([new Error('x'), refused]))).toBe('ECONNREFUSED');
    expect(transportErrorCode(new Error('outer', { cause: refused }))).toBe('ECONNREFUSED');
    expect(transportErrorCode('nope')).toBeUndefined();
  });
  it('treats redirects as a bad response', () => {
    expect(codeForStatus(302)).toBe('UPSTREAM_BAD_RESPONSE');
    expect(codeForStatus(410)).toBe('NOT_FOUND');
  });
  it('redacts bearer, basic and JWT-shaped strings', () => {
    expect(redactSecrets('bad Bearer abc.def and Basic dXNlcjpwdw== and eyJa.eyJb.c')).toBe('bad Bearer [redacted] and Basic [redacted] and [redacted]');
    // The word after the scheme is redacted only when it looks like a credential.
    expect(redactSecrets('missing bearer token')).toBe('missing bearer token');
    expect(redactSecrets('Missing Bearer token.')).toBe('Missing Bearer token.');
    expect(redactSecrets('Bearer abcdefghijklmnopqrstu')).toBe('Bearer [redacted]');
  });
});

describe('sleep', () => {
  it('rejects early when the signal aborts', async () => {
    const controller = new AbortController();
    // A sleep that ignored the signal would resolve after 5 s instead of rejecting.
    const pending = sleep(5000, controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});
