/**
 * `/healthz` (the process answers), `/readyz` (the gateway can serve), `/metrics` (Prometheus).
 * Readiness is a set of named checks, run together; the gateway is ready when every one is. A check
 * may be ready but `degraded`: the platform's trouble is one of those. An unreachable platform API
 * or an open breaker makes `/readyz` 200 `degraded`, naming the API (`degraded`, `upstreamApis`),
 * never 503: an orchestrator that took every replica out for one API's outage would take the
 * other APIs, and the answers the gateway still gives (fast failures with `retryAfter`, stale
 * reads), with it. 503 is for the gateway itself (the fleet's state not reached yet, a check of
 * its own failing). The upstream check counts any HTTP answer as reachable. The body says which
 * upstream is served: `"mode": "sandbox"` is the embedded demo, never a platform.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { StateCheck } from '../state';
import type { SharedProbe } from '../upstream/probe';
import type { ApiHealth } from '../upstream/health';

/** What one readiness check found: ready or not (degraded: serving, with a part of it down), and what the body shows of it. */
export interface ReadinessResult {
  ready: boolean;
  /** Ready, but what it checks is partly down (names of what is: the body's `degraded`). */
  degraded?: readonly string[];
  [detail: string]: unknown;
}

/** One named part of readiness (e.g. `upstreams`). A check that throws is not ready. */
export type ReadinessCheck = () => Promise<ReadinessResult>;

export interface HealthOptions {
  /** The checks `/readyz` runs, by name. */
  readiness: Readonly<Record<string, ReadinessCheck>>;
  /** `sandbox`: the gateway serves the embedded demo upstream; `upstream`: the configured platform. */
  mode: 'sandbox' | 'upstream';
  metrics: Registry;
  /** The shared state (src/state): not ready until Redis was reached once; degraded, but serving, when it is lost later. */
  state?: () => StateCheck;
  /** Each platform API's breaker (src/upstream/health): one not closed makes the gateway `degraded`, still ready, naming it — an outage of one API is no reason to take every replica out of service. */
  upstreamApis?: () => readonly ApiHealth[];
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<number>;

/**
 * Which upstream origins answer (through the shared probe: a burst of checks costs one round). One
 * that does not is the platform's trouble, not the gateway's: ready, degraded, naming the service.
 */
export function upstreamReadiness(probe: SharedProbe): ReadinessCheck {
  return async () => {
    const services = await probe.check();
    const unreachable = services.filter((c) => !c.reachable).map((c) => c.service);
    return { ready: true, ...(unreachable.length > 0 ? { degraded: unreachable } : {}), services };
  };
}

export function createHealthRoutes(options: HealthOptions): Record<string, RouteHandler> {
  const checks = Object.entries(options.readiness);
  return {
    '/healthz': async (_req, res) => sendJson(res, 200, { status: 'ok' }),
    '/readyz': async (req, res) => {
      const results = await Promise.all(checks.map(([name, check]) => runCheck(check).then((result) => [name, result] as const)));
      const state = options.state?.() ?? { status: 'memory' };
      const body = readinessBody(results, state, options.mode, isLocalRequest(req), options.upstreamApis?.() ?? []);
      return sendJson(res, body.status === 'unavailable' ? 503 : 200, body);
    },
    '/metrics': async (_req, res) => {
      const body = await options.metrics.metrics();
      res.writeHead(200, { 'content-type': options.metrics.contentType });
      res.end(body);
      return 200;
    },
  };
}

/**
 * What `/readyz` answers: the verdict, and which checks failed by name. The failures' own words
 * (a Redis error, an exception's message: internal addresses, host names) only for a request from
 * this machine (`local`): anyone else learns which part is down, not where it lives.
 */
export function readinessBody(
  results: ReadonlyArray<readonly [string, ReadinessResult]>,
  state: StateCheck,
  mode: HealthOptions['mode'],
  local: boolean,
  apis: readonly ApiHealth[] = [],
): Record<string, unknown> & { status: 'ready' | 'degraded' | 'unavailable' } {
  const ready = results.every(([, result]) => result.ready) && state.status !== 'starting';
  // A platform API struggling (breaker not closed, origin not answering) is `degraded`, still ready: no reason to take every replica out of service.
  const degraded = [
    ...new Set([
      ...apis.filter((api) => api.state !== 'closed').map((api) => api.api),
      ...results.flatMap(([, result]) => (result.ready ? (result.degraded ?? []) : [])),
      ...(state.status === 'degraded' ? ['state'] : []),
    ]),
  ];
  const status = !ready ? 'unavailable' : degraded.length > 0 ? 'degraded' : 'ready';
  const breakers = Object.fromEntries(apis.map(({ api, state: s, reason, retryAfter }) => [api, s === 'closed' ? { state: s } : { state: s, reason, retryAfter }]));
  const failed = [...results.filter(([, result]) => !result.ready).map(([name]) => name), ...(state.status === 'starting' || state.status === 'degraded' ? ['state'] : [])];
  const checks = Object.fromEntries(results.map(([name, result]) => [name, local ? result : withoutText(result)]));
  const shownState = local ? state : { status: state.status };
  return { status, mode, ...(failed.length > 0 ? { failed } : {}), ...(degraded.length > 0 ? { degraded } : {}), checks, ...(apis.length > 0 ? { upstreamApis: breakers } : {}), ...(state.status === 'memory' ? {} : { state: shownState }) };
}

/** A check's result without its error text. */
function withoutText(result: ReadinessResult): ReadinessResult {
  const { error: _error, ...rest } = result;
  return rest;
}

/**
 * A request from this machine: a loopback peer that no proxy forwarded (a proxy on the same host
 * connects from loopback too, but says whom it forwards for).
 */
export function isLocalRequest(req: Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string | undefined } }): boolean {
  if (req.headers['forwarded'] !== undefined || req.headers['x-forwarded-for'] !== undefined) return false;
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

async function runCheck(check: ReadinessCheck): Promise<ReadinessResult> {
  try {
    return await check();
  } catch (error) {
    return { ready: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
  return status;
}
