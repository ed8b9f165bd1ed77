/**
 * A retry never creates twice, over real sockets: the sandbox holds the platform's answer to a
 * create (latency on POST …/endpoints) while the client retries with the same key; what is
 * counted is the creates the platform received (its call log), what is compared is the id each
 * answer carries. On every door (HTTP header and extension, WebSocket, SSE, MCP), and through a
 * second replica sharing Redis.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Client as WsClient } from 'graphql-ws';
import { startInProcessFleet, type InProcessFleet } from '../helpers/in-process-fleet';
import { connectMcp } from '../helpers/mcp';
import { redisTestsEnabled } from '../helpers/redis-server';
import { postGraphQL, startStack, type GqlResult, type Stack } from '../helpers/stack';
import { Clients, type Result } from '../helpers/subscriptions';
import { waitUntil } from '../helpers/wait';

const CREATE = 'mutation Create($n: UUID!, $name: String!) { createEndpoint(networkId: $n, input: { name: $name, endpointType: "ZTCL" }) { id } }';

let stack: Stack;
const clients = new Clients(() => stack);
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
});
afterAll(async () => {
  await clients.disposeAll();
  await stack.close();
});
afterEach(() => stack.sandbox.control.clearFaults());

/** Creates of endpoints the platform received. */
function endpointPosts(s: Pick<Stack, 'sandbox'>): number {
  return Object.entries(s.sandbox.control.calls().byRoute)
    .filter(([route]) => route.startsWith('POST ') && route.endsWith('/endpoints'))
    .reduce((sum, [, n]) => sum + n, 0);
}

const networkId = (s: Pick<Stack, 'sandbox'>): string => {
  const network = s.sandbox.restFacts().networks[0];
  if (!network) throw new Error('the seed has no network');
  return network.id;
};

/** The platform holds its answer to every create for a while: a client's retry arrives meanwhile. */
function holdCreates(s: Pick<Stack, 'sandbox'>, latencyMs = 1500): void {
  s.sandbox.control.setFaults([{ method: 'POST', route: '/rest/v1/networks/*/endpoints', latencyMs }]);
}

async function post(variables: Record<string, unknown>, key?: string, extensionKey?: unknown, token = stack.tokens.admin): Promise<GqlResult & { replayed: string | null }> {
  const res = await fetch(stack.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ query: CREATE, variables, ...(extensionKey !== undefined ? { extensions: { idempotencyKey: extensionKey } } : {}) }),
  });
  const body = (await res.json()) as GqlResult['body'] & { extensions?: Record<string, unknown> };
  return { status: res.status, body, request: { query: CREATE, variables }, replayed: res.headers.get('idempotent-replayed') };
}

const idOf = (res: { body: { data?: Record<string, unknown> | null } }): unknown => (res.body.data?.['createEndpoint'] as { id?: unknown } | null | undefined)?.id;
const codeOf = (res: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }): unknown => res.body.errors?.[0]?.extensions?.['code'];

