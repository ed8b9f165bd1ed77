/**
 * Idempotency keys for the fleet (the algorithm is src/idempotency/idempotency.ts): a record per
 * (identity, key) in Redis, claimed, renewed, completed and released by Lua scripts, so a retry
 * through any replica meets the first request. Redis keeps the time: leases and expiries are PX.
 *
 * Nothing readable about a caller is in Redis: the identity and the key appear in Redis keys only
 * as keyed hashes (HMAC under a key derived from `FLEET_TOKEN_KEY`; SHA-256 without one), and a
 * result (it may hold a created endpoint's `jwt`) is sealed with AES-256-GCM under another derived
 * key, bound to its record and fingerprint. Without `FLEET_TOKEN_KEY` no result goes to Redis at
 * all: the key's state does (so no replica runs a repeat twice), and the result stays in the memory
 * of the replica that ran it; a repeat there is a replay, elsewhere `outcome-unknown`
 * (`result-not-kept`). While Redis is away, keys live in this replica's memory.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { KEY_OVERHEAD_BYTES, type ClaimAnswer, type ClaimRequest, type IdempotencyBound, type IdempotencyLease, type IdempotencyLimits, type IdempotencyStore } from '../../idempotency/store';
import { MemoryIdempotencyStore } from '../memory/idempotency';
import { PREFIX, type RedisLink } from './link';
import { deriveKey, open, seal } from './seal';

const LIBRARY = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function forget(index, sizes, member)
  local b = redis.call('HGET', sizes, member)
  if b then
    redis.call('HDEL', sizes, member)
    redis.call('HINCRBY', sizes, '#', 0 - tonumber(b))
  end
  redis.call('ZREM', index, member)
end
local function prune(index, sizes, now)
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now, 'LIMIT', 0, 256)) do forget(index, sizes, m) end
end
local function oldest(index, now)
  local first = redis.call('ZRANGE', index, 0, 0, 'WITHSCORES')
  if first[2] then return math.max(0, tonumber(first[2]) - now) end
  return 0
end
local function bytes(sizes) return tonumber(redis.call('HGET', sizes, '#') or '0') end
local function add(index, sizes, member, expires, size, keep)
  redis.call('ZADD', index, expires, member)
  redis.call('HSET', sizes, member, size)
  redis.call('HINCRBY', sizes, '#', size)
  redis.call('PEXPIRE', index, keep)
  redis.call('PEXPIRE', sizes, keep)
end
local function mine(record, owner)
  return redis.call('HGET', record, 'state') == 'running' and redis.call('HGET', record, 'owner') == owner
end
`;


/** What `evalUnlessGone` answers when Redis went away mid-call. */
const GONE: unique symbol = Symbol('redis gone');
/**
 * KEYS: record, lease, identity index, identity sizes, all index, all sizes.
 * ARGV: fingerprint, owner, leaseMs, ttlMs, max keys per identity, max bytes per identity, max keys, max bytes, overhead, member, all member.
 */
const CLAIM = `${LIBRARY}
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'done' then
  return {'done', redis.call('HGET', KEYS[1], 'fp'), redis.call('HGET', KEYS[1], 'result') or '', redis.call('HGET', KEYS[1], 'owner')}
end
if state == 'running' then return {'running', redis.call('HGET', KEYS[1], 'fp'), redis.call('EXISTS', KEYS[2])} end
local now = now_ms()
prune(KEYS[3], KEYS[4], now)
prune(KEYS[5], KEYS[6], now)
forget(KEYS[3], KEYS[4], ARGV[10])
forget(KEYS[5], KEYS[6], ARGV[11])
local overhead = tonumber(ARGV[9])
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return {'full', 'keysPerIdentity', ARGV[5], oldest(KEYS[3], now)} end
if bytes(KEYS[4]) + overhead > tonumber(ARGV[6]) then return {'full', 'bytesPerIdentity', ARGV[6], oldest(KEYS[3], now)} end
if redis.call('ZCARD', KEYS[5]) >= tonumber(ARGV[7]) then return {'full', 'keys', ARGV[7], oldest(KEYS[5], now)} end
if bytes(KEYS[6]) + overhead > tonumber(ARGV[8]) then return {'full', 'bytes', ARGV[8], oldest(KEYS[5], now)} end
local ttl = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'state', 'running', 'fp', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
add(KEYS[3], KEYS[4], ARGV[10], now + ttl, overhead, ttl + 60000)
add(KEYS[5], KEYS[6], ARGV[11], now + ttl, overhead, ttl + 60000)
return {'claimed'}`;

/** KEYS: record, lease. ARGV: owner, leaseMs. A lapsed lease is taken again: its holder is alive after all. */
const RENEW = `${LIBRARY}
if not mine(KEYS[1], ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1`;

