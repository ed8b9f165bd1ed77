/**
 * Closing the gateway (what SIGTERM does) drains: a request already in flight gets its whole
 * answer, and close() resolves only after it; a request still running at the drain timeout is cut.
 */
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

/** Until the gateway has the request in hand: its upstream call has reached the sandbox. */
async function inHand(stack: Stack): Promise<void> {
  await waitUntil(() => stack.sandbox.control.calls().total > 0, () => 'the request never reached the upstream');
}

const NETWORKS = '{ networks(first: 5) { totalCount edges { node { id name } } } }';

describe('closing the gateway', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('answers the request in flight in full, then closes', async () => {
    stack = await startStack({ gatewayOptions: { drainTimeoutMs: 5000 } });
    stack.sandbox.control.setLatency(400);
    const order: string[] = [];
    const inFlight = stack.gql(NETWORKS).then((res) => {
      order.push('answered');
      return res;
    });
    await inHand(stack);
    await stack.close();
    order.push('closed');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toMatchObject({ networks: { totalCount: expect.any(Number) } });
    expect(order).toEqual(['answered', 'closed']);
  });

  it('cuts a request still running at the drain timeout', async () => {
    stack = await startStack({ gatewayOptions: { drainTimeoutMs: 200 } });
    stack.sandbox.control.setLatency(3000);
    const inFlight = stack.gql(NETWORKS).then(
      () => 'answered',
      () => 'cut',
    );
    await inHand(stack);
    await stack.close();
    // Cut at the drain timeout: had close() waited for the upstream's 3 s, the request would have been answered.
    expect(await inFlight).toBe('cut');
  });
});
