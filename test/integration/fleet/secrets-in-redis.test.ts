/**
 * Nothing secret in clear outside the process: two gateways share one Redis while a provisioning
 * runs (its client endpoints get registration keys), both follow a network and an endpoint with a
 * registration key, and a v2 endpoint with an enrollment `jwt`, search runs with the gateway's basic
 * credentials and a persisted query is registered. Everything Redis holds after (every key, of
 * every type) and everything published meanwhile (a pattern subscription on every channel) is
 * searched for the bearer token, the registration keys, the jwt and the search password: none is
 * there. With `FLEET_TOKEN_KEY` values are sealed; without it secret fields are stripped. Either
 * way the replica that only listens still serves each subscriber the secret fields it asks for.
 */
import { randomBytes } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { sha256 } from '../../../src/persisted/trusted-documents';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { startGateway, type RunningGateway } from '../../../src/server';
import { isObject } from '../../../src/core/parse';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { postGraphQL, testConfig } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

/** Every value Redis holds, whatever its type, as text (keys included). */
async function dumpRedis(client: Redis): Promise<{ keys: string[]; text: string }> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'COUNT', '500');
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const parts: string[] = [];
  for (const key of keys) {
    const type = await client.type(key);
    const value =
      type === 'string' ? await client.get(key)
      : type === 'hash' ? await client.hgetall(key)
      : type === 'set' ? await client.smembers(key)
      : type === 'zset' ? await client.zrange(key, '0', '-1', 'WITHSCORES')
      : type === 'list' ? await client.lrange(key, 0, -1)
      : type === 'stream' ? await client.xrange(key, '-', '+')
      : `(${type})`;
    parts.push(`${key} ${JSON.stringify(value)}`);
  }
  return { keys, text: parts.join('\n') };
}

async function rest(sandbox: RunningSandbox, path: string, init: { method?: string; body?: unknown } = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${sandbox.tokens.admin}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body: unknown = await res.json();
  if (!isObject(body)) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body;
}

