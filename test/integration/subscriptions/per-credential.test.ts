/**
 * `networkChanges` shared per credential, not per identity (sandbox + gateway, real sockets): a
 * second token of the same person (same `sub`) that the platform refuses on a network gets
 * FORBIDDEN and no data, even while the first token's poller runs; two accepted tokens of one
 * person still share one poller (one poll per interval, plus the second token's own first read);
 * the first token expiring ends its own subscription only.
 */
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, routeCalls } from '../../helpers/subscriptions';
import { countOver, onePer, waitUntil } from '../../helpers/wait';

const INTERVAL_MS = 50;
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({ config: { subscriptions: { networkPollIntervalMs: INTERVAL_MS, networkPollMaxIntervalMs: INTERVAL_MS }, upstream: { retryAttempts: 1 } } });
});
afterEach(async () => {
  await clients.disposeAll();
  await waitUntil(() => stack.pollerStats().pollers === 0, () => `no pollers (have ${JSON.stringify(stack.pollerStats())})`);
});
afterAll(() => stack.close());

const CHANGES = `subscription Live($networkId: UUID!) { networkChanges(networkId: $networkId) { networkId snapshot resourceCount network { id } } }`;
const NETWORK_READ = 'GET /rest/v1/networks/{networkId}';

/** The admin's `sub`, read from its demo token. */
function adminSubject(): string {
  const claims: unknown = JSON.parse(Buffer.from(stack.tokens.admin.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const sub = typeof claims === 'object' && claims !== null && 'sub' in claims ? claims.sub : null;
  if (typeof sub !== 'string') throw new Error('the demo token has no sub');
  return sub;
}

/** Another token of the admin: limited to `networkIds` when given (the sandbox refuses it every other network), living `lifetimeS`. */
function adminToken(options: { networkIds?: string[]; lifetimeS?: number } = {}): string {
  return stack.sandbox.tokenService.sign({ sub: adminSubject(), ...(options.networkIds ? { networkIds: options.networkIds } : {}) }, options.lifetimeS ?? 3600);
}

function networks(): [string, string] {
  const [first, second] = stack.sandbox.restFacts().networkIds;
  if (first === undefined || second === undefined) throw new Error('the seed has fewer than two networks');
  return [first, second];
}

describe('networkChanges shares data per credential', () => {
  it('gives FORBIDDEN and no data to a down-scoped token of the same person, while the first token is followed', async () => {
    const [followed, other] = networks();
    const wide = clients.follow(clients.ws(), CHANGES, { networkId: followed });
    await wide.events(1);
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 1 });

    const narrow = clients.follow(clients.ws(adminToken({ networkIds: [other] })), CHANGES, { networkId: followed });
    await narrow.ended();
    expect(narrow.results).toHaveLength(1);
    expect(narrow.results[0]?.data ?? null).toBeNull();
    expect(narrow.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    // The first token's subscription is untouched, still served by its poller.
    expect(wide.status).toBe('open');
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 1 });

    // The same token is served the network it may read.
    const allowed = clients.follow(clients.ws(adminToken({ networkIds: [other] })), CHANGES, { networkId: other });
    await allowed.events(1);
    expect(allowed.values('networkChanges')).toMatchObject([{ networkId: other, snapshot: true }]);
  });

  it('shares one poller between two accepted tokens of one person: one poll per interval', async () => {
    const [followed] = networks();
    const first = clients.follow(clients.ws(), CHANGES, { networkId: followed });
    await first.events(1);
    const before = routeCalls(stack, NETWORK_READ);
    const second = clients.follow(clients.ws(adminToken()), CHANGES, { networkId: followed });
    await second.events(1);
    expect(second.values('networkChanges')).toMatchObject([{ networkId: followed, snapshot: true }]);
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 2 });
    // Its own first read (at least one network read) admitted it.
    expect(routeCalls(stack, NETWORK_READ)).toBeGreaterThan(before);

    const window = await countOver(() => routeCalls(stack, NETWORK_READ), 10 * INTERVAL_MS, 5);
    expect(window.added).toBeLessThanOrEqual(onePer(INTERVAL_MS, window));
  });

  it('keeps the second token following when the first one expires', async () => {
    const [followed] = networks();
    const shortLived = adminToken({ lifetimeS: 3 });
    const first = clients.follow(clients.ws(shortLived), CHANGES, { networkId: followed });
    await first.events(1);
    const second = clients.follow(clients.ws(adminToken()), CHANGES, { networkId: followed });
    await second.events(1);
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 2 });

    // The platform answers 401 to the first token once it expired: its subscription ends so.
    await first.ended(20_000);
    expect(first.results.at(-1)?.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    // The second goes on, polled now with its own token.
    expect(second.status).toBe('open');
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 1 });
    const polls = await countOver(() => routeCalls(stack, NETWORK_READ), 4 * INTERVAL_MS, 2);
    expect(polls.added).toBeGreaterThanOrEqual(2);
    expect(second.status).toBe('open');
  }, 40_000);
});