/**
 * KEYS: as CLAIM. ARGV: owner, sealed result ('' for none), its bytes, ttlMs, max bytes per identity, max bytes, overhead, member, all member.
 * Answers 1 when the result was kept, 0 when not, -1 when the record is not this lease's.
 */
const COMPLETE = `${LIBRARY}
if not mine(KEYS[1], ARGV[1]) then return -1 end
local now = now_ms()
local ttl = tonumber(ARGV[4])
forget(KEYS[3], KEYS[4], ARGV[8])
forget(KEYS[5], KEYS[6], ARGV[9])
local overhead = tonumber(ARGV[7])
local extra = tonumber(ARGV[3])
local kept = 0
if ARGV[2] ~= '' and bytes(KEYS[4]) + overhead + extra <= tonumber(ARGV[5]) and bytes(KEYS[6]) + overhead + extra <= tonumber(ARGV[6]) then kept = 1 end
redis.call('HSET', KEYS[1], 'state', 'done')
if kept == 1 then redis.call('HSET', KEYS[1], 'result', ARGV[2]) else extra = 0 end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('DEL', KEYS[2])
add(KEYS[3], KEYS[4], ARGV[8], now + ttl, overhead + extra, ttl + 60000)
add(KEYS[5], KEYS[6], ARGV[9], now + ttl, overhead + extra, ttl + 60000)
return kept`;

/** KEYS: as CLAIM. ARGV: owner, member, all member. */
const RELEASE = `${LIBRARY}
if not mine(KEYS[1], ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
forget(KEYS[3], KEYS[4], ARGV[2])
forget(KEYS[5], KEYS[6], ARGV[3])
return 1`;

interface Names {
  keys: [record: string, lease: string, index: string, sizes: string, allIndex: string, allSizes: string];
  member: string;
  allMember: string;
}

const BOUNDS: ReadonlySet<string> = new Set<IdempotencyBound>(['keysPerIdentity', 'keys', 'bytesPerIdentity', 'bytes']);
const isBound = (value: unknown): value is IdempotencyBound => typeof value === 'string' && BOUNDS.has(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const count = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'string' ? Number(value) || 0 : 0);

/** Redis answered with an error (a fault of ours, not a lost link). */
const isReply = (error: unknown): boolean => error instanceof Error && error.name === 'ReplyError';

export interface RedisIdempotencyOptions {
  link: RedisLink;
  /** `FLEET_TOKEN_KEY`: with it results are sealed into Redis; without it they stay in the replica that ran them. */
  tokenKey: Buffer | null;
  /** Bytes of results this replica keeps itself (without `FLEET_TOKEN_KEY`). @default 32 MiB */
  localResultBytes?: number;
}