/** The first event of a subscription on `gateway` (the client stays open until disposed). */
async function firstEvent(clients: Client[], gateway: RunningGateway, token: string, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const client = createClient({ url: gateway.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${token}` } });
  clients.push(client);
  for await (const result of client.iterate({ query, variables }) as AsyncIterable<FormattedExecutionResult<Record<string, unknown>>>) {
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    if (result.data) return result.data;
  }
  throw new Error(`no event for ${query}`);
}

const PROVISION = `mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { id state } }`;
const PROVISIONING = `query($id: ID!) { provisioning(id: $id) { state networkId steps { task resourceId } } }`;
const ENDPOINT_STATUS = `subscription($networkId: UUID, $id: UUID!) { resourceStatus(kind: ENDPOINT, networkId: $networkId, id: $id) { statusName resource { ... on Endpoint { registrationKey } } } }`;
const V2_ENDPOINT_STATUS = `subscription($id: UUID!) { resourceStatus(kind: V2_ENDPOINT, id: $id) { statusName resource { ... on V2Endpoint { jwt } } } }`;
const NETWORK_CHANGES = `subscription($networkId: UUID!) { networkChanges(networkId: $networkId) { added { kind id resource { ... on Endpoint { registrationKey } } } } }`;

describeFleet.each([
  ['with FLEET_TOKEN_KEY (values sealed)', randomBytes(32)],
  ['without FLEET_TOKEN_KEY (secret fields stripped)', null],
])('Redis %s', (_mode, tokenKey) => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  const gateways: RunningGateway[] = [];
  let spy: Redis;
  let client: Redis;
  const clients: Client[] = [];
  const published: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    sandbox = await startSandbox({ port: 0, seed: 'tiny', stepMs: 30 });
    spy = new Redis(redis.url);
    client = new Redis(redis.url);
    spy.on('pmessage', (_pattern: string, channel: string, message: string) => published.push(`${channel} ${message}`));
    await spy.psubscribe('*');
    const config = testConfig({ upstream: { baseUrl: null }, subscriptions: { pollIntervalMs: 50, pollMaxIntervalMs: 100, networkPollIntervalMs: 50, networkPollMaxIntervalMs: 100 } });
    for (let i = 0; i < 2; i++) gateways.push(await startGateway({ ...config, fleet: { ...config.fleet, redisUrl: redis.url, tokenKey } }, { log: null, sandbox }));
  }, 30_000);

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await Promise.all(gateways.map((g) => g.close()));
    spy?.disconnect();
    client?.disconnect();
    await sandbox?.close();
    await redis?.close();
  });

  it('holds and publishes none of them, and the listening replica still serves them', async () => {
    const [a, b] = gateways;
    if (a === undefined || b === undefined) throw new Error('two gateways');
    const token = sandbox.tokens.admin;

    // A provisioning started on one replica, read on the other until it is done: its client endpoints have registration keys.
    const started = await postGraphQL(a.url, PROVISION, {
      input: {
        network: { name: 'secrets' },
        hostedGateway: { name: 'gw-hosted' },
        service: { name: 'intranet', serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
        bridgeGateway: { name: 'gw-bridge' },
        clients: [{ name: 'laptop-1' }],
        appWanName: 'everyone',
      },
    }, { token });
    const id = (started.body.data?.['provisionAppWan'] as { id?: string } | undefined)?.id;
    if (id === undefined) throw new Error(JSON.stringify(started.body));
    interface Provisioning {
      state: string;
      networkId: string | null;
      steps: Array<{ task: string; resourceId: string | null }>;
    }
    let last: string | undefined;
    const done = await waitUntil(
      async () => {
        const result = await postGraphQL(b.url, PROVISIONING, { id }, { token });
        const seen = result.body.data?.['provisioning'] as Provisioning | undefined;
        last = seen?.state;
        return seen?.state === 'SUCCEEDED' ? seen : null;
      },
      () => `the provisioning to succeed (last state: ${String(last)})`,
      { timeoutMs: 20_000, intervalMs: 50 },
    );
    const networkId = done?.networkId ?? null;
    const clientId = done?.steps.find((s) => s.task === 'client')?.resourceId ?? null;
    if (networkId === null || clientId === null) throw new Error(JSON.stringify(done));

    // The secrets as the platform holds them.
    const endpoint = await rest(sandbox, `/rest/v1/networks/${networkId}/endpoints/${clientId}`);
    const registrationKey = endpoint['registrationKey'];
    expect(typeof registrationKey).toBe('string');
    const v2List = await rest(sandbox, '/core/v2/endpoints?size=100');
    const v2Ids = JSON.stringify(v2List).match(/"id":"[0-9a-f-]{36}"/g)?.map((m) => m.slice(6, -1)) ?? [];
    let jwt: { id: string; value: string } | null = null;
    for (const v2Id of v2Ids) {
      const one = await rest(sandbox, `/core/v2/endpoints/${v2Id}`);
      if (typeof one['jwt'] === 'string') {
        jwt = { id: v2Id, value: one['jwt'] };
        break;
      }
    }
    if (jwt === null) throw new Error('the sandbox has a v2 endpoint with an enrollment jwt');

    // Followed on both replicas (one polls and publishes, the other listens): each gets the whole value.
    for (const gateway of [a, b]) {
      const status = await firstEvent(clients, gateway, token, ENDPOINT_STATUS, { networkId, id: clientId });
      expect(status).toMatchObject({ resourceStatus: { resource: { registrationKey } } });
      const v2 = await firstEvent(clients, gateway, token, V2_ENDPOINT_STATUS, { id: jwt.id });
      expect(v2).toMatchObject({ resourceStatus: { resource: { jwt: jwt.value } } });
      const changes = await firstEvent(clients, gateway, token, NETWORK_CHANGES, { networkId });
      const added = (changes['networkChanges'] as { added: Array<{ id: string; resource: { registrationKey?: string | null } }> }).added;
      expect(added.find((r) => r.id === clientId)?.resource.registrationKey).toBe(registrationKey);
    }

    // Search with the gateway's basic credentials, and a persisted query registered by a caller with a token.
    const search = await postGraphQL(a.url, '{ topTalkers { __typename } alerts { __typename } }', undefined, { token });
    expect(search.body.errors).toBeUndefined();
    const doc = '{ gatewayInfo { version } }';
    const res = await fetch(a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: doc, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(doc) } } }),
    });
    expect(res.status).toBe(200);
    // The same without a token: the registration stays in the replica that received it.
    const anonymousDoc = '{ gatewayInfo { searchConfigured } }';
    const anonymous = await fetch(a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: anonymousDoc, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(anonymousDoc) } } }),
    });
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({ data: { gatewayInfo: { searchConfigured: true } } });
    await waitUntil(() => published.some((m) => m.includes(':poll:')), () => 'a poller value published', 5000);

    const dump = await dumpRedis(client);
    // What was looked at is there (the scan can find things): poll keys, the provisioning, the registration.
    expect(dump.keys.some((k) => k.includes(':poll:resourceStatus:'))).toBe(true);
    expect(dump.keys.some((k) => k.includes(`:prov:${id}`))).toBe(true);
    expect(dump.text).toContain(sha256(doc));
    expect(dump.text).not.toContain(sha256(anonymousDoc));
    const everything = `${dump.text}\n${published.join('\n')}`;
    const secrets = {
      token,
      registrationKey: String(registrationKey),
      jwt: jwt.value,
      searchPassword: sandbox.searchCredentials.password,
    };
    for (const [name, secret] of Object.entries(secrets)) expect({ name, found: everything.includes(secret) }).toEqual({ name, found: false });
  }, 60_000);
});
