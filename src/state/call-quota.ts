/**
 * `CALLER_UPSTREAM_CALLS_PER_MINUTE`: how many upstream calls one caller may cause per minute,
 * counted where each call is sent (src/upstream/http.ts). Past it, the call is not sent:
 * `RATE_LIMITED` (LimitExceededError, scope `caller`) with `retryAfter` until the next minute.
 * Keyed by the verified identity (src/core/caller.ts), so every token of one person shares one
 * quota; callers without a token share one, and so do tokens the platform refuses.
 */
import { LimitExceededError } from '../errors/codes';
import { ANONYMOUS_KEY } from '../core/caller';

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

/**
 * Where the counts of each minute live (memory/call-quota.ts, redis/call-quota.ts): storage only,
 * the window is this file's.
 */
export interface MinuteCounter {
  /**
   * Counts one call of `fingerprint` in minute `index` unless `max` are counted there already;
   * answers the count after it (above `max` when spent: nothing was added). `msLeft` is what is
   * left of the minute (a shared counter expires with it).
   */
  count(fingerprint: string, index: number, max: number, msLeft: number): Promise<number>;
}

/** The per-minute window, once over any counter: the call is counted in the minute it falls in, refused past `max`. */
export function createCallQuota(counter: MinuteCounter, max: number, now: () => number = () => Date.now()): CallQuota {
  return {
    async spend(fingerprint) {
      const { index, msLeft } = minuteOf(now());
      const used = await counter.count(fingerprint, index, max, msLeft);
      if (used > max) throw quotaRefusal(max, msLeft);
    },
  };
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
