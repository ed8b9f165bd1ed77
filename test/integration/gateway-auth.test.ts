/**
 * The caller's Authorization reaches the upstream untouched, the search service gets only basic
 * credentials, tokens never appear in logs, field errors leave other fields intact, and a
 * disconnecting client cancels its upstream calls.
 */
import type { RunningGateway } from '../../src/server';
import { json, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { expectErrorAt, postGraphQL, startStack, startTestGateway, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';


describe('against a scripted upstream', () => {
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  const logs: string[] = [];
  const aborted: string[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream((req, res) => {
      if (req.url.startsWith('/slow')) {
        res.on('close', () => {
          if (!res.writableFinished) aborted.push(req.url);
        });
        // Later than any wait of the test: only a cancelled call closes before it.
        setTimeout(() => json(res, 200, {}), 25_000).unref();
        return;
      }
      json(res, 200, { id: 'org-1', name: 'Acme' });
    });
    gateway = await startTestGateway({ upstream: { baseUrl: upstream.url, searchUrl: `${upstream.url}/search`, searchUsername: 'svc', searchPassword: 's3cret' } }, { log: (line) => logs.push(line) });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('forwards the Authorization header with its token byte for byte, the Bearer scheme and spacing in one spelling', async () => {
    const sent: Array<[string, string]> = [
      ['Bearer aaa.bbb.ccc', 'Bearer aaa.bbb.ccc'],
      ['bearer  MixedCase-Token_01', 'Bearer MixedCase-Token_01'],
      [' Token xyz ', 'Token xyz'],
    ];
    for (const [authorization, forwarded] of sent) {
      upstream.requests.length = 0;
      const res = await postGraphQL(gateway.url, '{ myOrganization { id } }', undefined, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(upstream.requests.length).toBeGreaterThan(0);
      for (const seen of upstream.requests) expect(seen.headers.authorization).toBe(forwarded);
    }
  });

  it('sends no Authorization when the caller sends none', async () => {
    upstream.requests.length = 0;
    await postGraphQL(gateway.url, '{ myOrganization { id } }', undefined, {});
    expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('never writes a token into the request log', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb2cifQ.c2VjcmV0LXNpZ25hdHVyZQ';
    logs.length = 0;
    await postGraphQL(gateway.url, 'query Org { myOrganization { id } }', undefined, { token });
    // One JSON line per request (pino): request id, operation, duration, upstream calls, error codes.
    const lines = logs.map((l) => JSON.parse(l) as { operationName?: string; upstreamCalls?: number; requestId?: string; durationMs?: number; level?: string });
    expect(lines.some((l) => l.operationName === 'Org' && (l.upstreamCalls ?? 0) > 0 && typeof l.requestId === 'string' && typeof l.durationMs === 'number' && l.level === 'info')).toBe(true);
    expect(logs.join('\n')).not.toContain(token);
    expect(logs.join('\n')).not.toContain('s3cret');
  });

  it('aborts the upstream call when the client disconnects', async () => {
    // A gateway whose base URL sits under /slow, where the scripted upstream never answers in time.
    // Its own timeouts longer than the upstream's answer, so only the client's going away can cancel the call.
    const slowGateway = await startTestGateway({ upstream: { baseUrl: `${upstream.url}/slow`, headersTimeoutMs: 60_000, bodyTimeoutMs: 60_000 } });
    try {
      const controller = new AbortController();
      const request = fetch(slowGateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ myOrganization { id } }' }),
        signal: controller.signal,
      }).catch(() => 'aborted');
      await waitUntil(() => upstream.requests.some((r) => r.url.startsWith('/slow')), 'the call at the upstream');
      controller.abort();
      expect(await request).toBe('aborted');
      // Its request closed before the upstream answered: the gateway cancelled it.
      await waitUntil(() => aborted.length > 0, 'the upstream call cancelled');
      expect(aborted).toHaveLength(1);
    } finally {
      await slowGateway.close();
    }
  });
});

describe('against the sandbox', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('gives UNAUTHENTICATED on the field that needed the upstream, with the rest of the data intact', async () => {
    const res = await stack.gql('{ gatewayInfo { sandbox } myOrganization { id } }', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ gatewayInfo: { sandbox: true }, myOrganization: null });
    const error = expectErrorAt(res, ['myOrganization'], 'UNAUTHENTICATED');
    expect(error.extensions?.['upstream']).toMatchObject({ service: 'identity-v1', method: 'GET', status: 401 });
  });

  it('never serves one caller what was fetched with another caller token', async () => {
    const [admin, anonymous] = await Promise.all([
      stack.gql('{ myOrganization { id } }'),
      stack.gql('{ myOrganization { id } }', undefined, { token: null }),
    ]);
    expect(admin.body.data).toEqual({ myOrganization: { id: expect.any(String) } });
    expectErrorAt(anonymous, ['myOrganization'], 'UNAUTHENTICATED');
    const again = await stack.gql('{ myOrganization { id } }', undefined, { token: null });
    expectErrorAt(again, ['myOrganization'], 'UNAUTHENTICATED');
  });

  it('logs one line per request with operation, calls and error codes, never the token', async () => {
    stack.logs.length = 0;
    await stack.gql('query Mine { myOrganization { id } }', undefined, { token: stack.tokens.reader });
    await stack.gql('query Anon { myOrganization { id } }', undefined, { token: null });
    expect(stack.logs).toHaveLength(2);
    expect(JSON.parse(stack.logs[1] ?? '')).toMatchObject({ msg: 'graphql', transport: 'http', operationName: 'Anon', upstreamCalls: 1, errorCodes: ['UNAUTHENTICATED'] });
    const all = stack.logs.join('\n');
    for (const token of Object.values(stack.tokens)) expect(all).not.toContain(token);
  });
});

describe('with the upstream down', () => {
  it('answers /readyz 200 degraded, naming the APIs it cannot reach, and UPSTREAM_UNAVAILABLE on fields', async () => {
    const dead = await startFakeUpstream((_req, res) => json(res, 200, {}));
    const deadUrl = dead.url;
    await dead.close();
    const gateway = await startTestGateway({ upstream: { baseUrl: deadUrl } });
    try {
      const ready = await fetch(new URL('/readyz', gateway.url));
      // The platform's outage is no reason for an orchestrator to take the gateway out of service.
      expect(ready.status).toBe(200);
      const readiness = (await ready.json()) as { status: string; degraded?: string[] };
      expect(readiness.status).toBe('degraded');
      expect(readiness.degraded?.length).toBeGreaterThan(0);
      const res = await postGraphQL(gateway.url, '{ gatewayInfo { sandbox } myOrganization { id } }', undefined, { token: 'x' });
      expect(res.body.data).toEqual({ gatewayInfo: { sandbox: false }, myOrganization: null });
      expectErrorAt(res, ['myOrganization'], 'UPSTREAM_UNAVAILABLE');
      expect((await fetch(new URL('/healthz', gateway.url))).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
