/**
 * `@defer` through real clients: Apollo Client 4 with its 2022 incremental handler and
 * urql's fetch exchange run a deferred query against the gateway over HTTP (multipart/mixed) and
 * see the fast fields first — while the slow call behind the deferred fragment is still held by a
 * sandbox fault — then the whole, equal to the plain query's answer. Order of events, no clock.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { Client, fetchExchange } from '@urql/core';
import { isObject } from '../../src/core/parse';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

const SLOW_ROUTE = '/rest/v1/networks/{networkId}/appWans';
// Long enough that the first part comes well before it on any machine; the test waits for events, not for it.
const HELD_MS = 4000;

const DEFERRED = `query ConsolePage($id: UUID!) {
  network(id: $id) {
    id
    name
    ... @defer(label: "lists") {
      appWans { totalCount nodes { id name } }
    }
  }
}`;
const PLAIN = DEFERRED.replace(' @defer(label: "lists")', '');

let stack: Stack;
let networkId: string;
let plain: Record<string, unknown>;

beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
  networkId = stack.sandbox.restFacts().networks[0]?.id ?? '';
  plain = expectNoErrors(await stack.gql(PLAIN, { id: networkId }));
});
afterAll(() => stack.close());
afterEach(() => stack.sandbox.control.clearFaults());

/** Holds the slow list from now on (the call log starts afresh, so `slowAnswered` reads this query's call). */
function holdSlowCall(): void {
  stack.sandbox.control.resetCalls();
  stack.sandbox.control.setFaults([{ method: 'GET', route: SLOW_ROUTE, latencyMs: HELD_MS }]);
}

function slowAnswered(): boolean {
  return stack.sandbox.control.timings().some((t) => t.route === SLOW_ROUTE && t.answeredMs !== null);
}

interface Seen {
  data: unknown;
  /** The slow call had been answered when this result arrived. */
  slowAnswered: boolean;
  complete: boolean;
}

function networkOf(data: unknown): Record<string, unknown> | null {
  return isObject(data) && isObject(data['network']) ? data['network'] : null;
}

test('Apollo Client 4 (Defer20220824Handler): the network first while its AppWAN list is held, then the whole, equal to the plain answer', async () => {
  const client = new ApolloClient({
    link: new HttpLink({ uri: stack.gatewayUrl, headers: { authorization: `Bearer ${stack.tokens.admin}` } }),
    cache: new InMemoryCache(),
    incrementalHandler: new Defer20220824Handler(),
  });
  holdSlowCall();
  const seen: Seen[] = [];
  const errors: unknown[] = [];
  const subscription = client.watchQuery({ query: gql(DEFERRED), variables: { id: networkId }, fetchPolicy: 'no-cache' }).subscribe({
    next: (result) => {
      if (result.data !== undefined && networkOf(result.data) !== null) seen.push({ data: result.data, slowAnswered: slowAnswered(), complete: result.dataState === 'complete' });
      if (result.error !== undefined) errors.push(result.error);
    },
    error: (error: unknown) => errors.push(error),
  });
  try {
    const whole = await waitUntil(() => seen.find((s) => s.complete) ?? (errors.length > 0 ? errors : undefined), 'the whole answer through Apollo Client');
    expect(errors).toEqual([]);
    const first = seen[0];
    // The fast part came while the slow call was held: it has the network, not yet its AppWANs.
    expect(first?.complete).toBe(false);
    expect(first?.slowAnswered).toBe(false);
    expect(networkOf(first?.data)).toEqual({ __typename: 'Network', id: networkId, name: expect.any(String) });
    // Merged by the client, the parts equal the plain query's answer.
    expect(stripTypename(isObject(whole) ? whole['data'] : undefined)).toEqual(plain);
  } finally {
    subscription.unsubscribe();
    client.stop();
  }
});

test('urql (fetch exchange): the network first while its AppWAN list is held, then the whole, equal to the plain answer', async () => {
  const client = new Client({
    url: stack.gatewayUrl,
    exchanges: [fetchExchange],
    preferGetMethod: false,
    fetchOptions: { headers: { authorization: `Bearer ${stack.tokens.admin}` } },
  });
  holdSlowCall();
  const seen: Seen[] = [];
  const errors: unknown[] = [];
  const { unsubscribe } = client.query(DEFERRED, { id: networkId }, { requestPolicy: 'network-only' }).subscribe((result) => {
    if (result.error !== undefined) errors.push(result.error);
    if (networkOf(result.data) !== null) seen.push({ data: result.data, slowAnswered: slowAnswered(), complete: result.hasNext !== true });
  });
  try {
    const whole = await waitUntil(() => seen.find((s) => s.complete) ?? (errors.length > 0 ? errors : undefined), 'the whole answer through urql');
    expect(errors).toEqual([]);
    const first = seen[0];
    expect(first?.complete).toBe(false);
    expect(first?.slowAnswered).toBe(false);
    expect(networkOf(first?.data)).toEqual({ id: networkId, name: expect.any(String) });
    expect(isObject(whole) ? whole['data'] : undefined).toEqual(plain);
  } finally {
    unsubscribe();
  }
});

/** Apollo's cache-less results still carry `__typename` (it adds the field to the document it sends). */
function stripTypename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTypename);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '__typename').map(([key, v]) => [key, stripTypename(v)]));
}
