/**
 * The limits over WebSocket and Server-Sent Events are HTTP's (src/server/operations.ts): a
 * document over its tokens is refused before it is parsed, an operation over its price before any
 * upstream call, and a query runs within the budget's deadline. Both transports, one stack.
 */
import { DEFAULT_LIMITS } from '../../../src/limits/limits';
import { CYCLE_QUERY } from '../../helpers/abusive-queries';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, type EventLog } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

/** Enough for every query here but the long one below. */
const MAX_TOKENS = 200;
const DEADLINE_MS = 300;

let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({
    config: { limits: { price: { ...DEFAULT_LIMITS.price, maxDocumentTokens: MAX_TOKENS }, budget: { ...DEFAULT_LIMITS.budget, deadlineMs: DEADLINE_MS }, admission: { ...DEFAULT_LIMITS.admission } } },
  });
});
afterEach(() => {
  stack.sandbox.control.clearFaults();
  return clients.disposeAll();
});
afterAll(() => stack?.close());

const TRANSPORTS: Array<[string, 'ws' | 'sse', () => Parameters<Clients['follow']>[0]]> = [
  ['WebSocket', 'ws', () => clients.ws()],
  ['Server-Sent Events', 'sse', () => clients.sse()],
];

/** The errors an operation ended with: in its results, or (graphql-ws refusing before it starts) as the client's error. */
function errorsOf(log: EventLog): Array<{ message?: unknown; extensions?: Record<string, unknown> }> {
  const inResults = log.results.flatMap((r) => r.errors ?? []);
  if (inResults.length > 0) return inResults.map((e) => ({ message: e.message, ...(e.extensions ? { extensions: e.extensions } : {}) }));
  return Array.isArray(log.error) ? (log.error as Array<{ message?: unknown; extensions?: Record<string, unknown> }>) : [];
}

/** Waits for the log line of an operation on `transport` that ended with `code`, written after `since` lines. */
async function logLine(transport: string, code: string, since: number): Promise<Record<string, unknown>> {
  const find = (): Record<string, unknown> | undefined =>
    stack.logs
      .slice(since)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['msg'] === 'graphql' && l['transport'] === transport && Array.isArray(l['errorCodes']) && l['errorCodes'].includes(code));
  await waitUntil(() => find() !== undefined, () => `a ${transport} log line with ${code}`);
  return find() ?? {};
}

function callsNow(): number {
  return stack.sandbox.control.calls().total;
}

describe.each(TRANSPORTS)('over %s', (_name, transport, client) => {
  it('refuses an operation priced over the limits, with no upstream call', async () => {
    const before = callsNow();
    const lines = stack.logs.length;
    const log = clients.follow(client(), CYCLE_QUERY);
    await log.ended();
    expect(errorsOf(log)[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'nodes' } });
    expect(callsNow() - before).toBe(0);
    expect(await logLine(transport, 'COST_ESTIMATED_TOO_EXPENSIVE', lines)).toMatchObject({ upstreamCalls: 0 });
  });

  it('refuses a document over its tokens before parsing it', async () => {
    const before = callsNow();
    const lines = stack.logs.length;
    const fields = Array.from({ length: MAX_TOKENS }, (_, i) => `f${i}: gatewayInfo { version }`).join(' ');
    const log = clients.follow(client(), `{ ${fields} }`);
    await log.ended();
    expect(errorsOf(log)[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'tokens', max: MAX_TOKENS } });
    expect(callsNow() - before).toBe(0);
    expect(await logLine(transport, 'COST_ESTIMATED_TOO_EXPENSIVE', lines)).toMatchObject({ upstreamCalls: 0, operationName: null });
  });

  it('runs a query within the deadline: partial data and OPERATION_BUDGET_EXCEEDED past it', async () => {
    stack.sandbox.control.resetCalls();
    stack.sandbox.control.setFaults([{ route: '**', latencyMs: 5000 }]);
    const log = clients.follow(client(), '{ gatewayInfo { sandbox } networks(first: 2) { nodes { id } } }');
    await log.ended();
    expect(log.results[0]?.data).toMatchObject({ gatewayInfo: { sandbox: true } });
    expect(errorsOf(log)[0]?.extensions).toMatchObject({ code: 'OPERATION_BUDGET_EXCEEDED', limit: 'deadline' });
    // Answered at the deadline, not after the upstream: the slow call it made has not been answered.
    const calls = stack.sandbox.control.timings();
    expect({ calls: calls.length > 0, answered: calls.filter((t) => t.answeredMs !== null) }).toEqual({ calls: true, answered: [] });
  });

  it('answers a query within the limits', async () => {
    const log = clients.follow(client(), '{ networks(first: 1) { nodes { id } } }');
    await log.ended();
    expect(log.results).toHaveLength(1);
    expect(log.results[0]?.errors).toBeUndefined();
    expect(log.values('networks')[0]).toMatchObject({ nodes: [{ id: expect.any(String) }] });
  });
});