describe('over HTTP', () => {
  it('a retry while the platform still holds the first create gets the first id, marked replayed: one POST', async () => {
    holdCreates(stack);
    stack.sandbox.control.resetCalls();
    const key = randomUUID();
    const variables = { n: networkId(stack), name: `retry-${key.slice(0, 8)}` };
    const first = post(variables, key);
    await waitUntil(() => endpointPosts(stack) === 1, 'the first create reached the platform');
    const retry = await post(variables, key);
    const original = await first;
    expect(endpointPosts(stack)).toBe(1);
    expect(idOf(original)).toEqual(expect.any(String));
    expect({ id: idOf(retry), replayed: retry.replayed, mark: (retry.body as { extensions?: Record<string, unknown> }).extensions?.['idempotentReplayed'] }).toEqual({ id: idOf(original), replayed: 'true', mark: true });
    expect(original.replayed).toBeNull();
  });

  it('five identical concurrent requests with one key: one POST, one id', async () => {
    holdCreates(stack, 500);
    stack.sandbox.control.resetCalls();
    const key = randomUUID();
    const variables = { n: networkId(stack), name: `burst-${key.slice(0, 8)}` };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(variables, key)));
    expect(endpointPosts(stack)).toBe(1);
    expect(new Set(answers.map(idOf)).size).toBe(1);
    expect(answers.filter((a) => a.replayed === 'true')).toHaveLength(4);
  });

  it('another token of the same person repeating the key gets no data of the first answer (409 otherCredential), and no second POST', async () => {
    const claims: unknown = JSON.parse(Buffer.from(stack.tokens.admin.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const sub = typeof claims === 'object' && claims !== null && 'sub' in claims && typeof claims.sub === 'string' ? claims.sub : null;
    if (sub === null) throw new Error('the demo token has no sub');
    // Same person, down-scoped to one network: the platform would refuse it others.
    const narrow = stack.sandbox.tokenService.sign({ sub, networkIds: [networkId(stack)] }, 3600);
    const key = randomUUID();
    const variables = { n: networkId(stack), name: `cred-${key.slice(0, 8)}` };
    stack.sandbox.control.resetCalls();
    const first = await post(variables, key);
    const other = await post(variables, key, undefined, narrow);
    expect(idOf(first)).toEqual(expect.any(String));
    expect({ status: other.status, code: codeOf(other), data: other.body.data ?? null, posts: endpointPosts(stack) }).toEqual({ status: 409, code: 'IDEMPOTENCY_OUTCOME_UNKNOWN', data: null, posts: 1 });
    expect(JSON.stringify(other.body)).not.toContain(String(idOf(first)));
    // The first token is still given its answer.
    const again = await post(variables, key);
    expect({ id: idOf(again), replayed: again.replayed }).toEqual({ id: idOf(first), replayed: 'true' });
  });

  it('the key with other variables is IDEMPOTENCY_KEY_REUSED (422), with no call', async () => {
    const key = randomUUID();
    await post({ n: networkId(stack), name: `a-${key.slice(0, 8)}` }, key);
    stack.sandbox.control.resetCalls();
    const reused = await post({ n: networkId(stack), name: `b-${key.slice(0, 8)}` }, key);
    expect({ status: reused.status, code: codeOf(reused), calls: stack.sandbox.control.calls().total }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED', calls: 0 });
  });

  it('the key in extensions.idempotencyKey is the same key as the header', async () => {
    const key = randomUUID();
    const variables = { n: networkId(stack), name: `ext-${key.slice(0, 8)}` };
    stack.sandbox.control.resetCalls();
    const first = await post(variables, undefined, key);
    const again = await post(variables, key);
    expect(endpointPosts(stack)).toBe(1);
    expect({ id: idOf(again), replayed: again.replayed }).toEqual({ id: idOf(first), replayed: 'true' });
    const conflict = await post(variables, key, 'another-key');
    expect({ status: conflict.status, code: codeOf(conflict) }).toEqual({ status: 400, code: 'BAD_USER_INPUT' });
  });

  it('without a key nothing changes: two creates are two POSTs', async () => {
    stack.sandbox.control.resetCalls();
    const n = networkId(stack);
    const one = await post({ n, name: `plain-1-${randomUUID().slice(0, 8)}` });
    const two = await post({ n, name: `plain-2-${randomUUID().slice(0, 8)}` });
    expect(endpointPosts(stack)).toBe(2);
    expect(idOf(one)).not.toEqual(idOf(two));
    expect([one.replayed, two.replayed]).toEqual([null, null]);
  });

  it('a bad key (256 characters, a control character) is BAD_USER_INPUT, with no call', async () => {
    stack.sandbox.control.resetCalls();
    const variables = { n: networkId(stack), name: 'never-created' };
    const long = await post(variables, 'k'.repeat(256));
    const control = await post(variables, undefined, 'bad\u0001key');
    expect([codeOf(long), codeOf(control)]).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('a query ignores the key', async () => {
    const res = await postGraphQL(stack.gatewayUrl, '{ networks { totalCount } }', undefined, { token: stack.tokens.admin, headers: { 'idempotency-key': 'k'.repeat(300) } });
    expect(res.body.errors).toBeUndefined();
  });

  it('provisionAppWan retried with its key gives the same provisioning, and its network is created once', async () => {
    const key = randomUUID();
    const input = {
      network: { name: `idem-${key.slice(0, 8)}` },
      hostedGateway: { name: 'gw-hosted' },
      service: { name: 'intranet', serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
      bridgeGateway: { name: 'gw-bridge' },
      clients: [{ name: 'laptop-1' }],
      appWanName: 'everyone',
    };
    const START = 'mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { id } }';
    stack.sandbox.control.resetCalls();
    const send = (): Promise<GqlResult> => postGraphQL(stack.gatewayUrl, START, { input }, { token: stack.tokens.admin, headers: { 'idempotency-key': key } });
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    const id = (res: GqlResult): unknown => (res.body.data?.['provisionAppWan'] as { id?: unknown } | undefined)?.id;
    expect(id(first)).toEqual(expect.any(String));
    expect([id(second), id(third)]).toEqual([id(first), id(first)]);
    const done = await waitUntil(async () => {
      const res = await stack.gql('query($id: ID!) { provisioning(id: $id) { state } }', { id: id(first) });
      const state = (res.body.data?.['provisioning'] as { state?: string } | undefined)?.state;
      return state === 'SUCCEEDED' || state === 'FAILED' ? state : null;
    }, 'the provisioning finished');
    expect(done).toBe('SUCCEEDED');
    expect(stack.sandbox.control.calls().byRoute['POST /rest/v1/networks']).toBe(1);
  }, 60_000);
});

describe('over WebSocket and SSE', () => {
  async function viaWs(client: WsClient, variables: Record<string, unknown>, key: string): Promise<Result> {
    for await (const result of client.iterate({ query: CREATE, variables, extensions: { idempotencyKey: key } })) return result;
    throw new Error('no result');
  }

  it('the same key over WebSocket, then SSE, then HTTP: one POST, one id, the repeats replayed', async () => {
    holdCreates(stack, 800);
    stack.sandbox.control.resetCalls();
    const key = randomUUID();
    const variables = { n: networkId(stack), name: `doors-${key.slice(0, 8)}` };
    const ws = clients.ws();
    const first = viaWs(ws, variables, key);
    await waitUntil(() => endpointPosts(stack) === 1, 'the first create reached the platform');
    const sse = clients.sse();
    const overSse = new Promise<Result>((resolve, reject) => {
      sse.subscribe({ query: CREATE, variables, extensions: { idempotencyKey: key } }, { next: (value) => resolve(value as Result), error: reject, complete: () => undefined });
    });
    const [a, b] = await Promise.all([first, overSse]);
    const c = await post(variables, key);
    expect(endpointPosts(stack)).toBe(1);
    const ids = [a, b].map((r) => (r.data?.['createEndpoint'] as { id?: unknown } | undefined)?.id);
    expect([...ids, idOf(c)]).toEqual([ids[0], ids[0], ids[0]]);
    const replayed = (r: Result): unknown => (r.extensions as Record<string, unknown> | undefined)?.['idempotentReplayed'];
    expect([replayed(a), replayed(b), c.replayed]).toEqual([undefined, true, 'true']);
    const reused = await viaWs(ws, { ...variables, name: 'other' }, key);
    expect(reused.errors?.[0]?.extensions?.['code']).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(endpointPosts(stack)).toBe(1);
  });
});

describe('over MCP', () => {
  it('a mutation tool retried with its idempotencyKey replays: one POST', async () => {
    const mcp = await connectMcp(stack.origin, stack.tokens.admin);
    try {
      const tools = await mcp.listTools();
      const authorize = tools.tools.find((t) => t.name === 'authorize_endpoints');
      expect(authorize?.inputSchema.properties?.['idempotencyKey']).toMatchObject({ type: 'string', maxLength: 255 });
      const network = stack.sandbox.restFacts().networks.find((n) => n.appWanIds.length > 0 && n.endpointIds.length > 0);
      const [appWanId, endpointId] = [network?.appWanIds[0], network?.endpointIds[0]];
      if (!network || !appWanId || !endpointId) throw new Error('the seed lacks a network with an AppWAN and an endpoint');
      stack.sandbox.control.resetCalls();
      const key = randomUUID();
      const args = { networkId: network.id, appWanId, endpointIds: [endpointId], idempotencyKey: key };
      const first = await mcp.callTool({ name: 'authorize_endpoints', arguments: args });
      const retry = await mcp.callTool({ name: 'authorize_endpoints', arguments: args });
      const posts = Object.entries(stack.sandbox.control.calls().byRoute).filter(([route]) => route.startsWith('POST ')).reduce((sum, [, n]) => sum + n, 0);
      expect(posts).toBe(1);
      expect(retry.structuredContent).toEqual(first.structuredContent);
      expect(JSON.stringify(retry.content)).toContain('replayed');
      expect(JSON.stringify(first.content)).not.toContain('replayed');
    } finally {
      await mcp.close();
    }
  });
});

(redisTestsEnabled() ? describe : describe.skip)('through two replicas sharing Redis', () => {
  let fleet: InProcessFleet;
  beforeAll(async () => {
    fleet = await startInProcessFleet(2, { tokenKey: randomBytes(32) });
  }, 60_000);
  afterAll(() => fleet.close());

  it('a retry through the other replica while the first is held gets the first id: one POST', async () => {
    const [one, two] = fleet.gateways;
    if (!one || !two) throw new Error('two replicas');
    holdCreates(fleet, 1500);
    fleet.sandbox.control.resetCalls();
    const key = randomUUID();
    const variables = { n: networkId(fleet), name: `fleet-${key.slice(0, 8)}` };
    const headers = { 'idempotency-key': key };
    const token = fleet.sandbox.tokens.admin;
    const first = postGraphQL(one.url, CREATE, variables, { token, headers });
    await waitUntil(() => endpointPosts(fleet) === 1, 'the first create reached the platform');
    const retry = await postGraphQL(two.url, CREATE, variables, { token, headers });
    const original = await first;
    expect(endpointPosts(fleet)).toBe(1);
    expect(idOf(original)).toEqual(expect.any(String));
    expect(idOf(retry)).toEqual(idOf(original));
    expect((retry.body as { extensions?: Record<string, unknown> }).extensions?.['idempotentReplayed']).toBe(true);
    const reused = await postGraphQL(two.url, CREATE, { ...variables, name: 'other' }, { token, headers });
    expect({ status: reused.status, code: codeOf(reused) }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(endpointPosts(fleet)).toBe(1);
  }, 60_000);
});
