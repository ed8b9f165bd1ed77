/**
 * Revocation and one token spelt several ways, against the sandbox over real sockets.
 *
 * - A token the platform revokes is refused once its verdict's time is up, even when the platform
 *   marks every answer (the identity check included) `Cache-Control: private, max-age=600`: the
 *   identity check never comes from the HTTP cache, and a cached read is served only while the
 *   token's verdict is current. (The cache's clock is held: only the verdict's time passes.)
 * - An opaque token (not a JWT) spelt `Bearer T`, `bearer T`, `Bearer  T` or ` Bearer T ` is one
 *   caller: one identity, one CALLER_UPSTREAM_CALLS_PER_MINUTE quota, one form sent upstream.
 */
import type { ServerResponse } from 'node:http';
import { ADMIN_IDENTITY_ID } from '../../src/sandbox';
import type { RunningGateway } from '../../src/server';
import { json, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { expectErrorCode, expectNoErrors, postGraphQL, startStack, startTestGateway, testConfig, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

const IDENTITY_ROUTE = 'GET /identity/v1/organization';
const REGIONS = '{ geoRegions { nodes { id name } } }';

describe('a revoked token', () => {
  let stack: Stack;
  const clock = Date.now();
  beforeAll(async () => {
    const base = testConfig();
    // The shortest verdict the setting allows; refusals are not remembered.
    stack = await startStack({ seed: 'tiny', config: { callers: { ...base.callers, verifyTtlMs: 1000, refusedTtlMs: 0 } }, gatewayOptions: { cacheClock: () => clock } });
  });
  afterAll(() => stack.close());

  it('is refused once its verdict is up, though the platform sent max-age on every answer', async () => {
    stack.sandbox.control.setCaching([{ maxAgeS: 600 }]);
    const token = stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, purpose: 'revocation' });
    const reserve = (): Promise<Response> => fetch(stack.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
    const first = expectNoErrors(await stack.gql(REGIONS, undefined, { token }));
    // A second read is the cache's (max-age 600); a reservation verifies the token.
    expect(expectNoErrors(await stack.gql(REGIONS, undefined, { token }))).toEqual(first);
    expect((await reserve()).status).toBe(201);
    expect(stack.sandbox.control.calls().byRoute['GET /rest/v1/geoRegions']).toBe(1);

    stack.sandbox.tokenService.revoke(token);
    // Within CALLER_VERIFY_TTL_MS the token may still read what is cached; past it, nothing.
    const refused = await waitUntil(async () => {
      const result = await stack.gql(REGIONS, undefined, { token });
      return result.body.errors?.some((e) => e.extensions?.['code'] === 'UNAUTHENTICATED') === true ? result : null;
    }, 'the revoked token refused a cached read');
    expect(refused.body.data?.['geoRegions'] ?? null).toBeNull();
    // The identity check went to the platform each time it was asked (never answered from the cache).
    await waitUntil(async () => (await reserve()).status === 401, 'the revoked token refused a reservation');
    expect(stack.sandbox.control.calls().byRoute[IDENTITY_ROUTE]).toBeGreaterThanOrEqual(2);
    // Another token of the same person, not revoked, still reads the cached copy of its own.
    expectNoErrors(await stack.gql(REGIONS));
  });
});

describe('one opaque token spelt four ways', () => {
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  const SPELLINGS = ['Bearer opaque-T', 'bearer opaque-T', 'Bearer  opaque-T', ' Bearer opaque-T '];

  beforeAll(async () => {
    // A platform that accepts any token of the one organization (the sandbox signs JWTs only).
    upstream = await startFakeUpstream((req, res: ServerResponse) => {
      if (req.url.endsWith('/identity/v1/organization')) return json(res, 200, { id: 'org-opaque', name: 'Opaque' });
      return json(res, 404, { message: 'not here' });
    });
    // The quota's windows are the clock's minutes: held inside one, no minute ends mid-test.
    gateway = await startTestGateway({ upstream: { baseUrl: upstream.url }, limits: { callerUpstreamCallsPerMinute: 3 } }, { quotaClock: () => Date.UTC(2026, 0, 1, 12, 0, 30) });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('is one caller: one quota, one identity, one form sent upstream', async () => {
    const ask = (authorization: string) => postGraphQL(gateway.url, '{ myOrganization { id } }', undefined, { token: null, headers: { authorization } });
    // Three calls of the quota, each with another spelling: all answered.
    // Each spelling verified first, as a reservation would: one identity for all four.
    // (myOrganization reads the identity check's own URL: verified inside its quota charge, the
    // check would wait on the read it is charging, in flight with the same credential.)
    const identities = await Promise.all(SPELLINGS.map((s) => gateway.verifier.verify(s)));
    expect(new Set(identities.map((i) => i.key)).size).toBe(1);
    for (const spelling of SPELLINGS.slice(0, 3)) expect(expectNoErrors(await ask(spelling))).toEqual({ myOrganization: { id: 'org-opaque' } });
    // The fourth spelling is the same caller: its quota is spent.
    expectErrorCode(await ask(SPELLINGS[3] ?? ''), 'RATE_LIMITED');
    // The platform saw one spelling only.
    expect(new Set(upstream.requests.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer opaque-T']));
  });

  it("answers a never-verified token's read of the identity check's own URL (the check never joins the read it is charged for)", async () => {
    const res = await postGraphQL(gateway.url, '{ myOrganization { id } }', undefined, { token: null, headers: { authorization: 'Bearer never-seen-T' } });
    expect(expectNoErrors(res)).toEqual({ myOrganization: { id: 'org-opaque' } });
  });
});
