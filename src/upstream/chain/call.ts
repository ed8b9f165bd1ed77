/**
 * The shape every step of the upstream chain shares: one call as it passes the chain, each
 * attempt of it that leaves (`UpstreamAttempt`, made by the attempts step, retry.ts), the `Send`
 * each step wraps, and the hooks outer steps leave for the attempts that actually leave.
 */
import type { UpstreamCallInfo } from '../../errors/codes';
import type { OperationSpan } from '../../tracing';
import type { CancelSignal } from '../../core/cancellation';
import type { UpstreamRequest, UpstreamResponse } from '../http-types';

export interface CallerOptions {
  /** The caller's Authorization header, forwarded verbatim to every service except search. */
  authorization?: string | undefined;
  /** The GraphQL request's signal: aborting it cancels queued and running upstream calls. */
  signal: CancelSignal;
  /** Incremented once per HTTP request sent (retries included). */
  calls?: CallTally;
  /** The operation's running budget (src/limits/budget.ts): calls counted against it, its deadline aborts reads. */
  budget?: CallBudget;
  /** The operation's span when tracing is on (src/tracing): each attempt gets a child span and sends its trace headers. */
  trace?: OperationSpan;
  /**
   * Reads revalidate with the upstream even when a cached copy is fresh (../cache): pollers and
   * background runs are there to see changes. @default false
   */
  fresh?: boolean;
  /** The gateway's own call for the caller (verifying the token), not the caller's: outside the per-caller quota. */
  unmetered?: boolean;
}

/**
 * What one request's calls came to: `count`, requests sent (retries included); and the reads
 * answered without a request of their own (../cache), counted by how.
 */
export interface CallTally {
  count: number;
  /** Of `count`, the changes (POST, PUT, DELETE) sent: none means the platform was asked to change nothing. */
  changes?: number;
  reads?: { hit: number; shared: number; revalidated: number };
  /** Reads answered from a cached copy past its freshness while the API's breaker was open (`extensions.staleUpstream`). */
  stale?: { reads: number; maxAgeSeconds: number };
}

/**
 * What the HTTP layer needs of an operation's budget. Its signal aborts reads (GET) when a budget
 * is crossed or the deadline passes; a change already sent is never cut by it, so its outcome
 * stays known (and no change is ever sent twice): a change only checks the budget before it is sent.
 */
export interface CallBudget {
  readonly signal: CancelSignal;
  /** Counts one call; throws the budget's error (nothing is sent) when none is left. */
  spendCall(): void;
}

/**
 * Counts the upstream requests one caller causes (src/state/call-quota.ts). `forCaller` answers
 * the counter of one Authorization value (it hashes it; null: nothing counted); the counter
 * rejects past the quota, and the request is then not sent (its retries count with it).
 */
export interface UpstreamQuota {
  forCaller(authorization: string | undefined): (() => Promise<void>) | null;
}

/** Where a call goes, resolved once by the target step (target.ts). */
export interface Target {
  readonly origin: string;
  readonly pathAndQuery: string;
  readonly info: UpstreamCallInfo;
}

/** What one caller's calls share, made once per `forCaller`. */
export interface CallerScope {
  readonly options: CallerOptions;
  /** The caller's quota counter (null: no quota), made once so the credential is hashed once. */
  readonly spendQuota: (() => Promise<void>) | null;
  /** Keyed hash of the caller's credential, computed on first use. */
  credentialKey(): string;
}

/**
 * A charge an outer step (quota, budget) leaves on the call: run by the retry step for each
 * attempt that is about to leave, never for an answer that did not need the network (a cache hit,
 * a shared call). Throwing (or rejecting) refuses the attempt: nothing is sent.
 */
export type Charge = (attempt: number) => void | Promise<void>;

/** An observer of one attempt that left (the trace step's span, the breaker's record): headers to send with it, and its end. */
export interface AttemptWatch {
  readonly headers?: Readonly<Record<string, string>> | undefined;
  end(result: { status: number | null; errorCode?: string | undefined }): void;
}

/** What the send step learnt of one attempt that left (`UpstreamAttempt.result`); read by retry, metrics, breaker. */
export interface AttemptResult {
  /** The answer's status; null when no answer came (transport error, cancellation). */
  readonly status: number | null;
  /** Worth another attempt if the method allows it (5xx, 429, connection errors). */
  readonly retryable: boolean;
  /** `Retry-After` of a 429/503, in ms; null when absent or unreadable. */
  readonly retryAfterMs: number | null;
  /** undici/Node error code of a transport failure. */
  readonly transportCode: string | undefined;
  /** Headers of an answer that is not a 2xx (a 304's validators and freshness, read by the cache step). */
  readonly headers?: Readonly<Record<string, string>>;
}

