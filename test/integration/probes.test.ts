/**
 * Nothing anonymous costs upstream calls beyond its own request: /readyz and `checkUpstreams`
 * share one probe round (200 concurrent readiness checks cost one request per origin), an
 * anonymous `checkUpstreams` is refused before anything is sent, and an authenticated one counts
 * its requests in the operation's upstream-call budget. The upstream is a fake on a real socket
 * that counts every request it gets (the sandbox logs contract routes only, and a probe hits the
 * services' roots).
 */
import type { RunningGateway } from '../../src/server';
import { json, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { expectErrorCode, expectNoErrors, postGraphQL, startTestGateway, testConfig, type ConfigOverrides } from '../helpers/stack';

const ORIGINS = 4; // auth/v1, rest/v1, identity/v1, core/v2 (no search service configured)

let upstream: FakeUpstream;
const gateways: RunningGateway[] = [];
const logs: string[] = [];

beforeEach(async () => {
  upstream = await startFakeUpstream((_req, res) => json(res, 404, { message: 'no route' }));
  logs.length = 0;
});

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  await upstream.close();
});

async function gateway(overrides: ConfigOverrides = {}): Promise<RunningGateway> {
  const started = await startTestGateway({ ...overrides, upstream: { ...overrides.upstream, baseUrl: upstream.url } }, { log: (line) => logs.push(line) });
  gateways.push(started);
  return started;
}

const readyz = (g: RunningGateway): Promise<Response> => fetch(new URL('/readyz', g.url));

describe('GET /readyz', () => {
  it('200 concurrent checks cost one probe round', async () => {
    const g = await gateway();
    const answers = await Promise.all(Array.from({ length: 200 }, () => readyz(g)));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 200 }, () => 200));
    expect(upstream.requests).toHaveLength(ORIGINS);
    expect(upstream.requests.every((r) => r.method === 'GET' && r.headers.authorization === undefined)).toBe(true);
    const body = (await answers[0]?.json()) as { checks: { upstreams: { services: Array<{ service: string }> } } };
    expect(body).toMatchObject({ status: 'ready', mode: 'upstream', checks: { upstreams: { ready: true } } });
    expect(body.checks.upstreams.services.map((c) => c.service)).toEqual(['auth-v1', 'rest-v1', 'identity-v1', 'core-v2']);
  });

  it('answers from the last round for PROBE_CACHE_MS, then probes again', async () => {
    const g = await gateway({ server: { probeCacheMs: 60_000 } });
    for (let i = 0; i < 5; i++) expect((await readyz(g)).status).toBe(200);
    expect(upstream.requests).toHaveLength(ORIGINS);
    const fresh = await gateway({ server: { probeCacheMs: 0 } });
    upstream.requests.length = 0;
    for (let i = 0; i < 3; i++) await readyz(fresh);
    expect(upstream.requests).toHaveLength(3 * ORIGINS);
  });
});

describe('checkUpstreams', () => {
  const CHECK = 'mutation { checkUpstreams { service reachable } }';
  const aliases = (n: number): string => `mutation { ${Array.from({ length: n }, (_, i) => `c${i}: checkUpstreams { service reachable }`).join(' ')} }`;

  it('is refused without a token, before anything is sent: 40 aliases cost zero upstream calls', async () => {
    const g = await gateway({ server: { probeCacheMs: 0 } });
    const res = await postGraphQL(g.url, aliases(40), undefined, { token: null });
    // The field is non-null: the first refusal nulls the mutation's data and the rest never run.
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.map((e) => e.extensions?.['code'])).toEqual(['UNAUTHENTICATED']);
    expect(upstream.requests).toHaveLength(0);
  });

  it('with a token, probes once per origin and counts the requests it sent', async () => {
    const g = await gateway({ server: { probeCacheMs: 60_000 } });
    const data = expectNoErrors(await postGraphQL(g.url, aliases(40), undefined, { token: 'any' }));
    expect(Object.keys(data)).toHaveLength(40);
    expect(upstream.requests).toHaveLength(ORIGINS);
    const line = logs.map((l) => JSON.parse(l) as { msg?: string; upstreamCalls?: number }).find((l) => l.msg === 'graphql');
    expect(line?.upstreamCalls).toBe(ORIGINS);
    // A readiness check right after is answered by the same round.
    expect((await readyz(g)).status).toBe(200);
    expect(upstream.requests).toHaveLength(ORIGINS);
  });

  it("counts in the operation's upstream-call budget: past it, OPERATION_BUDGET_EXCEEDED and nothing sent", async () => {
    const base = testConfig();
    const g = await gateway({ limits: { ...base.limits, budget: { ...base.limits.budget, upstreamCalls: 2 * ORIGINS + 1 } }, server: { probeCacheMs: 0 } });
    const res = await postGraphQL(g.url, aliases(3), undefined, { token: 'any' });
    // Two rounds fit in the budget; the third is refused before it sends anything.
    expect(expectErrorCode(res, 'OPERATION_BUDGET_EXCEEDED').extensions).toMatchObject({ limit: 'upstreamCalls', max: 2 * ORIGINS + 1 });
    expect(upstream.requests).toHaveLength(2 * ORIGINS);
    // One alone fits.
    expectNoErrors(await postGraphQL(g.url, CHECK, undefined, { token: 'any' }));
  });
});
