/** Subscriptions and operations over graphql-ws (`graphql-transport-ws`) at /graphql. */
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

let stack: Stack;
const clients: Client[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => stack.close());

function client(connectionParams?: Record<string, unknown>, onClose?: (code: number) => void): Client {
  const c = createClient({
    url: stack.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    ...(connectionParams ? { connectionParams } : {}),
    on: { closed: (event) => onClose?.((event as { code: number }).code) },
    onNonLazyError: () => undefined,
  });
  clients.push(c);
  return c;
}

async function take(c: Client, query: string, count: number): Promise<FormattedExecutionResult<Record<string, unknown>, unknown>[]> {
  const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
  const iterator = c.iterate({ query });
  for await (const result of iterator) {
    results.push(result);
    if (results.length >= count) break;
  }
  return results;
}

describe('subscriptions', () => {
  it('streams heartbeat ticks in order', async () => {
    const results = await take(client({ authorization: `Bearer ${stack.tokens.admin}` }), 'subscription { heartbeat(intervalSeconds: 1) { sequence at } }', 2);
    expect(results.map((r) => (r.data as { heartbeat: { sequence: number } }).heartbeat.sequence)).toEqual([1, 2]);
    expect((results[0]?.data as { heartbeat: { at: string } }).heartbeat.at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it('rejects an out-of-range interval with BAD_USER_INPUT', async () => {
    const [result] = await take(client(), 'subscription { heartbeat(intervalSeconds: 0) { sequence } }', 1);
    expect(result?.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'intervalSeconds' } });
  });

  it('stops at once when the client unsubscribes, and logs the operation without the token', async () => {
    stack.logs.length = 0;
    // An hour between ticks: only the abort on unsubscribe can end the operation within the test.
    await take(client({ authorization: `Bearer ${stack.tokens.admin}` }), 'subscription Beat { heartbeat(intervalSeconds: 3600) { sequence } }', 1);
    // Logged when the operation ends, which only the unsubscribe can do within the test.
    const line = await waitUntil(() => stack.logs.map((l): Record<string, unknown> => JSON.parse(l) as Record<string, unknown>).find((l) => l['operationName'] === 'Beat'), 'the operation logged');
    expect(line).toMatchObject({ msg: 'graphql', transport: 'ws', operationName: 'Beat', requestId: expect.any(String) });
    expect(stack.logs.join('\n')).not.toContain(stack.tokens.admin);
  });
});

describe('operations over the socket use the token from connection_init', () => {
  it('runs a query with the caller token', async () => {
    const [result] = await take(client({ authorization: `Bearer ${stack.tokens.admin}` }), '{ myOrganization { id } }', 1);
    expect(result?.errors).toBeUndefined();
    expect(result?.data).toMatchObject({ myOrganization: { id: expect.any(String) } });
  });

  it('gives UNAUTHENTICATED on the field when connection_init carried no token', async () => {
    const [result] = await take(client(), '{ gatewayInfo { sandbox } myOrganization { id } }', 1);
    expect(result?.data).toEqual({ gatewayInfo: { sandbox: true }, myOrganization: null });
    expect(result?.errors?.[0]).toMatchObject({ path: ['myOrganization'], extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('closes the connection with 4403 when the authorization payload is malformed', async () => {
    let code = 0;
    const c = client({ authorization: 42 }, (closeCode) => {
      code = closeCode;
    });
    await expect(take(c, '{ gatewayInfo { version } }', 1)).rejects.toBeDefined();
    expect(code).toBe(4403);
  });
});
