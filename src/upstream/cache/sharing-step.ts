/**
 * The chain's "in-flight sharing" step: identical GETs (same service, URL, request headers and
 * credential key) in flight at the same time share one call, across requests. Never a change,
 * never across credentials.
 *
 * - The first caller's call goes on (charged to it: quota, budget, span); the others join it
 *   (`outcome: 'shared'`) and are charged nothing.
 * - The call has a signal of its own: a caller that leaves stops waiting (its own cancellation
 *   error) without stopping the others; the call is cancelled when the last one leaves.
 * - Once the call settles it is no longer shared: a later caller makes a new call, so an error
 *   reaches only those waiting at the time. An error that is not the upstream's answer (the first
 *   caller's budget or quota refused it, nothing was sent) is not handed to the others: each of
 *   them makes its own call.
 * - Each caller gets its own copy of the answer (the JSON parsed again from the text).
 * - A change that touches the URL (store.ts `onInvalidate`) detaches the call: callers after the
 *   change make a new one, so a caller reads its own write.
 */
import { Cancellation, onAbort } from '../../core/cancellation';
import type { UpstreamResponse } from '../http-types';
import type { Interceptor, Send, UpstreamCall } from '../chain/call';
import { cancelled } from '../chain/stopped';
import { copyOf } from './answer';
import { segmentsOf, servicePath, type StaleTest } from './change-scope';

/** Where changes are heard (the cache's `onInvalidate`); none: calls are detached only when they settle. */
export interface ChangeSource {
  onInvalidate(listener: (test: StaleTest) => void): () => void;
}

interface Flight {
  readonly key: string;
  readonly promise: Promise<UpstreamResponse>;
  /** The call's own stop: a Cancellation, which undici takes as a signal, not an AbortSignal per call (src/core/cancellation.ts). */
  readonly controller: Cancellation;
  /** The first caller's copy of the call: whether anything was sent (`lastAttempt`). */
  readonly own: UpstreamCall;
  readonly service: UpstreamCall['request']['service'];
  readonly segments: readonly string[];
  waiting: number;
  settled: boolean;
}

export function sharingStep(changes: ChangeSource | null): Interceptor {
  // Made anew each time it empties: a Map that lives as long as the process and takes every
  // call's flight for a moment made V8 keep and promote each large query's answers (three times
  // the bytes promoted, 20-25 ms more CPU per whole-network graph, docs/performance.md); one
  // that lives no longer than a burst of calls does not.
  let flights = new Map<string, Flight>();
  const detach = (flight: Flight): void => {
    if (flights.get(flight.key) !== flight) return;
    flights.delete(flight.key);
    if (flights.size === 0) flights = new Map();
  };
  changes?.onInvalidate((test) => {
    for (const flight of [...flights.values()]) if (test(flight.service, flight.segments)) detach(flight);
  });

  function start(next: Send, call: UpstreamCall, key: string): Flight {
    const controller = new Cancellation();
    const own: UpstreamCall = { ...call, signal: controller };
    const flight: Flight = {
      key,
      own,
      controller,
      service: call.request.service,
      segments: segmentsOf(servicePath(call.request.service, call.target.info.path)),
      waiting: 0,
      settled: false,
      promise: Promise.resolve().then(() => next(own)),
    };
    flight.promise.then(
      () => settle(flight),
      () => settle(flight),
    );
    flights.set(key, flight);
    return flight;
  }

  function settle(flight: Flight): void {
    flight.settled = true;
    detach(flight);
  }

  function wait(next: Send, call: UpstreamCall, flight: Flight, first: boolean): Promise<UpstreamResponse> {
    flight.waiting += 1;
    return new Promise<UpstreamResponse>((resolve, reject) => {
      let done = false;
      const leave = (): void => {
        done = true;
        stopListening();
        flight.waiting -= 1;
        if (flight.waiting === 0 && !flight.settled) {
          detach(flight);
          flight.controller.abort();
        }
      };
      const stopListening = onAbort(call.signal, () => {
        if (done) return;
        leave();
        reject(cancelled(call.target.info, call.signal));
      });
      flight.promise.then(
        (response) => {
          if (done) return;
          leave();
          call.lastAttempt = flight.own.lastAttempt;
          resolve(first ? response : copyOf(response));
        },
        (error: unknown) => {
          if (done) return;
          leave();
          // Nothing was sent (the first caller's budget or quota, its cancellation): not an
          // answer of the upstream, so the others make their own call.
          if (!first && flight.own.lastAttempt === null) {
            call.outcome = 'network';
            next(call).then(resolve, reject);
          } else {
            // What the attempt learnt (a 304's headers, for the cache step) goes with the error.
            call.lastAttempt = flight.own.lastAttempt;
            reject(error);
          }
        },
      );
    });
  }

  return {
    name: 'in-flight sharing',
    wrap: (next) => (call) => {
      // The gateway's own check of a token (unmetered) never joins the caller's read of the same
      // URL: that read's quota charge may be waiting on this very check (the verifier shares its
      // checks itself).
      if (call.request.method !== 'GET' || call.caller.unmetered === true) return next(call);
      const key = keyOf(call);
      const joined = flights.get(key);
      if (joined !== undefined) {
        call.outcome = 'shared';
        return wait(next, call, joined, false);
      }
      return wait(next, call, start(next, call, key), true);
    },
  };
}

function keyOf(call: UpstreamCall): string {
  const headers = call.request.headers;
  let extra = '';
  if (headers !== undefined) {
    for (const name of Object.keys(headers).sort()) extra += `\n${name.toLowerCase()}: ${headers[name] ?? ''}`;
  }
  // A GET with a body (the search service's query DSL) shares only with the same body.
  const { json, raw } = call.request;
  const body = json !== undefined ? `\njson: ${JSON.stringify(json)}` : raw !== undefined ? `\n${raw.contentType}: ${raw.data}` : '';
  return `${call.credentialKey}\n${call.request.service}\n${call.target.pathAndQuery}${extra}${body}`;
}
