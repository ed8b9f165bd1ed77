/**
 * A shared limit with a per-caller share: at most `total` holds at once in all, and at most
 * `perCaller` for any one caller (a verified identity's key, src/core/caller.ts, or a client
 * address for anonymous callers), so no single caller can take all of it. Every refusal is a `LimitExceededError`
 * (RATE_LIMITED with `retryAfter`), the same for every limit that uses this.
 *
 * Pollers, provisionings, heavy-operation turns, SSE reservations and WebSocket connections
 * all count through one of these.
 */
import { LimitExceededError, type SharedLimitName } from '../errors/codes';

export interface ShareSettings {
  /** Holds at once, all callers together. */
  total: number;
  /** Holds at once for one caller. */
  perCaller: number;
  /** What a refused caller is told to wait, in seconds. @default 1 */
  retryAfter?: number;
  /** The setting's name, for the message (e.g. `MAX_POLLERS`). */
  setting: string;
}

/** A hold on one unit of a shared limit; `release` is idempotent. */
export interface Hold {
  release(): void;
}

export interface ShareStats {
  held: number;
  callers: number;
}

/** A class, not an object with a closure: a follower holds its shares for hours (memory per follower). */
class Held implements Hold {
  private released = false;

  constructor(
    private readonly limit: SharedLimit,
    private readonly caller: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.limit.giveBack(this.caller);
  }
}

export class SharedLimit {
  private held = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    readonly name: SharedLimitName,
    readonly settings: ShareSettings,
  ) {}

  /** Whether `caller` could take one more now (nothing is taken). */
  wouldRefuse(caller: string): LimitExceededError | null {
    const { total, perCaller, retryAfter = 1, setting } = this.settings;
    if (this.held >= total) {
      return new LimitExceededError(this.name, total, `this gateway holds ${total} ${this.describe()} already (${setting}); try again later`, { scope: 'gateway', retryAfter });
    }
    if ((this.byCaller.get(caller) ?? 0) >= perCaller) {
      return new LimitExceededError(this.name, perCaller, `this caller holds ${perCaller} ${this.describe()} already, its share of ${setting}; try again when one has ended`, { scope: 'caller', retryAfter });
    }
    return null;
  }

  /** Takes one unit for `caller`, or throws the refusal. Synchronous: take it before the first await. */
  take(caller: string): Hold {
    const refusal = this.wouldRefuse(caller);
    if (refusal) throw refusal;
    this.held += 1;
    this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + 1);
    return new Held(this, caller);
  }

  /** One unit of `caller`'s back (a hold's release: once). */
  giveBack(caller: string): void {
    this.held -= 1;
    const left = (this.byCaller.get(caller) ?? 1) - 1;
    if (left <= 0) this.byCaller.delete(caller);
    else this.byCaller.set(caller, left);
  }

  stats(): ShareStats {
    return { held: this.held, callers: this.byCaller.size };
  }

  private describe(): string {
    return DESCRIPTIONS[this.name];
  }
}

const DESCRIPTIONS: Record<SharedLimitName, string> = {
  subscriptionsPerConnection: 'subscriptions on this connection',
  subscriptionsPerCaller: 'subscriptions',
  anonymousSubscriptions: 'subscriptions without a token',
  pollers: 'followed targets',
  provisionings: 'provisionings',
  heavyOperations: 'heavy-operation turns',
  sseReservations: 'SSE stream reservations',
  wsConnections: 'WebSocket connections',
  upstreamCallsPerMinute: 'upstream calls this minute',
};

/**
 * The per-caller share of a total when the operator sets none: a quarter, at least one, so that
 * four callers can fill the gateway and no single one can.
 */
export function defaultShare(total: number): number {
  return Math.max(1, Math.floor(total / 4));
}
