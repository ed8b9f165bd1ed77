/**
 * The provisioning limits, defined once: what is counted, in which order, and the refusal each
 * outcome means. `MAX_PROVISIONINGS` running at once and each owner's share of it
 * (`MAX_PROVISIONINGS_PER_CALLER`); `PROVISIONINGS_RETAINED` records kept, running and finished,
 * one owner keeping a quarter at most; a finished record readable for `retainMs`.
 *
 * A store applies them atomically where it keeps its records: `ProvisioningLedger` (below) in one
 * process, and in a fleet's replica while Redis is away; the START script of
 * src/state/redis/provisionings.ts in Redis, which takes the same steps in the same order.
 */
import { LimitExceededError } from '../errors/codes';

export interface ProvisioningLimits {
  /** Provisionings running at once, all owners together (`MAX_PROVISIONINGS`). */
  maxRunning: number;
  /** Provisionings one owner may run at once (`MAX_PROVISIONINGS_PER_CALLER`). */
  maxRunningPerOwner: number;
  /** Records kept, running and finished (`PROVISIONINGS_RETAINED`); one owner keeps at most a quarter. */
  maxRetained: number;
  /** How long a finished provisioning stays readable. */
  retainMs: number;
}

/** A reservation's outcome: `ok`, or which limit refused it. */
export type LimitAnswer = 'ok' | 'running:gateway' | 'running:caller' | 'retained:caller' | 'retained:gateway';

const ANSWERS: ReadonlySet<string> = new Set<LimitAnswer>(['ok', 'running:gateway', 'running:caller', 'retained:caller', 'retained:gateway']);
export const isLimitAnswer = (value: unknown): value is LimitAnswer => typeof value === 'string' && ANSWERS.has(value);

/** An owner keeps at most this many records (a quarter of the total, at least one). */
export const ownerRetained = (limits: ProvisioningLimits): number => Math.max(1, Math.floor(limits.maxRetained / 4));

/** Seconds a refused caller is told to wait: runs take a while. */
const RETRY_AFTER_S = 5;

/** The refusal a limit answer means (`RATE_LIMITED`, scope, retryAfter). */
export function refusalOf(answer: Exclude<LimitAnswer, 'ok'>, limits: ProvisioningLimits): LimitExceededError {
  switch (answer) {
    case 'running:gateway':
      return new LimitExceededError('provisionings', limits.maxRunning, `the gateways run ${limits.maxRunning} provisionings already (MAX_PROVISIONINGS); try again when one has finished`, { scope: 'gateway', retryAfter: RETRY_AFTER_S });
    case 'running:caller':
      return new LimitExceededError('provisionings', limits.maxRunningPerOwner, `this caller runs ${limits.maxRunningPerOwner} provisionings already, its share of MAX_PROVISIONINGS; try again when one has finished`, { scope: 'caller', retryAfter: RETRY_AFTER_S });
    case 'retained:caller':
      return new LimitExceededError('provisionings', ownerRetained(limits), `this caller keeps ${ownerRetained(limits)} provisioning records, none finished (PROVISIONINGS_RETAINED); try again when one has finished`, { scope: 'caller', retryAfter: RETRY_AFTER_S });
    case 'retained:gateway':
      return new LimitExceededError('provisionings', limits.maxRetained, `this gateway keeps ${limits.maxRetained} provisioning records, none finished (PROVISIONINGS_RETAINED); try again when one has finished`, { scope: 'gateway', retryAfter: RETRY_AFTER_S });
  }
}

interface Held {
  owner: string;
  finishedAt: number | null;
}

/**
 * The limits over the records one process knows, applied synchronously (a reservation is taken
 * before the first await). `onDrop` hears of each record dropped to make room or past its time.
 */
export class ProvisioningLedger {
  /** In insertion order: the oldest first. */
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly limits: ProvisioningLimits,
    private readonly onDrop: (id: string) => void = () => undefined,
  ) {}

  /**
   * The steps, in order: drop finished records past `retainMs`; refuse past the running total,
   * then past the owner's running share; at the owner's record share drop its oldest finished
   * record (or refuse); at the record total drop the oldest finished one (or refuse); record `id`
   * as running.
   */
  reserve(owner: string, id: string, now: number): LimitAnswer {
    this.expire(now);
    const running = [...this.held.values()].filter((e) => e.finishedAt === null);
    if (running.length >= this.limits.maxRunning) return 'running:gateway';
    if (running.filter((e) => e.owner === owner).length >= this.limits.maxRunningPerOwner) return 'running:caller';
    if ([...this.held.values()].filter((e) => e.owner === owner).length >= ownerRetained(this.limits)) {
      const oldest = this.oldestFinished(owner);
      if (oldest === null) return 'retained:caller';
      this.drop(oldest);
    }
    if (this.held.size >= this.limits.maxRetained) {
      const oldest = this.oldestFinished(null);
      if (oldest === null) return 'retained:gateway';
      this.drop(oldest);
    }
    this.held.set(id, { owner, finishedAt: null });
    return 'ok';
  }

  /** Records a run reserved elsewhere (in Redis), so that this ledger counts it too. */
  track(owner: string, id: string): void {
    if (!this.held.has(id)) this.held.set(id, { owner, finishedAt: null });
  }

  /**
   * The run is over: it no longer counts as running, and its record goes `retainMs` after `now`.
   * Idempotent. Records past their time go now too, so a ledger that only tracks (a fleet's, while
   * Redis is up) stays bounded.
   */
  finish(id: string, now: number): void {
    const entry = this.held.get(id);
    if (entry !== undefined && entry.finishedAt === null) entry.finishedAt = now;
    this.expire(now);
  }

  /** Drops the finished records past `retainMs`. */
  private expire(now: number): void {
    for (const [key, entry] of this.held) if (entry.finishedAt !== null && entry.finishedAt <= now - this.limits.retainMs) this.drop(key);
  }

  running(): number {
    let n = 0;
    for (const entry of this.held.values()) if (entry.finishedAt === null) n += 1;
    return n;
  }

  private oldestFinished(owner: string | null): string | null {
    let found: { id: string; at: number } | null = null;
    for (const [id, entry] of this.held) {
      if (entry.finishedAt === null || (owner !== null && entry.owner !== owner)) continue;
      if (found === null || entry.finishedAt < found.at) found = { id, at: entry.finishedAt };
    }
    return found?.id ?? null;
  }

  private drop(id: string): void {
    this.held.delete(id);
    this.onDrop(id);
  }
}