export type CallOutcome = 'network' | 'hit' | 'revalidated' | 'shared' | 'stale';

/** One call as it passes the chain. */
export interface UpstreamCall {
  readonly request: UpstreamRequest;
  readonly target: Target;
  /** The credential that will be sent (the caller's, or search's basic credentials, or none). */
  readonly authorization: string | null;
  /**
   * Keyed hash (HMAC, a per-process key) of that credential, `search` for the search service's
   * basic credentials, `anonymous` for none: what sharing and caching key by, never the credential.
   */
  readonly credentialKey: string;
  readonly caller: CallerOptions;
  /** What the caller's calls share (its quota counter, its credential key). */
  readonly scope: CallerScope;
  /** Reads stop with the operation's budget signal; changes only with the request's (see CallBudget). */
  readonly signal: CancelSignal;
  /** How the answer was obtained; set by the cache and sharing steps, read by metrics, trace and log. */
  outcome: CallOutcome;
  /**
   * The API's breaker as the breaker step found it (`closed`, `open`, `half-open`, `probe` for the
   * call sent as the half-open probe); null until that step ran. Read by the trace span.
   */
  apiState: 'closed' | 'open' | 'half-open' | 'probe' | null;
  /** Charges for each attempt that leaves (caller-quota.ts, request-budget.ts). */
  readonly charges: Charge[];
  /** Observers opened for each attempt that leaves (trace-span.ts, breaker.ts). */
  readonly watchers: Array<(attempt: UpstreamAttempt) => AttemptWatch>;
  /**
   * What the last attempt that left learnt, copied by the attempts step (retry.ts) as each one
   * ends; null while none has. Read by the steps before it: the breaker (a `Retry-After`), the
   * cache (a 304's headers), in-flight sharing (whether anything was sent).
   */
  lastAttempt: AttemptResult | null;
}

/**
 * One attempt of a call that leaves: made by the attempts step (retry.ts) once its charges passed,
 * with its watchers open (its span). The steps after that one see the attempt, never a call
 * changed under them; the send step leaves what it learnt in `result`.
 */
export interface UpstreamAttempt {
  readonly call: UpstreamCall;
  /** 1-based. */
  readonly number: number;
  /** No attempt follows this one if it fails (a change, the last try a read has). */
  readonly final: boolean;
  /** Headers its watchers asked to send (trace context). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Set by the send step when the attempt has left: its status, whether worth another, its `Retry-After`. */
  result: AttemptResult | null;
}

export type Send = (call: UpstreamCall) => Promise<UpstreamResponse>;
export type SendAttempt = (attempt: UpstreamAttempt) => Promise<UpstreamResponse>;

/** One step of the chain before the attempts: wraps the steps after it, sees the call. */
export interface Interceptor {
  readonly kind?: undefined;
  readonly name: string;
  wrap(next: Send): Send;
}

/** The step that turns a call into its attempts (retry.ts): the calls' steps before it, the attempts' after. */
export interface AttemptsStep {
  readonly kind: 'attempts';
  readonly name: string;
  wrap(next: SendAttempt): Send;
}

/** One step after the attempts step: wraps the steps after it, sees each attempt that leaves. */
export interface AttemptStep {
  readonly kind: 'attempt';
  readonly name: string;
  wrap(next: SendAttempt): SendAttempt;
}

export type Step = Interceptor | AttemptsStep | AttemptStep;

/**
 * `steps` around `send`, the first outermost: the call's steps, then exactly one attempts step,
 * then the attempt's steps (throws when they are out of that order).
 */
export function compose(steps: readonly Step[], send: SendAttempt): Send {
  let attempt = send;
  let i = steps.length - 1;
  for (; i >= 0; i -= 1) {
    const step = steps[i]!;
    if (step.kind === 'attempts') break;
    if (step.kind !== 'attempt') throw new Error(`the chain's step "${step.name}" sees calls, so it goes before the attempts step`);
    attempt = step.wrap(attempt);
  }
  const bridge = steps[i];
  if (bridge?.kind !== 'attempts') throw new Error('a chain needs its attempts step (retry)');
  let next = bridge.wrap(attempt);
  for (i -= 1; i >= 0; i -= 1) {
    const step = steps[i]!;
    if (step.kind !== undefined) throw new Error(`the chain's step "${step.name}" sees attempts, so it goes after the attempts step`);
    next = step.wrap(next);
  }
  return next;
}

/** The interceptor that passes every call on: an empty slot of the chain. */
export function passThrough(name: string): Interceptor {
  return { name, wrap: (next) => next };
}
