/**
 * `CALLER_UPSTREAM_CALLS_PER_MINUTE`: how many upstream calls one caller may cause per minute,
 * counted where each call is sent (src/upstream/http.ts). Past it, the call is not sent:
 * `RATE_LIMITED` (LimitExceededError, scope `caller`) with `retryAfter` until the next minute.
 * Keyed by the verified identity (src/core/caller.ts), so every token of one person shares one
 * quota; callers without a token share one, and so do tokens the platform refuses.
 */
import { LimitExceededError } from '../errors/codes';
import { ANONYMOUS_KEY } from '../core/caller';
import { PREFIX, type RedisLink } from './redis';

export interface CallQuota {
  /** Counts one call for `fingerprint`; rejects with the refusal (and counts nothing more) past the quota. */
  spend(fingerprint: string): Promise<void>;
}

const MINUTE_MS = 60_000;

export function quotaRefusal(max: number, msLeft: number): LimitExceededError {
  return new LimitExceededError('upstreamCallsPerMinute', max, `this token has caused ${max} upstream calls this minute, its quota (CALLER_UPSTREAM_CALLS_PER_MINUTE); try again when the minute is over`, {
    scope: 'caller',
    retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
  });
}

/** The minute a time falls in (windows start on the minute, the same on every replica). */
export function minuteOf(now: number): { index: number; msLeft: number } {
  const index = Math.floor(now / MINUTE_MS);
  return { index, msLeft: (index + 1) * MINUTE_MS - now };
}

/** One process's count: a window per minute; callers of a past minute are forgotten when it turns. */
export class MemoryCallQuota implements CallQuota {
  private minute = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  spend(fingerprint: string): Promise<void> {
    const refusal = this.take(fingerprint, Date.now());
    return refusal === null ? Promise.resolve() : Promise.reject(refusal);
  }

  /** Counts one call now; the refusal when it is past the quota (the synchronous form). */
  take(fingerprint: string, now: number): LimitExceededError | null {
    const { index, msLeft } = minuteOf(now);
    if (index !== this.minute) {
      this.minute = index;
      this.counts.clear();
    }
    const used = this.counts.get(fingerprint) ?? 0;
    if (used >= this.max) return quotaRefusal(this.max, msLeft);
    this.counts.set(fingerprint, used + 1);
    return null;
  }
}

/** What the HTTP layer asks of a quota (its `UpstreamQuota`, by shape: state does not import upstream). */
export interface UpstreamQuotaHook {
  forCaller(authorization: string | undefined): () => Promise<void>;
}

/**
 * The HTTP layer's hook (src/upstream/http.ts) over a quota: the caller's identity key, asked of
 * `keyOf` (the verifier: cached per token) before the first call of a request is counted.
 */
export function upstreamQuotaOf(quota: CallQuota, keyOf: (authorization: string) => Promise<string>): UpstreamQuotaHook {
  return {
    forCaller(authorization) {
      if (authorization === undefined) return () => quota.spend(ANONYMOUS_KEY);
      let key: Promise<string> | null = null;
      return async () => {
        key ??= keyOf(authorization);
        await quota.spend(await key);
      };
    },
  };
}

/**
 * The fleet's count: one Redis counter per credential and minute (INCR, expiring with the
 * minute), so the quota holds across every replica. While Redis is not reachable each replica
 * counts alone (the memory window), and the fleet's count resumes when it is back.
 */
export class RedisCallQuota implements CallQuota {
  private readonly alone: MemoryCallQuota;

  constructor(
    private readonly link: RedisLink,
    private readonly max: number,
  ) {
    this.alone = new MemoryCallQuota(max);
  }

  async spend(fingerprint: string): Promise<void> {
    const now = Date.now();
    if (!this.link.isUp) return this.alone.spend(fingerprint);
    const { index, msLeft } = minuteOf(now);
    let used: unknown;
    try {
      used = await this.link.client.eval(COUNT, 1, `${PREFIX}quota:${fingerprint}:${index}`, this.max, msLeft + 5000);
    } catch {
      return this.alone.spend(fingerprint);
    }
    if (typeof used === 'number' && used > this.max) throw quotaRefusal(this.max, msLeft);
  }
}

/** Counts one call unless the quota is spent already (then answers the count without adding). */
const COUNT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return n + 1 end
n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;
