/**
 * `@stream` on a connection's `nodes` where rest/v1 pages (the sandbox clamps `size` at 200): the
 * first items are sent after the first upstream page, before the next page has been answered;
 * merged, the items equal the plain query's, with the same upstream calls.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { meros } from 'meros';
import { isObject } from '../../../src/core/parse';
import { dataAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';

const ROUTE = '/rest/v1/networks/{networkId}/endpoints';

const STREAMED = `query ($n: UUID!) {
  network(id: $n) { endpoints(first: 500, sort: [{ field: "name" }]) { totalCount nodes @stream(initialCount: 10) { name } } }
}`;
const PLAIN = STREAMED.replace(' @stream(initialCount: 10)', '');

let stack: Stack;
let networkId: string;
let endpointCount: number;

beforeAll(async () => {
  stack = await startStack({ seed: 'large' });
  const net = stack.sandbox.restFacts().networks[0];
  networkId = net?.id ?? '';
  endpointCount = net?.endpointIds.length ?? 0;
});
afterAll(() => stack.close());
afterEach(() => stack.sandbox.control.clearFaults());

interface Part {
  body: unknown;
  /** Calls of ROUTE answered / asked when this part was read. */
  answered: number;
  asked: number;
}

function routeCalls(): { answered: number; asked: number } {
  const timings = stack.sandbox.control.timings().filter((t) => t.route === ROUTE);
  return { answered: timings.filter((t) => t.answeredMs !== null).length, asked: timings.length };
}

/** POSTs accepting multipart/mixed; each part with the upstream calls seen as it arrived. */
async function streamParts(query: string, variables: Record<string, unknown>): Promise<Part[]> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(
      stack.gatewayUrl,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed; deferSpec=20220824, application/json', authorization: `Bearer ${stack.tokens.admin}` } },
      resolve,
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
  const parts = await meros(response);
  if (!(Symbol.asyncIterator in parts) || !('next' in parts)) throw new Error(`expected multipart/mixed, got ${String(response.headers['content-type'])}`);
  const out: Part[] = [];
  for await (const part of parts) out.push({ body: part.json ? part.body : String(part.body), ...routeCalls() });
  return out;
}

/** `network.endpoints` of an answer's data. */
function endpointsOf(data: unknown): Record<string, unknown> {
  const network = isObject(data) ? data['network'] : undefined;
  const endpoints = isObject(network) ? network['endpoints'] : undefined;
  return isObject(endpoints) ? endpoints : {};
}

const nameOf = (n: unknown): string => String(isObject(n) ? n['name'] : n);

function namesOf(data: unknown): string[] {
  const nodes = endpointsOf(data)['nodes'];
  return Array.isArray(nodes) ? nodes.map(nameOf) : [];
}

/** The 2022 format merged: the first part's list, then each `items` entry appended. */
function streamedNames(parts: readonly Part[]): string[] {
  const [first, ...rest] = parts;
  const names = namesOf(isObject(first?.body) ? first.body['data'] : undefined);
  for (const part of rest) {
    const incremental = isObject(part.body) && Array.isArray(part.body['incremental']) ? part.body['incremental'] : [];
    for (const entry of incremental) if (isObject(entry) && Array.isArray(entry['items'])) names.push(...entry['items'].map(nameOf));
  }
  return names;
}

test('the first items come after the first upstream page, while the next page is still held; merged they equal the plain answer, with the same calls', async () => {
  expect(endpointCount).toBeGreaterThan(200);
  stack.sandbox.control.resetCalls();
  const plain = expectNoErrors(await stack.gql(PLAIN, { n: networkId }));
  const plainCalls = stack.sandbox.control.calls().byRoute[`GET ${ROUTE}`];

  stack.sandbox.control.resetCalls();
  // The first page answers at once; the second is held (long enough to be unanswered when the first part comes on any machine).
  stack.sandbox.control.setFaults([
    { method: 'GET', route: ROUTE, times: 1 },
    { method: 'GET', route: ROUTE, latencyMs: 4000 },
  ]);
  const parts = await streamParts(STREAMED, { n: networkId });
  const first = parts[0];
  expect(isObject(first?.body) && first.body['hasNext']).toBe(true);
  expect(endpointsOf(isObject(first?.body) ? first.body['data'] : undefined)['totalCount']).toBe(endpointCount);
  // When the first items arrived only the first upstream page had been answered.
  expect(first?.answered).toBe(1);
  // Some items came before the held page was answered (the first page's 200), the rest after.
  const beforeHeld = parts.filter((p) => p.answered === 1);
  expect(beforeHeld.length).toBeGreaterThan(1);
  expect(parts.at(-1)?.answered).toBe(plainCalls);

  const names = streamedNames(parts);
  const plainNames = namesOf(plain);
  expect(names).toHaveLength(endpointCount);
  expect(names).toEqual(plainNames);
  expect(stack.sandbox.control.calls().byRoute[`GET ${ROUTE}`]).toBe(plainCalls);
});

test('@stream(if: false) reads the list as the plain query does (one JSON body, same calls)', async () => {
  stack.sandbox.control.resetCalls();
  const r = await stack.gql(STREAMED.replace('@stream(initialCount: 10)', '@stream(if: false, initialCount: 10)'), { n: networkId });
  expect(dataAt(r, ['network', 'endpoints', 'totalCount'])).toBe(endpointCount);
  expect(namesOf(expectNoErrors(r))).toHaveLength(endpointCount);
  expect(stack.sandbox.control.calls().byRoute[`GET ${ROUTE}`]).toBe(Math.ceil(endpointCount / 200));
});
