/**
 * What the algorithm (idempotency.ts) needs of a store: claim a key for a first run or say what
 * holds it, keep the run's lease alive, record the outcome, or let the key go. Storage and leases
 * only: whether a holder is "the same request", whether to wait, and what a lapsed lease means are
 * the algorithm's. Two stores implement it: src/state/memory/idempotency.ts (one process) and
 * src/state/redis/idempotency.ts (the fleet).
 */

/** Bounds on what is kept; past a count bound a new key is refused, past a bytes bound a result is not kept. */
export interface IdempotencyLimits {
  /** Keys one identity may hold at once (running and done). */
  maxKeysPerIdentity: number;
  /** Keys held in all. */
  maxKeys: number;
  /** Bytes one identity's keys may hold (results and bookkeeping). */
  maxBytesPerIdentity: number;
  /** Bytes held in all. */
  maxBytes: number;
  /** Largest result kept, in bytes of its JSON. */
  maxResultBytes: number;
}

/** What every key costs besides its result: its record and index entries, counted in the bytes bounds. */
export const KEY_OVERHEAD_BYTES = 256;

/** Which bound refused a new key (`extensions.limit` is `idempotencyKeys` for all of them). */
export type IdempotencyBound = 'keysPerIdentity' | 'keys' | 'bytesPerIdentity' | 'bytes';

export interface ClaimRequest {
  /** Whose key (the verified identity's key, or `anonymous`): another identity's key is its own. */
  scope: string;
  key: string;
  fingerprint: string;
  /** The algorithm's clock (a store that keeps time itself, as Redis does, may ignore it). */
  now: number;
  leaseMs: number;
  ttlMs: number;
  limits: IdempotencyLimits;
}

/** A claimed key: what renews, completes or releases it (and nothing else can). */
export interface IdempotencyLease {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  /** Unique per claim: a record claimed again after it expired is not this lease's. */
  readonly owner: string;
}

export type ClaimAnswer =
  /** The key was free: the caller runs, holding the lease. */
  | { state: 'claimed'; lease: IdempotencyLease }
  /** A first run holds it; `leaseLive` false: its holder stopped renewing (it died, or lost its store). */
  | { state: 'running'; fingerprint: string; leaseLive: boolean }
  /** Finished: its formatted result as JSON, or null when it was not kept (too large, over a bytes bound, kept by another replica). */
  | { state: 'done'; fingerprint: string; result: string | null }
  /** A new key is past a bound; `retryAfterMs`: when the oldest key of that bound expires. */
  | { state: 'full'; bound: IdempotencyBound; max: number; retryAfterMs: number };

export interface IdempotencyStore {
  claim(request: ClaimRequest): Promise<ClaimAnswer>;
  /** Extends the lease by `leaseMs` from `now` (re-taking a lapsed one); false when the key is no longer this lease's. */
  renew(lease: IdempotencyLease, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Records the outcome (`result` null: not kept) and keeps the key `ttlMs` from `now`, accepted
   * while the record is still this lease's, even lapsed: a late result beats "outcome unknown".
   * Answers whether the result was kept.
   */
  complete(lease: IdempotencyLease, result: string | null, now: number, ttlMs: number, limits: IdempotencyLimits): Promise<boolean>;
  /** Forgets the key (nothing was sent upstream): a repeat runs as a first request. */
  release(lease: IdempotencyLease): Promise<void>;
}
