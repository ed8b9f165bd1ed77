/**
 * Methods and content types on every door: a mutation sent by GET, and a POST a web page could
 * forge cross-site (`text/plain; x=application/json`, a form), are refused by the SSE door exactly
 * as `/graphql` refuses them (status, code), with no upstream call; and a persisted-query hash is
 * exactly 64 lowercase hex digits on every door (an upper-case or prefixed one once found a
 * registered mutation and ran it over GET).
 */
import { sha256 } from '../../src/persisted/trusted-documents';
import { startStack, type Stack } from '../helpers/stack';
import { firstAnswerErrors } from '../helpers/subscriptions';

const MUTATION = 'mutation { createNetwork(input: { name: "never-by-get" }) { accepted } }';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

interface Seen {
  status: number;
  allow: string | null;
  codes: unknown[];
}

async function seen(res: Response): Promise<Seen> {
  const text = await res.text();
  const body = (text.startsWith('{') ? JSON.parse(text) : {}) as { errors?: Array<{ extensions?: { code?: unknown } }> };
  return { status: res.status, allow: res.headers.get('allow'), codes: (body.errors ?? []).map((e) => e.extensions?.code) };
}

function url(path: string, params: Record<string, unknown>): string {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return `${stack.origin}${path}?${search.toString()}`;
}

const auth = (): Record<string, string> => ({ authorization: `Bearer ${stack.tokens.admin}` });
const DOORS = { http: '/graphql', sse: '/graphql/stream' } as const;

/** Sends the same request to /graphql and to /graphql/stream: both answers, and the upstream calls both made. */
async function onBoth(request: (path: string) => Promise<Response>): Promise<{ http: Seen; sse: Seen; calls: number }> {
  const before = stack.sandbox.control.calls().total;
  const http = await seen(await request(DOORS.http));
  const sse = await seen(await request(DOORS.sse));
  return { http, sse, calls: stack.sandbox.control.calls().total - before };
}

describe('a mutation sent by GET', () => {
  it('is refused by the SSE door as by /graphql: 405, Allow: POST, BAD_REQUEST, nothing sent upstream', async () => {
    const { http, sse, calls } = await onBoth((path) =>
      fetch(url(path, { query: MUTATION }), { headers: { ...auth(), accept: path === DOORS.sse ? 'text/event-stream' : 'application/graphql-response+json', 'apollo-require-preflight': 'true' } }),
    );
    expect(http).toEqual({ status: 405, allow: 'POST', codes: ['BAD_REQUEST'] });
    expect(sse).toEqual(http);
    expect(calls).toBe(0);
  });

  it('leaves queries and subscriptions by GET to the SSE door', async () => {
    const res = await fetch(url(DOORS.sse, { query: '{ gatewayInfo { sandbox } }' }), { headers: { ...auth(), accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"sandbox":true');
  });
});

describe.each([
  ['text/plain; x=application/json', JSON.stringify({ query: MUTATION })],
  ['text/plain', JSON.stringify({ query: MUTATION })],
  ['application/x-www-form-urlencoded', `query=${encodeURIComponent(MUTATION)}`],
  ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="query"\r\n\r\n${MUTATION}\r\n--x--\r\n`],
])('a POST with the simple content type %s', (contentType, body) => {
  it('is refused by the SSE door as by /graphql (400, BAD_REQUEST), nothing sent upstream', async () => {
    const { http, sse, calls } = await onBoth((path) => fetch(`${stack.origin}${path}`, { method: 'POST', headers: { ...auth(), 'content-type': contentType, accept: 'application/graphql-response+json' }, body }));
    expect(http).toEqual({ status: 400, allow: null, codes: ['BAD_REQUEST'] });
    expect(sse).toEqual(http);
    expect(calls).toBe(0);
  });
});

describe('a persisted-query hash not spelt as 64 lowercase hex digits', () => {
  const hash = sha256(MUTATION);
  const spellings = [hash.toUpperCase(), `sha256:${hash}`, `X${hash.toUpperCase()}`];

  beforeAll(async () => {
    // The mutation registered, as a client would, with the right spelling (its answer does not matter here).
    const registered = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: MUTATION, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
    });
    expect(registered.status).toBe(200);
  });

  it.each(spellings)('%s names no document by hash alone, over GET and POST on /graphql, nothing sent upstream', async (spelling) => {
    const before = stack.sandbox.control.calls().total;
    const extensions = { persistedQuery: { version: 1, sha256Hash: spelling } };
    const byGet = await seen(await fetch(url(DOORS.http, { extensions }), { headers: { ...auth(), 'apollo-require-preflight': 'true', accept: 'application/graphql-response+json' } }));
    const byPost = await seen(await fetch(stack.gatewayUrl, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ extensions }) }));
    expect(byGet.codes).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(byPost).toEqual(byGet);
    expect(stack.sandbox.control.calls().total).toBe(before);
  });

  it.each(spellings)('%s with its document is refused on /graphql, SSE and WebSocket alike', async (spelling) => {
    const request = { query: MUTATION, extensions: { persistedQuery: { version: 1, sha256Hash: spelling } } };
    const post = (path: string): Promise<Response> => fetch(`${stack.origin}${path}`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: path === DOORS.sse ? 'text/event-stream' : 'application/graphql-response+json' }, body: JSON.stringify(request) });
    const { http, sse, calls } = await onBoth(post);
    expect(http).toEqual({ status: 400, allow: null, codes: ['BAD_REQUEST'] });
    expect(sse).toEqual(http);
    expect(calls).toBe(0);
    expect((await firstAnswerErrors(stack.wsUrl, stack.tokens.admin, request)).map((e) => e['code'])).toEqual(http.codes);
  });

  it('the exact spelling finds the registered mutation, and GET still refuses it (405)', async () => {
    const before = stack.sandbox.control.calls().total;
    const res = await seen(await fetch(url(DOORS.http, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }), { headers: { ...auth(), 'apollo-require-preflight': 'true', accept: 'application/graphql-response+json' } }));
    expect(res).toEqual({ status: 405, allow: 'POST', codes: ['BAD_REQUEST'] });
    expect(stack.sandbox.control.calls().total).toBe(before);
  });
});
