/** Idempotent mutations (`Idempotency-Key`): how long keys are kept, the first run's lease, the repeat's wait, and the bounds. */
import { area, int, type SettingsOf } from './setting';

export const IDEMPOTENCY_TTL_MS = int({
  name: 'IDEMPOTENCY_TTL_MS',
  meaning: 'how long an idempotency key and its result are kept after the first request with it finished: a repeat within it gets the first result, after it the key is free again',
  min: 1000,
  max: 7 * 24 * 3_600_000,
  fallback: 24 * 3_600_000,
  defaultText: '`86400000` (24 h)',
});
export const IDEMPOTENCY_LEASE_MS = int({
  name: 'IDEMPOTENCY_LEASE_MS',
  meaning: "how long a running first request holds its key without renewing it (renewed every third of it). A replica that dies mid-run leaves the key to `IDEMPOTENCY_OUTCOME_UNKNOWN` after it, never to a second run",
  min: 1000,
  max: 600_000,
  fallback: 15_000,
});
export const IDEMPOTENCY_WAIT_MS = int({
  name: 'IDEMPOTENCY_WAIT_MS',
  meaning: 'longest a repeat waits for the first request with its key to finish before it is answered `IDEMPOTENCY_KEY_IN_PROGRESS` with `retryAfter`',
  min: 0,
  max: 600_000,
  fallback: 10_000,
});
export const IDEMPOTENCY_MAX_KEYS = int({
  name: 'IDEMPOTENCY_MAX_KEYS',
  meaning: 'idempotency keys kept in all, running and finished (past it a new key is `RATE_LIMITED`, `limit: idempotencyKeys`)',
  min: 1,
  max: 10_000_000,
  fallback: 100_000,
});
export const IDEMPOTENCY_MAX_KEYS_PER_CALLER = int({
  name: 'IDEMPOTENCY_MAX_KEYS_PER_CALLER',
  meaning: 'idempotency keys one identity may have kept (past it: `RATE_LIMITED`, `scope: caller`)',
  min: 1,
  max: (env) => env.get(IDEMPOTENCY_MAX_KEYS),
  fallback: (env) => Math.min(10_000, env.get(IDEMPOTENCY_MAX_KEYS)),
  defaultText: '`10000`',
  rangeText: '1–`IDEMPOTENCY_MAX_KEYS`',
});
export const IDEMPOTENCY_MAX_BYTES = int({
  name: 'IDEMPOTENCY_MAX_BYTES',
  meaning: 'bytes the kept keys and results may take in all (each key counts 256 bytes and its result); a result that does not fit is not kept, and its repeats get `IDEMPOTENCY_OUTCOME_UNKNOWN`',
  min: 64 * 1024,
  max: 4 * 1024 * 1024 * 1024,
  fallback: 256 * 1024 * 1024,
  defaultText: '`268435456` (256 MiB)',
});
export const IDEMPOTENCY_MAX_BYTES_PER_CALLER = int({
  name: 'IDEMPOTENCY_MAX_BYTES_PER_CALLER',
  meaning: "bytes one identity's keys and results may take",
  min: 4096,
  max: (env) => env.get(IDEMPOTENCY_MAX_BYTES),
  fallback: (env) => Math.min(16 * 1024 * 1024, env.get(IDEMPOTENCY_MAX_BYTES)),
  defaultText: '`16777216` (16 MiB)',
  rangeText: '4096–`IDEMPOTENCY_MAX_BYTES`',
});
export const IDEMPOTENCY_MAX_RESULT_BYTES = int({
  name: 'IDEMPOTENCY_MAX_RESULT_BYTES',
  meaning: "largest mutation result kept for replays (its JSON); a larger one is answered but not kept, and its repeats get `IDEMPOTENCY_OUTCOME_UNKNOWN`",
  min: 1024,
  max: 64 * 1024 * 1024,
  fallback: 256 * 1024,
  defaultText: '`262144` (256 KiB)',
});

export const IDEMPOTENCY = area({
  title: 'Idempotency',
  intro:
    'A mutation sent with an idempotency key runs once per identity and key ([Idempotent mutations](changes-and-provisioning.md#idempotent-mutations)). With `REDIS_URL` keys are shared by the fleet; results are sealed there with `FLEET_TOKEN_KEY`, and without it stay in the replica that ran them.',
  settings: {
    ttlMs: IDEMPOTENCY_TTL_MS,
    leaseMs: IDEMPOTENCY_LEASE_MS,
    waitMs: IDEMPOTENCY_WAIT_MS,
    maxKeys: IDEMPOTENCY_MAX_KEYS,
    maxKeysPerCaller: IDEMPOTENCY_MAX_KEYS_PER_CALLER,
    maxBytes: IDEMPOTENCY_MAX_BYTES,
    maxBytesPerCaller: IDEMPOTENCY_MAX_BYTES_PER_CALLER,
    maxResultBytes: IDEMPOTENCY_MAX_RESULT_BYTES,
  },
});

export type IdempotencySettings = SettingsOf<typeof IDEMPOTENCY>;

/** The idempotency rule's timings and bounds (src/idempotency), from this area's slice. */
export function idempotencyOf(settings: IdempotencySettings): { ttlMs: number; leaseMs: number; waitMs: number; limits: { maxKeys: number; maxKeysPerIdentity: number; maxBytes: number; maxBytesPerIdentity: number; maxResultBytes: number } } {
  return {
    ttlMs: settings.ttlMs,
    leaseMs: settings.leaseMs,
    waitMs: settings.waitMs,
    limits: { maxKeys: settings.maxKeys, maxKeysPerIdentity: settings.maxKeysPerCaller, maxBytes: settings.maxBytes, maxBytesPerIdentity: settings.maxBytesPerCaller, maxResultBytes: settings.maxResultBytes },
  };
}
