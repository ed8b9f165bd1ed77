/**
 * The benchmark's networkGraph on the large seed takes 3 sequential upstream round trips (the
 * bound, bench/README.md), with the plan's calls and the unbatched answer: the prefetch plan
 * (src/resolvers/network/prefetch.ts) starts each nested list one level early.
 *
 * The schema runs in-process over the real HTTP layer and the sandbox (real sockets), through a
 * client that records when the gateway asked each call and when the answer was back. A call is
 * in wave n + 1 when it was asked after a call of wave n had answered (the longest chain of
 * answer-then-ask): the round trips the gateway's own order of calls needs, independent of how
 * many connections the pool keeps open (a level wider than the pool still counts as one wave).
 */
import { graphql, type ExecutionResult } from 'graphql';
import { Cancellation } from '../../../src/core/cancellation';
import { performance } from 'node:perf_hooks';
import { loadDocument } from '../../../bench/queries/load-document';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { buildSchema } from '../../../src/server/schema';
import { createHttpLayer, type HttpLayer } from '../../../src/upstream/http';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { inProcessContext } from '../../helpers/context';
import { appWanShapes, expectedCalls } from './graph-calls';
import { restCalls } from './network-stack';

const GRAPH = loadDocument('network-graph.graphql');
const schema = buildSchema();

interface TimedCall {
  path: string;
  askedAt: number;
  answeredAt: number;
}

/** The HTTP layer as one caller sees it, recording when each call was asked and answered. */
class TimedHttp implements HttpClient {
  readonly calls: TimedCall[] = [];
  constructor(private readonly inner: HttpClient) {}

  async send(request: UpstreamRequest): Promise<UpstreamResponse> {
    const askedAt = performance.now();
    try {
      return await this.inner.send(request);
    } finally {
      this.calls.push({ path: request.path, askedAt, answeredAt: performance.now() });
    }
  }
}

/** The longest chain of calls each asked after the previous one answered. */
export function waves(calls: readonly TimedCall[]): number {
  const sorted = [...calls].sort((a, b) => a.askedAt - b.askedAt);
  const depth: number[] = [];
  sorted.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j += 1) if ((sorted[j]?.answeredAt ?? Infinity) <= call.askedAt) before = Math.max(before, depth[j] ?? 0);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}

let sandbox: RunningSandbox;
let layer: HttpLayer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'large' });
  layer = createHttpLayer({
    upstreamBaseUrl: sandbox.baseUrl,
    searchUrl: null,
    searchCredentials: null,
    timeouts: { connectMs: 5000, headersMs: 20_000, bodyMs: 20_000 },
    retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1000 },
    // No cap below the widest level: the waves are the gateway's order of calls, not a queue.
    maxConcurrentPerRequest: 256,
  });
});

afterAll(async () => {
  await layer.close();
  await sandbox.close();
});

async function run(batching: boolean, source = GRAPH, variableValues: Record<string, unknown> = { first: 1000 }): Promise<{ result: ExecutionResult; http: TimedHttp }> {
  const cancellation = new Cancellation();
  const http = new TimedHttp(layer.forCaller({ authorization: `Bearer ${sandbox.tokens.admin}`, signal: cancellation }));
  const result = await graphql({ schema, source, variableValues, contextValue: inProcessContext(http, { batching, cancellation }) });
  return { result, http };
}

test('networkGraph on the large seed: 3 round trips, the plan’s calls, the unbatched answer', async () => {
  const facts = sandbox.restFacts();
  const shapes = await appWanShapes(sandbox, facts);

  // Answers far apart from the next wave's asks, on a loaded machine too: a call would count in the
  // next wave only if the gateway asked it 200 ms after its siblings.
  sandbox.control.setLatency(200);
  sandbox.control.resetCalls();
  const batched = await run(true);
  sandbox.control.setLatency(0);
  expect(batched.result.errors).toBeUndefined();
  const calls = restCalls(sandbox.control.calls());
  expect(calls).toEqual(expectedCalls(facts, shapes));
  expect(Object.values(calls).reduce((a, b) => a + b, 0)).toBe(178);
  expect(batched.http.calls).toHaveLength(178);
  expect(waves(batched.http.calls)).toBe(3);

  const unbatched = await run(false);
  expect(unbatched.result.errors).toBeUndefined();
  expect(batched.result.data).toEqual(unbatched.result.data);
}, 120_000);

test('one network → endpoints → AppWANs → services: the AppWAN lists go with the network, the services with the members', async () => {
  const net = sandbox.restFacts().networks[0];
  if (net === undefined) throw new Error('no network');
  const query = `query ($n: UUID!) { network(id: $n) { id endpoints(first: 1000) { nodes { id appWans { nodes { id services { nodes { id } } } } } } } }`;
  sandbox.control.setLatency(200);
  const batched = await run(true, query, { n: net.id });
  sandbox.control.setLatency(0);
  expect(batched.result.errors).toBeUndefined();
  // network ‖ endpoints' first page ‖ AppWAN list ‖ endpoint-group list (the endpoint list is a
  // child of the root, started with it) → endpoints' second page ‖ members ‖ AppWAN endpoint groups
  // ‖ group members → services (was 6: each list one level after the field above it).
  expect(waves(batched.http.calls)).toBe(3);
  const unbatched = await run(false, query, { n: net.id });
  expect(batched.result.data).toEqual(unbatched.result.data);
}, 60_000);

test('a nested list left out by @skip starts nothing', async () => {
  sandbox.control.resetCalls();
  const { result } = await run(true, `query ($s: Boolean!) { networkGroups { nodes { id networks @skip(if: $s) { nodes { id } } } } }`, { s: true });
  expect(result.errors).toBeUndefined();
  expect(restCalls(sandbox.control.calls())).toEqual({ 'GET /rest/v1/network-groups': 1 });
});
