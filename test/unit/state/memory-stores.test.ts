/**
 * The in-process stores of src/state: persisted queries (size caps, expiry, least recently used
 * first out) and the per-minute upstream-call quota.
 */
import { ErrorCode } from '../../../src/errors/codes';
import { MemoryCallQuota, minuteOf } from '../../../src/state/call-quota';
import { asApolloCache } from '../../../src/pipeline/documents';
import { MemoryPersistedQueries } from '../../../src/state/persisted-queries';

describe('persisted queries in memory', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a registered document by hash, and nothing for an unknown one', async () => {
    const store = new MemoryPersistedQueries({ maxDocumentBytes: 100, ttlMs: 1000 });
    await store.set('aa', '{ a }');
    await expect(store.get('aa')).resolves.toBe('{ a }');
    await expect(store.get('bb')).resolves.toBeNull();
  });

  it('does not keep a document over the size cap', async () => {
    const store = new MemoryPersistedQueries({ maxDocumentBytes: 10, ttlMs: 1000 });
    await store.set('aa', '{ aVeryLongFieldName }');
    await expect(store.get('aa')).resolves.toBeNull();
  });

  it('forgets a registration its time after the last use', async () => {
    jest.useFakeTimers({ now: 0 });
    const store = new MemoryPersistedQueries({ maxDocumentBytes: 100, ttlMs: 1000 });
    await store.set('aa', '{ a }');
    jest.setSystemTime(900);
    await expect(store.get('aa')).resolves.toBe('{ a }'); // used: 1000 ms more
    jest.setSystemTime(1800);
    await expect(store.get('aa')).resolves.toBe('{ a }');
    jest.setSystemTime(2801);
    await expect(store.get('aa')).resolves.toBeNull();
  });

  it('drops the least recently used past the total size', async () => {
    const store = new MemoryPersistedQueries({ maxDocumentBytes: 100, ttlMs: 60_000, maxTotalBytes: 12 });
    await store.set('a', '{ aa }');
    await store.set('b', '{ bb }');
    await store.get('a'); // a is now the most recently used
    await store.set('c', '{ cc }');
    await expect(store.get('b')).resolves.toBeNull();
    await expect(store.get('a')).resolves.toBe('{ aa }');
    await expect(store.get('c')).resolves.toBe('{ cc }');
    expect(store.size()).toBe(2);
  });

  it("serves as Apollo's cache, keyed by the hash after Apollo's prefix", async () => {
    const store = new MemoryPersistedQueries({ maxDocumentBytes: 100, ttlMs: 1000 });
    const cache = asApolloCache({ apq: store, trusted: null }, () => true);
    const hash = 'ab'.repeat(32);
    await cache.set(`apq:${hash}`, '{ a }');
    await expect(store.get(hash)).resolves.toBe('{ a }');
    await expect(cache.get(`apq:${hash}`)).resolves.toBe('{ a }');
    await expect(cache.get(`apq:${'cd'.repeat(32)}`)).resolves.toBeUndefined();
  });
});

describe('upstream-call quota in memory', () => {
  it('lets a credential make its quota of calls in a minute, then refuses with RATE_LIMITED and retryAfter', () => {
    const quota = new MemoryCallQuota(3);
    const start = 60_000 * 1000 + 15_000; // 15 s into a minute
    for (let i = 0; i < 3; i++) expect(quota.take('alice', start)).toBeNull();
    const refusal = quota.take('alice', start + 1);
    expect(refusal).toMatchObject({ code: ErrorCode.RATE_LIMITED, limit: 'upstreamCallsPerMinute', scope: 'caller', max: 3, retryAfter: 45 });
    // Another credential has its own count.
    expect(quota.take('bob', start + 2)).toBeNull();
    // The next minute starts afresh.
    expect(quota.take('alice', start + 45_000)).toBeNull();
  });

  it('rejects spend() past the quota', async () => {
    const quota = new MemoryCallQuota(1);
    await expect(quota.spend('alice')).resolves.toBeUndefined();
    await expect(quota.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
  });

  it('starts windows on the minute', () => {
    expect(minuteOf(120_500)).toEqual({ index: 2, msLeft: 59_500 });
  });
});
