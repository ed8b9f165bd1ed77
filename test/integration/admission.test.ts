/**
 * Heavy operations take turns (src/limits/admission.ts), against the sandbox over real sockets:
 * at most HEAVY_OPERATION_CONCURRENCY of them run at once, whether Apollo or the known-query path
 * serves them; the others wait and then answer exactly what they answer alone; a light query does
 * not wait behind them; and a waiting one whose client goes away sends no upstream call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/limits/limits';
import { expectNoErrors, startStack, type GqlResult, type Stack } from '../helpers/stack';
import { Clients } from '../helpers/subscriptions';
import { pause, waitUntil } from '../helpers/wait';

const networkGraph = readFileSync(join(__dirname, '..', '..', 'bench', 'queries', 'network-graph.graphql'), 'utf8');
const HEAVY = { first: 1000 };
/** Long enough per call that three graphs in a row overlap the test's polls. */
const LATENCY_MS = 25;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', config: { limits: { ...DEFAULT_LIMITS, admission: { heavyConcurrency: 1, heavyMinCalls: 100, heavyQueuePerCaller: 64 } } } });
});
afterAll(() => stack.close());
const clients = new Clients(() => stack);
afterEach(() => {
  stack.sandbox.control.setLatency(0);
  return clients.disposeAll();
});

interface Gauges {
  running: number;
  queued: number;
}

async function gauges(): Promise<Gauges> {
  const text = await (await fetch(`${stack.origin}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^netgraph_heavy_operations_${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { running: read('running'), queued: read('queued') };
}

/** Reads the gauges every few ms until `done` settles: the most seen running and queued at once. */
async function watch<T>(done: Promise<T>): Promise<{ result: T; most: Gauges }> {
  const most = { running: 0, queued: 0 };
  let finished = false;
  const result = done.finally(() => (finished = true));
  while (!finished) {
    const now = await gauges();
    most.running = Math.max(most.running, now.running);
    most.queued = Math.max(most.queued, now.queued);
    await pause(5);
  }
  return { result: await result, most };
}

async function untilQueued(count: number): Promise<void> {
  await waitUntil(async () => (await gauges()).queued === count, `${count} queued`, { intervalMs: 5 });
}

describe.each([
  // A document Apollo has not seen yet (a comment makes new text) goes through Apollo's pipeline.
  ['Apollo', (i: number) => `# run ${i} ${Math.random()}\n${networkGraph}`],
  // The same text again, once Apollo resolved it (with a light `first`), is a known query.
  ['the known-query path', () => networkGraph],
] as const)('through %s', (_path, documentFor) => {
  it('runs one heavy operation at a time (HEAVY_OPERATION_CONCURRENCY=1); the others wait, then answer as they do alone', async () => {
    const alone = await stack.gql(documentFor(0), { first: 1 });
    expectNoErrors(alone);
    const solo = await stack.gql(documentFor(1), HEAVY);
    expectNoErrors(solo);
    stack.sandbox.control.setLatency(LATENCY_MS);
    const { result, most } = await watch(Promise.all([2, 3, 4].map((i) => stack.gql(documentFor(i), HEAVY))));
    expect(most.running).toBe(1);
    expect(most.queued).toBeGreaterThanOrEqual(1);
    for (const res of result) expect(res.body).toEqual(solo.body);
    expect(await gauges()).toEqual({ running: 0, queued: 0 });
  });
});

describe.each([
  ['WebSocket', () => clients.ws()],
  ['Server-Sent Events', () => clients.sse()],
] as const)('over %s', (_name, client) => {
  it('heavy queries take turns with the same slots', async () => {
    const solo = await stack.gql(networkGraph, HEAVY);
    expectNoErrors(solo);
    stack.sandbox.control.setLatency(LATENCY_MS);
    const logs = [1, 2, 3].map(() => clients.follow(client(), networkGraph, HEAVY));
    const { most } = await watch(Promise.all(logs.map((log) => log.ended())));
    expect(most.running).toBe(1);
    expect(most.queued).toBeGreaterThanOrEqual(1);
    for (const log of logs) expect(log.results).toEqual([solo.body]);
    expect(await gauges()).toEqual({ running: 0, queued: 0 });
  });
});

/** The request log lines (msg `graphql`) written since line `since`. */
function logLines(since: number): Array<Record<string, unknown>> {
  return stack.logs
    .slice(since)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line['msg'] === 'graphql');
}

it('a light query does not wait behind heavy ones that are queued; the log shows how long each heavy one waited', async () => {
  stack.sandbox.control.setLatency(LATENCY_MS);
  const since = stack.logs.length;
  const finished: string[] = [];
  const heavy = [1, 2, 3].map((i) => stack.gql(networkGraph, HEAVY).then((res: GqlResult) => (finished.push(`heavy ${i}`), res)));
  await untilQueued(2);
  const light = await stack.gql('{ networks(first: 2) { nodes { id name } } }');
  finished.push('light');
  expectNoErrors(light);
  for (const res of await Promise.all(heavy)) expectNoErrors(res);
  // Two heavy operations were still waiting when the light one was sent: it answered before them.
  expect(finished.indexOf('light')).toBeLessThan(2);
  const lines = logLines(since);
  expect(lines).toHaveLength(4);
  const waits = lines.map((line) => line['heavyWaitMs']);
  // The one that ran first and the light one did not wait (no field); the two queued did.
  expect(waits.filter((wait) => wait === undefined)).toHaveLength(2);
  expect(waits.filter((wait) => typeof wait === 'number' && wait > 0)).toHaveLength(2);
});

it('a queued operation whose client goes away leaves the queue and sends no upstream call', async () => {
  stack.sandbox.control.resetCalls();
  expectNoErrors(await stack.gql(networkGraph, HEAVY));
  const oneGraph = stack.sandbox.control.calls().total;

  stack.sandbox.control.setLatency(LATENCY_MS);
  stack.sandbox.control.resetCalls();
  const running = stack.gql(networkGraph, HEAVY);
  const client = new AbortController();
  const waiting = fetch(stack.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.tokens.admin}` },
    body: JSON.stringify({ query: networkGraph, variables: HEAVY }),
    signal: client.signal,
  }).catch((error: unknown) => error);
  await untilQueued(1);
  client.abort();
  await waiting;
  await waitUntil(async () => (await gauges()).queued === 0, 'the queue empty', { intervalMs: 5 });
  expectNoErrors(await running);
  // Give a wrongly admitted operation time to send its calls: none may come.
  await pause(100);
  expect(stack.sandbox.control.calls().total).toBe(oneGraph);
  expect(await gauges()).toEqual({ running: 0, queued: 0 });
});
