/** What /readyz answers when the platform struggles (src/server/health.ts): degraded and named, never 503 for an upstream. */
import { readinessBody, upstreamReadiness } from '../../../src/server/health';
import type { SharedProbe, UpstreamCheck } from '../../../src/upstream/probe';
import type { ApiHealth } from '../../../src/upstream/health';

const probeOf = (checks: UpstreamCheck[]): SharedProbe => ({ check: () => Promise.resolve(checks) });
const check = (service: UpstreamCheck['service'], reachable: boolean): UpstreamCheck => ({ service, reachable, status: reachable ? 404 : null, latencyMs: 1 });
const closed = (api: ApiHealth['api']): ApiHealth => ({ api, state: 'closed', reason: null, retryAfter: 0 });

describe('/readyz', () => {
  it('an unreachable platform API is degraded, still ready, and named', async () => {
    const upstreams = await upstreamReadiness(probeOf([check('auth-v1', true), check('rest-v1', false)]))();
    const body = readinessBody([['upstreams', upstreams]], { status: 'memory' }, 'upstream', false);
    expect([upstreams.ready, body.status, body['degraded']]).toEqual([true, 'degraded', ['rest-v1']]);
  });

  it("an open breaker is degraded, naming the API and its breaker's state", () => {
    const apis: ApiHealth[] = [closed('auth/v1'), { api: 'rest/v1', state: 'open', reason: 'failures', retryAfter: 1 }, closed('identity/v1')];
    const body = readinessBody([['upstreams', { ready: true }]], { status: 'memory' }, 'upstream', false, apis);
    expect(body).toMatchObject({ status: 'degraded', degraded: ['rest/v1'], upstreamApis: { 'rest/v1': { state: 'open', reason: 'failures', retryAfter: 1 }, 'auth/v1': { state: 'closed' } } });
  });

  it('is unavailable only for the gateway itself (a failing check of its own, the fleet state not reached yet)', () => {
    expect(readinessBody([['upstreams', { ready: true }]], { status: 'starting' }, 'upstream', false).status).toBe('unavailable');
    expect(readinessBody([['own', { ready: false }]], { status: 'memory' }, 'upstream', false).status).toBe('unavailable');
  });
});
