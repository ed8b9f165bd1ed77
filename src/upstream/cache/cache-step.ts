/**
 * The chain's "cache" step (store.ts holds the entries). For a GET: a fresh entry of this
 * credential answers at once (`hit`: no request, so no quota, budget or span is charged); a stale
 * one with a validator is revalidated (`If-None-Match` / `If-Modified-Since`) and a 304 merged
 * into it (`revalidated`); anything else goes on (`network`, or `shared` when in-flight sharing
 * joined another call) and a 2xx is kept when its headers (or an operator TTL) allow.
 *
 * For a change (`UpstreamRequest.change`, set by the one sender, writes.ts): once it was answered
 * — or may have been applied — what it touched is made stale for every credential here and on
 * every replica (`ChangeSink`), before the sender reads the answer: a caller reads its own write.
 *
 * Revocation: the identity check (identity/v1, the platform saying who a token is) never comes
 * from the cache; and a cached copy answers a caller only while the platform's acceptance of its
 * token is current (`verdicts`): past it, the token is verified again first, and a token the
 * platform no longer accepts goes to the network, where the platform answers for itself.
 */
import { Counter, type Registry } from 'prom-client';
import { forwardsToken, perService, type UpstreamService } from '../../core/upstream-apis';
import { UpstreamError } from '../../errors/codes';
import type { UpstreamRequest, UpstreamResponse } from '../http-types';
import type { CallOutcome, Interceptor, Send, UpstreamCall } from '../chain/call';
import { answerFrom } from './answer';
import { servicePath, type ChangeNotice } from './change-scope';
import type { ChangeSink } from './changes';
import type { CacheEntry, CacheRequest, UpstreamCache } from './store';

export interface CacheStepDeps {
  readonly cache: UpstreamCache;
  readonly changes: ChangeSink;
  readonly metrics: Registry | undefined;
  /** The clock of the cache (tests inject one). @default Date.now */
  readonly now?: () => number;
  /** How long past freshness an entry may answer while its API's breaker is open; 0: never. @default 0 */
  readonly staleIfErrorSeconds?: number;
  /** Whether the service's API has its circuit breaker open now. */
  readonly breakerOpen?: (service: UpstreamService) => boolean;
  /** The caller verifier (src/core/verify.ts); none: a cached copy answers whoever holds its credential. */
  readonly verdicts?: CacheVerdicts;
}

/** What the cache asks of the caller verifier before a cached copy answers a token. */
export interface CacheVerdicts {
  /** The platform's acceptance of the token is current (no call). */
  isCurrent(authorization: string): boolean;
  /** Asks again (cached verdicts answer at once); rejects when the platform refuses the token or cannot say. */
  verify(authorization: string): Promise<unknown>;
}

const CONDITIONALS = ['if-none-match', 'if-modified-since'] as const;
/** Whether a service's reads may be kept and answered here (not the identity check's: src/core/upstream-apis.ts `cached`). */
const CACHED = perService((api) => api.cached);

