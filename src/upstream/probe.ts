/**
 * Reachability probe of the upstream origins (for /readyz and `Mutation.checkUpstreams`).
 * Any HTTP answer counts as reachable: the probe sends no credentials, so 401/404 are normal.
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

export async function probeUpstreams(
  targets: readonly ProbeTarget[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<UpstreamCheck[]> {
  return Promise.all(targets.map((t) => probeOne(t, options)));
}

async function probeOne(target: ProbeTarget, options: { timeoutMs: number; signal?: AbortSignal }): Promise<UpstreamCheck> {
  const started = performance.now();
  const signals = [AbortSignal.timeout(options.timeoutMs)];
  if (options.signal) signals.push(options.signal);
  try {
    const res = await request(target.url, { method: 'GET', signal: AbortSignal.any(signals) });
    await res.body.dump();
    return { service: target.service, reachable: true, status: res.statusCode, latencyMs: elapsed(started) };
  } catch {
    return { service: target.service, reachable: false, status: null, latencyMs: elapsed(started) };
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
