/**
 * A root field fetched by ids from its arguments starts the selected child loads alongside its
 * own call (`prefetchChildren`, src/resolvers/lookahead.ts): `network(id:)` its lists,
 * `endpoint(networkId:, id:)` its member lists and network. Each prefetched call is the one the
 * child's resolver makes (same path, page, size and sort), so it is sent once. The schema runs
 * in-process over a fake HttpClient that holds the root record until the test releases it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { inProcessContext } from '../../helpers/context';
import { resolvers } from '../../../src/resolvers';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { UpstreamError } from '../../../src/errors/codes';

const root = join(__dirname, '../../..');
const typeDefs = readdirSync(join(root, 'schema'))
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => readFileSync(join(root, 'schema', f), 'utf8'));
const schema = makeExecutableSchema({ typeDefs, resolvers });

const NET = '11111111-1111-4111-8111-111111111111';
const EP = '22222222-2222-4222-8222-222222222222';
const network = { id: NET, name: 'net', status: 300 };
const endpoint = { id: EP, name: 'ep', networkId: NET, status: 300 };
const appWan = { id: '33333333-3333-4333-8333-333333333333', name: 'aw', networkId: NET, status: 300 };
const service = { id: '44444444-4444-4444-8444-444444444444', name: 'svc', serviceClass: 'CS', networkId: NET, endpointId: EP };
const ok = (body: unknown): UpstreamResponse => ({ status: 200, headers: {}, body, text: JSON.stringify(body) });
const list = (key: string, items: unknown[], req: UpstreamRequest) => ({
  _embedded: { [key]: items },
  page: { number: Number(req.query?.['page'] ?? 0), size: Number(req.query?.['size'] ?? 20), totalElements: items.length, totalPages: 1 },
});

/** rest/v1 with one network; the records at `held` paths wait for `open()`. */
class HeldRecords implements HttpClient {
  readonly sent: string[] = [];
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly held: readonly string[]) {}

  async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const query = Object.entries(req.query ?? {}).map(([k, v]) => `${k}=${String(v)}`).join('&');
    this.sent.push(`${req.method} ${req.path}${query === '' ? '' : `?${query}`}`);
    if (this.held.includes(req.path)) await this.gate;
    const p = req.path;
    if (p === `/networks/${NET}`) return ok(network);
    if (p === `/networks/${NET}/endpoints/${EP}`) return ok(endpoint);
    if (p === `/networks/${NET}/endpoints`) return ok(list('endpoints', [endpoint], req));
    if (p === `/networks/${NET}/appWans`) return ok(list('appWans', [appWan], req));
    if (p === `/networks/${NET}/endpoints/${EP}/appWans`) return ok({ _embedded: { appWans: [appWan] } });
    if (p === `/networks/${NET}/endpoints/${EP}/services`) return ok({ _embedded: { services: [service] } });
    throw new UpstreamError('NOT_FOUND', 'not found', { service: 'rest-v1', method: 'GET', path: p, status: 404 });
  }

  open(): void {
    this.release();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function run(source: string, variables: Record<string, unknown>, held: string[], batching = true) {
  const http = new HeldRecords(held);
  const result = graphql({ schema, source, variableValues: variables, contextValue: inProcessContext(http, { batching }) });
  await settle();
  const beforeRecord = [...http.sent].sort();
  http.open();
  const { data, errors } = await result;
  return { beforeRecord, all: [...http.sent].sort(), data, errors };
}

const NETWORK_QUERY = `query ($id: UUID!, $n: Int) {
  network(id: $id) {
    name
    endpoints(first: $n, sort: [{ field: "name", direction: DESC }]) { totalCount nodes { name } }
    ... on Network { few: endpoints(first: 1) { totalCount } }
    ...lists
  }
}
fragment lists on Network { appWans { nodes { name } } }`;

it('network(id:) sends its selected lists (variables, defaults, aliases, fragments) before the network answers, each once', async () => {
  const got = await run(NETWORK_QUERY, { id: NET, n: 5 }, [`/networks/${NET}`]);
  expect(got.errors).toBeUndefined();
  expect(got.beforeRecord).toEqual([
    `GET /networks/${NET}`,
    `GET /networks/${NET}/appWans?page=0&size=100`,
    // Endpoint lists are asked in an explicit total order (list-order.ts): creation order by default, id last.
    `GET /networks/${NET}/endpoints?page=0&size=1&sort=createdAt,ASC,id,ASC`,
    `GET /networks/${NET}/endpoints?page=0&size=5&sort=name,DESC,id,ASC`,
  ]);
  expect(got.all).toEqual(got.beforeRecord);
  expect(got.data).toEqual({
    network: { name: 'net', endpoints: { totalCount: 1, nodes: [{ name: 'ep' }] }, few: { totalCount: 1 }, appWans: { nodes: [{ name: 'aw' }] } },
  });
});

it('endpoint(networkId:, id:) sends its network, AppWAN and service lists before the endpoint answers, each once', async () => {
  const source = `query ($n: UUID!, $id: UUID!) { endpoint(networkId: $n, id: $id) { name network { name } appWans { nodes { name } } services(first: 10) { totalCount } } }`;
  const got = await run(source, { n: NET, id: EP }, [`/networks/${NET}/endpoints/${EP}`]);
  expect(got.errors).toBeUndefined();
  expect(got.beforeRecord).toEqual([
    `GET /networks/${NET}`,
    `GET /networks/${NET}/endpoints/${EP}`,
    `GET /networks/${NET}/endpoints/${EP}/appWans?page=0&size=1000`,
    `GET /networks/${NET}/endpoints/${EP}/services?page=0&size=1000`,
  ]);
  expect(got.all).toEqual(got.beforeRecord);
  expect(got.data).toEqual({ endpoint: { name: 'ep', network: { name: 'net' }, appWans: { nodes: [{ name: 'aw' }] }, services: { totalCount: 1 } } });
});

it('a bad argument of a child is reported by that child, and costs no prefetched call', async () => {
  const source = `query ($id: UUID!) { network(id: $id) { name endpoints(first: 5000) { totalCount } } }`;
  const got = await run(source, { id: NET }, [`/networks/${NET}`]);
  expect(got.all).toEqual([`GET /networks/${NET}`]);
  expect(got.errors?.map((e) => [e.path, e.message.includes('first')])).toEqual([[['network', 'endpoints'], true]]);
});

it('with batching off, waits for the record (nothing would be shared)', async () => {
  const got = await run(NETWORK_QUERY, { id: NET, n: 5 }, [`/networks/${NET}`], false);
  expect(got.errors).toBeUndefined();
  expect(got.beforeRecord).toEqual([`GET /networks/${NET}`]);
});