export function cacheStep(deps: CacheStepDeps): Interceptor {
  const { cache, changes, verdicts } = deps;
  const now = deps.now ?? Date.now;
  const outcomes = new Counter({
    name: 'netgraph_upstream_read_outcomes_total',
    help: 'Upstream reads (GET) by how they were answered: hit (the cache, no request), revalidated (a 304), shared (another caller\'s call in flight), network (a request of its own).',
    labelNames: ['service', 'outcome'] as const,
    registers: deps.metrics ? [deps.metrics] : [],
  });
  const counted = (call: UpstreamCall, outcome: CallOutcome): void => {
    call.outcome = outcome;
    outcomes.inc({ service: call.request.service, outcome });
    // The request's tally (its log line and span): reads that needed no request of their own.
    const tally = call.caller.calls;
    if (tally !== undefined && (outcome === 'hit' || outcome === 'shared' || outcome === 'revalidated')) {
      tally.reads ??= { hit: 0, shared: 0, revalidated: 0 };
      tally.reads[outcome] += 1;
    }
  };

  /** The caller's token as sent to a platform API (none to an API that gets the gateway's own credentials, as search does). */
  const tokenOf = (call: UpstreamCall): string | undefined => (forwardsToken(call.request.service) ? call.caller.authorization : undefined);

  /**
   * Whether a cached copy may answer this call's token: no token, no verifier, or an acceptance
   * that is current, here (`true`, no await: most hits) or once verified again (a promise). A
   * refusal (or no answer) sends the read to the network instead, where the platform answers for
   * the token.
   */
  function mayAnswer(call: UpstreamCall): true | Promise<boolean> {
    const token = tokenOf(call);
    if (verdicts === undefined || token === undefined || verdicts.isCurrent(token)) return true;
    return verdicts.verify(token).then(
      () => true,
      () => false,
    );
  }

  /** While the API's breaker is open, a stale entry within the allowance answers instead of `error` (to a token whose acceptance is current). */
  function staleOr(call: UpstreamCall, entry: CacheEntry, error: unknown): UpstreamResponse {
    const allowance = deps.staleIfErrorSeconds ?? 0;
    if (allowance <= 0 || !(error instanceof UpstreamError) || deps.breakerOpen?.(call.request.service) !== true) throw error;
    const token = tokenOf(call);
    if (verdicts !== undefined && token !== undefined && !verdicts.isCurrent(token)) throw error;
    const ageSeconds = Math.round(entry.policy.age());
    if (entry.policy.age() - entry.policy.maxAge() > allowance) throw error;
    counted(call, 'stale');
    const tally = call.caller.calls;
    if (tally !== undefined) {
      tally.stale ??= { reads: 0, maxAgeSeconds: 0 };
      tally.stale.reads += 1;
      tally.stale.maxAgeSeconds = Math.max(tally.stale.maxAgeSeconds, ageSeconds);
    }
    return answerFrom(entry.answer.status, entry.answer.headers, entry.answer.text);
  }

  async function change(next: Send, call: UpstreamCall): Promise<UpstreamResponse> {
    const notice: ChangeNotice = { service: call.request.service, path: servicePath(call.request.service, call.target.info.path) };
    try {
      const response = await next(call);
      changes.changed(notice);
      return response;
    } catch (error) {
      // A refused change changed nothing; one that may have been applied did touch.
      if (error instanceof UpstreamError && error.outcomeUnknown) changes.changed(notice);
      throw error;
    }
  }

  async function read(next: Send, call: UpstreamCall): Promise<UpstreamResponse> {
    const request: CacheRequest = {
      service: call.request.service,
      pathAndQuery: call.target.pathAndQuery,
      pathname: call.target.info.path,
      credentialKey: call.credentialKey,
      headers: policyHeaders(call.request, call.caller.fresh === true),
    };
    const key = cache.keyOf(request);
    const mark = cache.mark();
    const entry = cache.get(key);
    if (entry !== undefined) {
      const asked = cache.requestOf(request);
      if (entry.policy.satisfiesWithoutRevalidation(asked)) {
        const may = mayAnswer(call);
        if (may === true || (await may)) {
          counted(call, 'hit');
          return answerFrom(entry.answer.status, entry.answer.headers, entry.answer.text);
        }
        return kept(call, key, request, await next(call), mark);
      }
      const validators = pick(entry.policy.revalidationHeaders(asked), CONDITIONALS);
      if (validators !== null) return revalidate(next, call, request, key, entry, validators, mark);
      return next(call).then(
        (response) => kept(call, key, request, response, mark),
        (error: unknown) => staleOr(call, entry, error),
      );
    }
    return kept(call, key, request, await next(call), mark);
  }

  /** A network answer: counted, and kept when it may be (not for a caller that only shared it). */
  function kept(call: UpstreamCall, key: string, request: CacheRequest, response: UpstreamResponse, mark: number): UpstreamResponse {
    counted(call, call.outcome === 'shared' ? 'shared' : 'network');
    if (call.outcome !== 'shared') cache.store(key, request, response, mark);
    return response;
  }

  async function revalidate(
    next: Send,
    call: UpstreamCall,
    request: CacheRequest,
    key: string,
    entry: CacheEntry,
    validators: Record<string, string>,
    mark: number,
  ): Promise<UpstreamResponse> {
    const conditional: UpstreamCall = { ...call, request: { ...call.request, headers: { ...(call.request.headers ?? {}), ...validators } } };
    try {
      const response = await next(conditional);
      counted(call, conditional.outcome === 'shared' ? 'shared' : 'network');
      if (conditional.outcome !== 'shared') cache.store(key, request, response, mark);
      return response;
    } catch (error) {
      if (!(error instanceof UpstreamError && error.upstream.status === 304)) return staleOr(call, entry, error);
      // The 304's headers (validators, Cache-Control, Date) update the stored ones; without a Date
      // of its own it is dated now.
      const notModified: Record<string, string> = { date: new Date(now()).toUTCString(), ...(conditional.lastAttempt?.headers ?? {}) };
      const updated = cache.revalidated(key, entry, request, notModified, mark);
      counted(call, conditional.outcome === 'shared' ? 'shared' : 'revalidated');
      return answerFrom(updated.answer.status, updated.answer.headers, updated.answer.text);
    }
  }

  return {
    name: 'cache',
    wrap: (next) => (call) => {
      // A GET with a body (the search service's query DSL) is not known by its URL alone, and the
      // identity check is the platform's word on a token now: neither is ever answered from a copy.
      if (call.request.method === 'GET') {
        const cached = cache.enabled && !hasBody(call) && CACHED[call.request.service];
        return cached ? read(next, call) : next(call).then((response) => (counted(call, call.outcome === 'shared' ? 'shared' : 'network'), response));
      }
      return call.request.change === true ? change(next, call) : next(call);
    },
  };
}

/** The request headers the cache policy sees (as the send step sends them, never the credential); `fresh`: `no-cache`. */
function policyHeaders(request: UpstreamRequest, fresh: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower !== 'authorization') headers[lower] = value;
  }
  if (fresh) headers['cache-control'] = 'no-cache';
  return headers;
}

function pick(headers: Readonly<Record<string, string | string[] | undefined>>, names: readonly string[]): Record<string, string> | null {
  const picked: Record<string, string> = {};
  let any = false;
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') {
      picked[name] = value;
      any = true;
    }
  }
  return any ? picked : null;
}

/** Whether the request carries a body (its URL then does not say what it asks). */
function hasBody(call: UpstreamCall): boolean {
  return call.request.json !== undefined || call.request.raw !== undefined;
}
