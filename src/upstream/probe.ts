/**
 * Reachability probe of the upstream origins (for /readyz and `Mutation.checkUpstreams`).
 * Any HTTP answer counts as reachable: the probe sends no credentials, so 401/404 are normal.
 *
 * Probes are shared: one round (a request to each origin) at a time, and its result answers every
 * check for `cacheMs` after it finished. So a burst of readiness checks, or an operation asking
 * `checkUpstreams` many times, costs the upstreams one round, not one per asker.
 */
import { request } from 'undici';
import type { UpstreamService } from '../errors/codes';

export interface UpstreamCheck {
  service: UpstreamService;
  reachable: boolean;
  status: number | null;
  latencyMs: number;
}

export interface ProbeTarget {
  service: UpstreamService;
  /** URL to GET, e.g. `{base}/rest/v1/`. */
  url: string;
}

export interface ProbeOptions {
  /** Stops this asker's wait (not the shared round, which others may be waiting for). */
  signal?: AbortSignal;
  /**
   * Called once per request a new round is about to send, before any is sent (an operation's
   * upstream-call budget); when it throws, nothing is sent and the error is the asker's. Not
   * called when the round in flight, or a recent one, answers.
   */
  spend?: () => void;
}

export interface SharedProbe {
  check(options?: ProbeOptions): Promise<UpstreamCheck[]>;
}

export function createSharedProbe(
  targets: readonly ProbeTarget[],
  options: { timeoutMs: number; cacheMs: number; now?: () => number },
): SharedProbe {
  const now = options.now ?? (() => performance.now());
  let inFlight: Promise<UpstreamCheck[]> | null = null;
  let last: { finishedAt: number; checks: UpstreamCheck[] } | null = null;
  return {
    check({ signal, spend } = {}) {
      if (signal?.aborted) return Promise.reject(stopped(signal));
      let round = inFlight;
      if (round === null) {
        if (last !== null && now() - last.finishedAt < options.cacheMs) return Promise.resolve(last.checks);
        try {
          if (spend) for (let i = 0; i < targets.length; i += 1) spend();
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
        round = probeUpstreams(targets, options.timeoutMs).then((checks) => {
          last = { finishedAt: now(), checks };
          inFlight = null;
          return checks;
        });
        inFlight = round;
      }
      return signal ? untilAborted(round, signal) : round;
    },
  };
}

/** One round: a GET to each origin, each bounded by `timeoutMs` alone (no asker's signal: the round is shared). */
function probeUpstreams(targets: readonly ProbeTarget[], timeoutMs: number): Promise<UpstreamCheck[]> {
  return Promise.all(targets.map((t) => probeOne(t, timeoutMs)));
}

async function probeOne(target: ProbeTarget, timeoutMs: number): Promise<UpstreamCheck> {
  const started = performance.now();
  try {
    const res = await request(target.url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await res.body.dump();
    return { service: target.service, reachable: true, status: res.statusCode, latencyMs: elapsed(started) };
  } catch {
    return { service: target.service, reachable: false, status: null, latencyMs: elapsed(started) };
  }
}

/** `round`, or the signal's reason once it aborts (the round goes on for the others). */
function untilAborted<T>(round: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(stopped(signal));
    signal.addEventListener('abort', abort, { once: true });
    round.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function stopped(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the probe was no longer awaited');
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
