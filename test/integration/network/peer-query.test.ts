/**
 * The nested query a peer gateway is compared on, network → endpoints → AppWANs → services: its
 * upstream calls by route and its sequential round trips. The calls are those of the fewest the
 * contract allows (the network, its endpoints, its AppWANs, each AppWAN's endpoints, endpoint
 * groups and services, the groups' members) plus the network's own endpoint-group list, which
 * lets the groups' members be read in the same round trip as the AppWANs' lists (2 round trips,
 * not 3; src/upstream/network/README.md "Endpoint groups").
 */
import type { SeedSize } from '../../../src/sandbox';
import { callWaves } from '../../helpers/round-trips';
import { expectNoErrors, startStack, type Stack } from '../../helpers/stack';

const PEER_QUERY = `query($id: UUID!) { network(id: $id) { name endpoints { nodes { name appWans { nodes { name services { nodes { name } } } } } } } }`;
const R = 'GET /rest/v1/networks/{networkId}';
/**
 * Per-call latency while the waves are counted: a call the gateway sends in a round trip must reach
 * the sandbox before any call of that round trip is answered, so the latency is set well above the
 * event-loop stalls of a machine running the whole suite.
 */
const LATENCY_MS = 400;

describe.each<SeedSize>(['tiny', 'demo'])('on the %s data', (seed) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed });
  });
  afterAll(() => stack.close());

  it('costs the fewest calls plus the network\'s group list, in 2 round trips', async () => {
    const net = stack.sandbox.restFacts().networks[0];
    if (net === undefined) throw new Error('no network in the sandbox');
    const appWans = net.appWanIds.length;
    const groups = net.endpointGroupIds.length;
    // Every group of the network is read when it has no more groups than AppWANs (`prefetch-all`).
    expect(groups).toBeGreaterThan(0);
    expect(groups).toBeLessThanOrEqual(appWans);

    stack.sandbox.control.setLatency(LATENCY_MS);
    stack.sandbox.control.resetCalls();
    try {
      expectNoErrors(await stack.gql(PEER_QUERY, { id: net.id }));
    } finally {
      stack.sandbox.control.setLatency(0);
    }
    expect(stack.sandbox.control.calls().byRoute).toEqual({
      [R]: 1,
      [`${R}/endpoints`]: 1,
      [`${R}/appWans`]: 1,
      [`${R}/endpointGroups`]: 1,
      [`${R}/appWans/{appWanId}/endpoints`]: appWans,
      [`${R}/appWans/{appWanId}/endpointGroups`]: appWans,
      [`${R}/appWans/{appWanId}/services`]: appWans,
      [`${R}/endpointGroups/{endpointGroupId}/endpoints`]: groups,
    });
    const waves = callWaves(stack.sandbox.control.timings());
    const picture = waves.map((w) => `wave ${w.wave}: ${w.calls.join(', ')}`).join('\n');
    expect({ roundTrips: waves.length, picture }).toEqual({ roundTrips: 2, picture });
  });
});
