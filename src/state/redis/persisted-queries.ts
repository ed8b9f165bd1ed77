/**
 * Automatic persisted queries (APQ) shared by the fleet. What goes to Redis is bounded by who sent
 * it: only a caller the gateway knows (`registeredBy`) registers there; an anonymous registration
 * stays in this replica's memory, so nobody can fill the Redis that leases and provisionings need.
 * A document read back from Redis is hashed again: one whose SHA-256 is not the hash it was asked
 * by (swapped in Redis, e.g. a mutation in a query's place) is unknown, and counted.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PersistedQueryStore, Registrant } from '../../persisted/store';
import { DEFAULT_TOTAL_BYTES, MemoryPersistedQueries, type PersistedQueryLimits } from '../memory/persisted-queries';
import { PREFIX, type RedisLink } from './link';
import type { UntrustedSink } from './untrusted';

export const DEFAULT_SHARED_BYTES = 16 * 1024 * 1024;

/**
 * Bytes counted for one registration besides its document: the hash twice (a field of the
 * documents, a member of the use order) and Redis's own bookkeeping of both. With the document
 * counted at 1.25 times its length (the allocator rounds each up to a size class, at most a
 * quarter more), the count stays above what Redis really holds (measured with MEMORY USAGE).
 */
const ENTRY_OVERHEAD = 320;

/**
 * Registers a document under the byte cap: registrations past their time go first (a bounded
 * batch), then the least recently used until the new one fits. KEYS: documents (hash), use order
 * (sorted set, last use in ms), counted bytes. ARGV: sha, document, now, ttl ms, cap, overhead.
 * 1 when kept.
 */
const REGISTER = `
local docs, used, bytes = KEYS[1], KEYS[2], KEYS[3]
local h, doc, now, ttl, cap, extra = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local function weight(n) return math.ceil(n * 1.25) + extra end
local function drop(k)
  local n = weight(redis.call('HSTRLEN', docs, k))
  redis.call('HDEL', docs, k)
  redis.call('ZREM', used, k)
  redis.call('DECRBY', bytes, n)
end
for _, k in ipairs(redis.call('ZRANGEBYSCORE', used, '-inf', now - ttl, 'LIMIT', 0, 100)) do drop(k) end
if redis.call('HEXISTS', docs, h) == 1 then
  redis.call('ZADD', used, now, h)
  return 1
end
local size = weight(string.len(doc))
if size > cap then return 0 end
local total = tonumber(redis.call('GET', bytes) or '0')
while total + size > cap do
  local oldest = redis.call('ZRANGE', used, 0, 0)
  if #oldest == 0 then
    -- Nothing left to drop: whatever the count says was lost (an eviction by Redis itself).
    redis.call('DEL', docs)
    total = 0
    break
  end
  drop(oldest[1])
  total = tonumber(redis.call('GET', bytes) or '0')
end
redis.call('HSET', docs, h, doc)
redis.call('ZADD', used, now, h)
redis.call('SET', bytes, total + size)
return 1`;

/** The document, its last use moved to now; nothing once past its time (the next registration drops it). KEYS: documents, use order. ARGV: sha, now, ttl ms. */
const LOOKUP = `
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not score or tonumber(score) <= tonumber(ARGV[2]) - tonumber(ARGV[3]) then return false end
local doc = redis.call('HGET', KEYS[1], ARGV[1])
if doc then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) end
return doc`;

const KEYS = [`${PREFIX}apq:documents`, `${PREFIX}apq:used`, `${PREFIX}apq:bytes`] as const;

/**
 * The fleet's store: registrations of known callers in Redis, under `maxSharedBytes` in all, so a
 * hash registered on one replica is served by every other; in front of it, this replica's memory
 * store, which also keeps anonymous registrations and answers alone while Redis is not reachable
 * (a known caller's registration made meanwhile reaches Redis when it is used again).
 */
export class RedisPersistedQueries implements PersistedQueryStore {
  private readonly local: MemoryPersistedQueries;
  /** Registrations of known callers made while Redis was not reachable: hash → who registered it. */
  private readonly owed = new LRUCache<string, string>({ max: 1000 });

  constructor(
    private readonly link: RedisLink,
    private readonly limits: PersistedQueryLimits,
    private readonly untrusted: UntrustedSink = () => undefined,
  ) {
    this.local = new MemoryPersistedQueries({ ...limits, maxTotalBytes: Math.min(limits.maxTotalBytes ?? DEFAULT_TOTAL_BYTES, 8 * 1024 * 1024) });
  }

  async get(sha256Hex: string): Promise<string | null> {
    const local = this.local.lookup(sha256Hex);
    if (!this.link.isUp) return local;
    try {
      const query = await this.link.client.eval(LOOKUP, 2, KEYS[0], KEYS[1], sha256Hex, Date.now(), this.limits.ttlMs);
      if (typeof query === 'string') {
        // Redis is not trusted with what runs under a client's token: the text must be what was named.
        if (createHash('sha256').update(query).digest('hex') !== sha256Hex) {
          this.untrusted('persisted-query');
          return local;
        }
        if (local === null) this.local.store(sha256Hex, query);
        return query;
      }
      const registrant = this.owed.get(sha256Hex);
      if (local !== null && registrant !== undefined) {
        this.owed.delete(sha256Hex);
        await this.share(sha256Hex, local);
      }
      return local;
    } catch {
      return local;
    }
  }

  async set(sha256Hex: string, query: string, registrant: Registrant): Promise<void> {
    if (query.length > this.limits.maxDocumentBytes) return;
    this.local.store(sha256Hex, query);
    const registeredBy = typeof registrant === 'function' ? await registrant() : registrant;
    if (registeredBy === null) return;
    if (!this.link.isUp) {
      this.owed.set(sha256Hex, registeredBy);
      return;
    }
    await this.share(sha256Hex, query).catch(() => undefined);
  }

  private async share(sha256Hex: string, query: string): Promise<void> {
    await this.link.client.eval(REGISTER, 3, ...KEYS, sha256Hex, query, Date.now(), this.limits.ttlMs, this.limits.maxSharedBytes ?? DEFAULT_SHARED_BYTES, ENTRY_OVERHEAD);
  }
}
