/**
 * Idempotency keys in one process (the algorithm is src/idempotency/idempotency.ts): a map from
 * (identity, key) to its record, ordered by expiry, with counts and bytes per identity and in all.
 * Time is the algorithm's clock (`now` in each call). The fleet's store (../redis/idempotency.ts)
 * keeps one of these for the time Redis is away.
 */
import { randomUUID } from 'node:crypto';
import { KEY_OVERHEAD_BYTES, type ClaimAnswer, type ClaimRequest, type IdempotencyLease, type IdempotencyLimits, type IdempotencyStore } from '../../idempotency/store';

interface KeyRecord {
  readonly scope: string;
  readonly fingerprint: string;
  readonly owner: string;
  state: 'running' | 'done';
  leaseUntil: number;
  expiresAt: number;
  result: string | null;
  bytes: number;
}

interface Tally {
  keys: number;
  bytes: number;
}

const recordId = (scope: string, key: string): string => `${scope}\n${key}`;

export class MemoryIdempotencyStore implements IdempotencyStore {
  /** In order of expiry: the TTL is one setting, and a record is moved to the end when its expiry moves. */
  private readonly records = new Map<string, KeyRecord>();
  private readonly perScope = new Map<string, Tally>();
  private readonly total: Tally = { keys: 0, bytes: 0 };

  claim(request: ClaimRequest): Promise<ClaimAnswer> {
    const { scope, key, fingerprint, now, limits } = request;
    this.expire(now);
    const id = recordId(scope, key);
    let held = this.records.get(id);
    if (held !== undefined && held.expiresAt <= now) {
      this.drop(id, held);
      held = undefined;
    }
    if (held !== undefined) {
      if (held.state === 'done') return Promise.resolve({ state: 'done', fingerprint: held.fingerprint, result: held.result });
      return Promise.resolve({ state: 'running', fingerprint: held.fingerprint, leaseLive: held.leaseUntil > now });
    }
    const mine = this.perScope.get(scope) ?? { keys: 0, bytes: 0 };
    const full = this.full(scope, mine, limits, now);
    if (full !== null) return Promise.resolve(full);
    const record: KeyRecord = { scope, fingerprint, owner: randomUUID(), state: 'running', leaseUntil: now + request.leaseMs, expiresAt: now + request.ttlMs, result: null, bytes: KEY_OVERHEAD_BYTES };
    this.records.set(id, record);
    this.perScope.set(scope, { keys: mine.keys + 1, bytes: mine.bytes + record.bytes });
    this.total.keys += 1;
    this.total.bytes += record.bytes;
    return Promise.resolve({ state: 'claimed', lease: { scope, key, fingerprint, owner: record.owner } });
  }

  renew(lease: IdempotencyLease, now: number, leaseMs: number): Promise<boolean> {
    const record = this.mine(lease);
    if (record === null) return Promise.resolve(false);
    record.leaseUntil = now + leaseMs;
    return Promise.resolve(true);
  }

  complete(lease: IdempotencyLease, result: string | null, now: number, ttlMs: number, limits: IdempotencyLimits): Promise<boolean> {
    const record = this.mine(lease);
    if (record === null) return Promise.resolve(false);
    const id = recordId(lease.scope, lease.key);
    const tally = this.perScope.get(lease.scope) ?? { keys: 1, bytes: record.bytes };
    const extra = result === null ? 0 : Buffer.byteLength(result);
    const fits = result !== null && tally.bytes + extra <= limits.maxBytesPerIdentity && this.total.bytes + extra <= limits.maxBytes;
    record.state = 'done';
    record.expiresAt = now + ttlMs;
    if (fits) {
      record.result = result;
      record.bytes += extra;
      tally.bytes += extra;
      this.total.bytes += extra;
      this.perScope.set(lease.scope, tally);
    }
    // Its expiry moved: to the end of the order.
    this.records.delete(id);
    this.records.set(id, record);
    return Promise.resolve(fits);
  }

  release(lease: IdempotencyLease): Promise<void> {
    const record = this.mine(lease);
    if (record !== null && record.state === 'running') this.drop(recordId(lease.scope, lease.key), record);
    return Promise.resolve();
  }

  /** Keys held now (for tests and metrics). */
  get size(): number {
    return this.records.size;
  }

  private mine(lease: IdempotencyLease): KeyRecord | null {
    const record = this.records.get(recordId(lease.scope, lease.key));
    return record !== undefined && record.owner === lease.owner && record.state === 'running' ? record : null;
  }

  private full(scope: string, mine: Tally, limits: IdempotencyLimits, now: number): ClaimAnswer | null {
    const oldest = (only: string | null): number => {
      for (const record of this.records.values()) if (only === null || record.scope === only) return Math.max(0, record.expiresAt - now);
      return 0;
    };
    if (mine.keys >= limits.maxKeysPerIdentity) return { state: 'full', bound: 'keysPerIdentity', max: limits.maxKeysPerIdentity, retryAfterMs: oldest(scope) };
    if (mine.bytes + KEY_OVERHEAD_BYTES > limits.maxBytesPerIdentity) return { state: 'full', bound: 'bytesPerIdentity', max: limits.maxBytesPerIdentity, retryAfterMs: oldest(scope) };
    if (this.total.keys >= limits.maxKeys) return { state: 'full', bound: 'keys', max: limits.maxKeys, retryAfterMs: oldest(null) };
    if (this.total.bytes + KEY_OVERHEAD_BYTES > limits.maxBytes) return { state: 'full', bound: 'bytes', max: limits.maxBytes, retryAfterMs: oldest(null) };
    return null;
  }

  /** Drops the records past their expiry, from the front of the order. */
  private expire(now: number): void {
    for (const [id, record] of this.records) {
      if (record.expiresAt > now) return;
      this.drop(id, record);
    }
  }

  private drop(id: string, record: KeyRecord): void {
    this.records.delete(id);
    this.total.keys -= 1;
    this.total.bytes -= record.bytes;
    const tally = this.perScope.get(record.scope);
    if (tally === undefined) return;
    tally.keys -= 1;
    tally.bytes -= record.bytes;
    if (tally.keys <= 0) this.perScope.delete(record.scope);
  }
}