export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly alone = new MemoryIdempotencyStore();
  /** Leases claimed while Redis was away: they are the memory store's to the end. */
  private readonly aloneLeases = new WeakSet<IdempotencyLease>();
  private readonly nameKey: Buffer | null;
  private readonly resultKey: Buffer | null;
  /** Results of this replica's runs, by record and owner (without `FLEET_TOKEN_KEY`). */
  private readonly localResults: LRUCache<string, string>;

  constructor(private readonly options: RedisIdempotencyOptions) {
    this.nameKey = options.tokenKey === null ? null : deriveKey(options.tokenKey, 'idempotency-name');
    this.resultKey = options.tokenKey === null ? null : deriveKey(options.tokenKey, 'idempotency-result');
    this.localResults = new LRUCache<string, string>({ maxSize: options.localResultBytes ?? 32 * 1024 * 1024, sizeCalculation: (value) => Math.max(1, value.length) });
  }

  private get link(): RedisLink {
    return this.options.link;
  }

  async claim(request: ClaimRequest): Promise<ClaimAnswer> {
    if (!this.link.isUp) return this.claimAlone(request);
    const { limits } = request;
    const names = this.names(request.scope, request.key);
    const owner = randomUUID();
    // Redis going away mid-claim leaves unknown whether it was applied; if it was, its lease lapses
    // and repeats there are told "outcome unknown", never a second run.
    const reply = await this.evalUnlessGone(
      CLAIM,
      names.keys,
      request.fingerprint,
      owner,
      request.leaseMs,
      request.ttlMs,
      limits.maxKeysPerIdentity,
      limits.maxBytesPerIdentity,
      limits.maxKeys,
      limits.maxBytes,
      KEY_OVERHEAD_BYTES,
      names.member,
      names.allMember,
    );
    if (reply === GONE) return this.claimAlone(request);
    if (!Array.isArray(reply)) throw new Error('idempotency claim: unexpected answer from Redis');
    const [state, a, b, c] = reply as unknown[];
    if (state === 'claimed') return { state: 'claimed', lease: { scope: request.scope, key: request.key, fingerprint: request.fingerprint, owner } };
    if (state === 'running') return { state: 'running', fingerprint: text(a) ?? '', leaseLive: count(b) === 1 };
    if (state === 'done') return { state: 'done', fingerprint: text(a) ?? '', result: this.resultOf(names, text(a) ?? '', text(b) ?? '', text(c) ?? '') };
    if (state === 'full' && isBound(a)) return { state: 'full', bound: a, max: count(b), retryAfterMs: count(c) };
    throw new Error('idempotency claim: unexpected answer from Redis');
  }

  async renew(lease: IdempotencyLease, now: number, leaseMs: number): Promise<boolean> {
    if (this.aloneLeases.has(lease)) return this.alone.renew(lease, now, leaseMs);
    const names = this.names(lease.scope, lease.key);
    const renewed = await this.link.client.eval(RENEW, 2, names.keys[0], names.keys[1], lease.owner, leaseMs);
    return renewed === 1;
  }

  async complete(lease: IdempotencyLease, result: string | null, now: number, ttlMs: number, limits: IdempotencyLimits): Promise<boolean> {
    if (this.aloneLeases.has(lease)) return this.alone.complete(lease, result, now, ttlMs, limits);
    const names = this.names(lease.scope, lease.key);
    let sealed = '';
    if (result !== null && this.resultKey !== null) sealed = seal(this.resultKey, result, this.bound(names, lease.fingerprint));
    // Redis going away leaves it not recorded: the lease lapses and repeats are told "outcome unknown" (never a second run).
    const kept = await this.evalUnlessGone(
      COMPLETE,
      names.keys,
      lease.owner,
      sealed,
      Buffer.byteLength(sealed),
      ttlMs,
      limits.maxBytesPerIdentity,
      limits.maxBytes,
      KEY_OVERHEAD_BYTES,
      names.member,
      names.allMember,
    );
    if (kept === GONE || kept === -1) return false;
    if (result !== null && this.resultKey === null) {
      this.localResults.set(this.localId(names, lease.owner), result);
      return true;
    }
    return kept === 1;
  }

  async release(lease: IdempotencyLease): Promise<void> {
    if (this.aloneLeases.has(lease)) return this.alone.release(lease);
    const names = this.names(lease.scope, lease.key);
    // A release that fails leaves the key running until its lease lapses: refused, never run twice.
    await this.link.client.eval(RELEASE, names.keys.length, ...names.keys, lease.owner, names.member, names.allMember).catch(() => undefined);
  }

  /** A script's reply, or GONE when Redis went away during the call (an error Redis itself answered is a fault, thrown). */
  private async evalUnlessGone(script: string, keys: readonly string[], ...args: Array<string | number>): Promise<unknown> {
    try {
      return await this.link.client.eval(script, keys.length, ...keys, ...args);
    } catch (error) {
      if (isReply(error)) throw error;
      return GONE;
    }
  }

  private async claimAlone(request: ClaimRequest): Promise<ClaimAnswer> {
    const answer = await this.alone.claim(request);
    if (answer.state === 'claimed') this.aloneLeases.add(answer.lease);
    return answer;
  }

  /** The stored result: opened (sealed in Redis), or this replica's own (without the fleet key); null when neither. */
  private resultOf(names: Names, fingerprint: string, stored: string, owner: string): string | null {
    if (stored !== '' && this.resultKey !== null) return open(this.resultKey, stored, this.bound(names, fingerprint));
    return this.localResults.get(this.localId(names, owner)) ?? null;
  }

  /** What a sealed result is bound to: its record and its request (moved to another key or request, it does not open). */
  private bound(names: Names, fingerprint: string): string {
    return `${names.keys[0]}\n${fingerprint}`;
  }

  private localId(names: Names, owner: string): string {
    return `${names.keys[0]}\n${owner}`;
  }

  private hash(label: string, value: string): string {
    const input = `${label}\0${value}`;
    return (this.nameKey === null ? createHash('sha256').update(input) : createHmac('sha256', this.nameKey).update(input)).digest('hex').slice(0, 40);
  }

  private names(scope: string, key: string): Names {
    const scopeHash = this.hash('scope', scope);
    // The key's hash covers the identity as well: one key used by two identities is two unrelated names.
    const keyHash = this.hash('key', `${scope}\n${key}`);
    const base = `${PREFIX}idem:${scopeHash}`;
    return {
      keys: [`${base}:${keyHash}`, `${base}:${keyHash}:lease`, `${base}:index`, `${base}:sizes`, `${PREFIX}idem:all:index`, `${PREFIX}idem:all:sizes`],
      member: keyHash,
      allMember: `${scopeHash}:${keyHash}`,
    };
  }
}
