/**
 * The poller registry's contract: what an adapter declares about a kind
 * of target (`PollKind`), and what a caller gets back (`PollStream`). Nothing here knows about
 * upstreams, GraphQL or transports, so another registry (Redis leases and pub/sub shared by many
 * replicas) can implement `PollerRegistry` without touching the adapters.
 */

/** What a failed poll means, decided by the kind (`classifyError`) or by `classifyPollError`. */
import type { Listenable } from '../core/listen';
import type { CancelSignal } from '../core/cancellation';

export type PollErrorDecision<Value> =
  /** Transient (5xx, timeout, unreachable, rate limited): poll again after a longer pause; after `maxErrors` in a row, end with this error. */
  | { action: 'retry' }
  /** Not a failure yet (e.g. a key the upstream does not know yet): poll again after the usual pause. */
  | { action: 'wait' }
  /** The failure is itself a state (e.g. gone → DELETED): handled as if the poll had returned `value`. */
  | { action: 'emit'; value: Value }
  /** End the subscribers of the credential that polled with `error` now (401, 403, 404, a bad body, a bug); another admitted credential polls next. */
  | { action: 'fail'; error: unknown };

/** What a kind's `classifyError` may look at. */
export interface PollState<Value> {
  /** Polls made so far, the failed one included (1 on the first poll). */
  polls: number;
  /** Milliseconds since the poller started. */
  elapsedMs: number;
  /** The last value emitted; null before the first. */
  last: Value | null;
}

/**
 * One kind of target (a workflow by business key, a resource's status…): how to poll it, how to
 * tell two results apart, and when it is finished. Declared once per kind, at module level; the
 * registry keeps one poller per (kind, `key(target)`, owner fingerprint).
 */
export interface PollKind<Target, Value, Session> {
  /** Short name, used in keys and as the `kind` label of the metrics (`workflow`, `resourceStatus`). */
  readonly name: string;
  /** Stable key of a target within this kind (no credentials: it is logged and compared). */
  key(target: Target): string;
  /** One poll. `session` is fresh for this poll (no cache spans polls); `signal` aborts when the poller stops. */
  poll(target: Target, session: Session, signal: AbortSignal): Promise<Value>;
  /** A short string that changes exactly when subscribers should hear about a new value. */
  fingerprint(value: Value): string;
  /** True for a final value: it is emitted, then every subscriber completes and the poller stops. */
  isTerminal(value: Value): boolean;
  /** What a failed poll means; undefined leaves it to `classifyPollError` (401 fail, transient retry, rest fail). */
  classifyError?(error: unknown, state: PollState<Value>, target: Target): PollErrorDecision<Value> | undefined;
  /**
   * The pause before the next poll, for a kind that paces itself (e.g. fast while its target is
   * busy, slower while it is quiet, within bounds of its own); undefined keeps the registry's
   * `pace.proposedMs`. Called after every poll, whatever its outcome.
   */
  nextPauseMs?(pace: PollPace<Value>, target: Target): number | undefined;
  /** Whether a change sent through the gateway touches `target`: its poller then polls at once (`PollerRegistry.wake`). */
  wakes?(target: Target, change: PollWake): boolean;
  /**
   * How a value travels between replicas (a fleet shares one poller per target through Redis,
   * src/state). Without it, each replica polls this kind on its own, as a single process does.
   */
  readonly wire?: PollWire<Value>;
}

/** A change sent through the gateway (its upstream service and the changed path below the service's base). */
export interface PollWake {
  readonly service: string;
  readonly path: string;
}

/** What a kind's `nextPauseMs` may look at. */
export interface PollPace<Value> {
  /** How the poll went: a new value, the same value (or a failure the kind waits out), a transient error. */
  outcome: 'changed' | 'unchanged' | 'error';
  /** The pause before the poll that just ran. */
  pauseMs: number;
  /** The registry's own next pause (`PollerSettings`: the interval after a change, stretched otherwise). */
  proposedMs: number;
  /** The last value emitted; null before the first. */
  last: Value | null;
  /** Milliseconds since the last value was emitted (since the poller started, before the first). */
  sinceChangeMs: number;
}

/** A value as JSON and back; `decode` checks the shape (it reads what another replica wrote) and throws on a bad one. */
export interface PollWire<Value> {
  encode(value: Value): unknown;
  decode(json: unknown): Value;
}

/**
 * Whose credentials a poller uses. `fingerprint` is the verified identity's key: a poller is
 * placed per (kind, target, identity), and its `MAX_POLLERS` share is the identity's. `credential`
 * is a keyed hash of the token itself (never the token): data are served per credential, so a
 * second token of one identity is served only once its own read of the target succeeded
 * (subscribers.ts). `session` builds what one poll needs from credentials the registry never sees.
 */
export interface PollOwner<Session> {
  readonly fingerprint: string;
  readonly credential: string;
  session(signal: AbortSignal): Session;
}

/**
 * A subscriber's view of a shared poller: the latest value at once (when there is one), then each
 * change. It ends after a terminal value (done), with the poller's error (`next()` rejects), when
 * the subscriber's signal aborts, or when the registry closes. `return()` and `release()` leave.
 */
export interface PollStream<Value> extends AsyncIterableIterator<Value>, Listenable<Value> {
  /** Leave the poller (idempotent); the poller stops when its last subscriber has left. */
  release(): void;
}

/** The registry, behind the small interface the adapters and the server use. */
export interface PollerRegistry<Session> {
  /**
   * Subscribe to `target` polled with `owner`'s credentials: joins the running poller for
   * (kind, key, owner's identity) or starts one; a credential the poller does not poll with yet
   * hears nothing until its own read of the target succeeded (a refusal ends only its stream). Throws `LimitExceededError` when a new poller would pass
   * the configured maximum. `signal` aborting releases the stream.
   */
  acquire<Target, Value>(kind: PollKind<Target, Value, Session>, target: Target, owner: PollOwner<Session>, signal?: CancelSignal): PollStream<Value>;
  /**
   * Makes every running poller whose kind says the change touches its target (`PollKind.wakes`)
   * poll at once, instead of after its pause. Returns how many were woken.
   */
  wake(change: PollWake): number;
  /** The same, bound to one owner: what a request's context carries. */
  forOwner(owner: PollOwner<Session>): CallerPollers<Session>;
  /** Running pollers and their subscribers (for tests and /metrics). */
  stats(): { pollers: number; subscribers: number };
  /** Stop every poller and timer; every stream ends (done). Later `acquire` calls throw. */
  close(): Promise<void>;
}

/** The registry seen from one request: the owner is already bound, credentials stay out of reach. */
export interface CallerPollers<Session> {
  follow<Target, Value>(kind: PollKind<Target, Value, Session>, target: Target, signal?: CancelSignal): PollStream<Value>;
}

/** The in-process registry's settings (config.ts reads them from the environment). */
export interface PollerSettings {
  /** Pause before the next poll after a change (and before the second poll). */
  intervalMs: number;
  /** Ceiling of the pause: it grows by `backoffFactor` after each poll without change, doubles after a transient error. */
  maxIntervalMs: number;
  /** Growth of the pause per poll without change. @default 1.5 */
  backoffFactor?: number;
  /** Transient failures in a row after which the poller ends its subscribers with the last one. */
  maxErrors: number;
  /** Pollers allowed at once in this process. */
  maxPollers: number;
  /** Pollers one owner (credential fingerprint) may start, its share of `maxPollers`. @default a quarter of `maxPollers` (core/shares.ts) */
  maxPollersPerCaller?: number;
}
