/** GraphQL over HTTP as the spec and Apollo's CSRF prevention define it, plus health and metrics. */
import { sha256 } from '../../src/persisted/trusted-documents';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const INFO = '{ gatewayInfo { version sandbox searchConfigured } }';

describe('POST /graphql', () => {
  it('answers application/graphql-response+json when the client accepts it', async () => {
    const res = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: INFO }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(await res.json()).toEqual({ data: { gatewayInfo: { version: expect.any(String), sandbox: true, searchConfigured: true } } });
  });

  it('answers application/json to clients that only accept JSON', async () => {
    const res = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: INFO }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('uses the gql helper end to end', async () => {
    const data = expectNoErrors(await stack.gql(INFO));
    expect(data['gatewayInfo']).toMatchObject({ sandbox: true });
  });

  it('refuses a text/plain POST (CSRF prevention) before executing', async () => {
    const res = await fetch(stack.gatewayUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: INFO }) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/CSRF|preflight/i);
  });

  it('answers 400 to a body that is not JSON and to a syntax error', async () => {
    const bad = await fetch(stack.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(bad.status).toBe(400);
    const syntax = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ gatewayInfo { ' }),
    });
    expect(syntax.status).toBe(400);
    expect(await syntax.json()).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const res = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ gatewayInfo { version } } # ${'x'.repeat(1024 * 1024)}` }),
    });
    expect(res.status).toBe(413);
  });
});

describe('input validation before any upstream call', () => {
  it.each([
    ['a literal', '{ network(id: "not-a-uuid") { id } }', undefined],
    ['a variable', 'query($id: UUID!) { network(id: $id) { id } }', { id: 'not-a-uuid' }],
  ])('refuses a malformed UUID in %s with BAD_USER_INPUT and no upstream call', async (_how, query, variables) => {
    stack.sandbox.control.resetCalls();
    const res = await stack.gql(query, variables);
    expect(res.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(res.body.errors?.[0]?.message).toMatch(/UUID/);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('refuses first above 1000 and a forged cursor, naming the argument, with no upstream call', async () => {
    stack.sandbox.control.resetCalls();
    const tooMany = await stack.gql('{ networks(first: 1001) { totalCount } }');
    expect(tooMany.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    const forged = await stack.gql('{ networks(after: "bm90LWEtY3Vyc29y") { totalCount } }');
    expect(forged.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

describe('GET /graphql', () => {
  const url = (query: string): string => `${stack.gatewayUrl}?query=${encodeURIComponent(query)}`;

  it('runs a query with a preflight-requiring header', async () => {
    const res = await fetch(url(INFO), { headers: { 'apollo-require-preflight': 'true', accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { gatewayInfo: { sandbox: true } } });
  });

  it('refuses a GET without a preflight-requiring header (CSRF prevention)', async () => {
    const res = await fetch(url(INFO), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
  });

  it('serves the IDE to browsers (Accept: text/html) with the admin token prefilled in sandbox mode', async () => {
    const res = await fetch(stack.gatewayUrl, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.toLowerCase()).toContain('graphiql');
    expect(html).toContain(stack.tokens.admin);
  });

  it('refuses a mutation over GET with 405', async () => {
    const res = await fetch(url('mutation { checkUpstreams { service } }'), { headers: { 'apollo-require-preflight': 'true', accept: 'application/json' } });
    expect(res.status).toBe(405);
  });

  it('answers a persisted-query miss 200 and uncached, over GET and POST alike, and runs the hash by GET once registered', async () => {
    const query = '{ gatewayInfo { sandbox version } }';
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
    const headers = { 'apollo-require-preflight': 'true', accept: 'application/graphql-response+json' };
    const byGet = await fetch(`${stack.gatewayUrl}?extensions=${encodeURIComponent(extensions)}`, { headers });
    const byPost = await fetch(stack.gatewayUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: `{"extensions":${extensions}}` });
    for (const res of [byGet, byPost]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
      expect(await res.json()).toMatchObject({ errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
    }
    const registered = await fetch(`${stack.gatewayUrl}?query=${encodeURIComponent(query)}&extensions=${encodeURIComponent(extensions)}`, { headers });
    expect(await registered.json()).toMatchObject({ data: { gatewayInfo: { sandbox: true } } });
    const byHash = await fetch(`${stack.gatewayUrl}?extensions=${encodeURIComponent(extensions)}`, { headers });
    expect(byHash.status).toBe(200);
    expect(await byHash.json()).toMatchObject({ data: { gatewayInfo: { sandbox: true } } });
  });

  it("refuses a malformed GET in Apollo Server's words, and logs the refusal with its code", async () => {
    const res = await fetch(`${url(INFO)}&query=${encodeURIComponent(INFO)}`, { headers: { 'apollo-require-preflight': 'true', accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ message: "The 'query' search parameter may only be specified once.", extensions: { code: 'BAD_REQUEST' } }] });
    const line = JSON.parse(stack.logs.filter((l) => l.includes('"msg":"graphql"')).at(-1) ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ transport: 'http', status: 400, errorCodes: ['BAD_REQUEST'], upstreamCalls: 0 });
  });
});

describe('health and metrics', () => {
  it('GET /healthz answers 200', async () => {
    const res = await fetch(`${stack.origin}/healthz`);
    expect(res.status).toBe(200);
  });

  it('GET /readyz answers 200 with each upstream reachable', async () => {
    const res = await fetch(`${stack.origin}/readyz`);
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(body).toMatchObject({ status: 'ready' });
    expect(JSON.stringify(body)).toContain('"rest-v1"');
  });

  it('GET /metrics exposes upstream and request histograms', async () => {
    await stack.gql('mutation { checkUpstreams { service reachable } }');
    const res = await fetch(`${stack.origin}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('netgraph_graphql_request_duration_seconds_count');
    expect(text).not.toContain(stack.tokens.admin);
  });

  it('unknown paths answer 404', async () => {
    expect((await fetch(`${stack.origin}/nope`)).status).toBe(404);
  });
});

describe('checkUpstreams', () => {
  it('reports every upstream reachable against the sandbox', async () => {
    const data = expectNoErrors(await stack.gql('mutation { checkUpstreams { service reachable status latencyMs } }'));
    const checks = data['checkUpstreams'] as Array<{ service: string; reachable: boolean }>;
    expect(checks.map((c) => c.service).sort()).toEqual(['auth-v1', 'core-v2', 'identity-v1', 'rest-v1', 'search']);
    expect(checks.every((c) => c.reachable)).toBe(true);
  });
});
