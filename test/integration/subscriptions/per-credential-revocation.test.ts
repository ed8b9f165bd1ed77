/**
 * A token that joined a shared `networkChanges` poller (not its lead) and is then revoked by the
 * platform stops being served once its verdict runs out (CALLER_VERIFY_TTL_MS): its subscription
 * ends UNAUTHENTICATED at the next change, the lead's goes on (sandbox + gateway, real sockets).
 */
import { startStack, testConfig, type Stack } from '../../helpers/stack';
import { Clients, sandboxRest } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

const INTERVAL_MS = 50;
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  const base = testConfig();
  stack = await startStack({ config: { subscriptions: { networkPollIntervalMs: INTERVAL_MS, networkPollMaxIntervalMs: INTERVAL_MS }, upstream: { retryAttempts: 1 }, callers: { ...base.callers, verifyTtlMs: 1000, refusedTtlMs: 0 } } });
});
afterAll(async () => {
  await clients.disposeAll();
  await stack.close();
});

const CHANGES = `subscription Live($networkId: UUID!) { networkChanges(networkId: $networkId) { networkId snapshot resourceCount } }`;

function adminSubject(): string {
  const claims: unknown = JSON.parse(Buffer.from(stack.tokens.admin.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const sub = typeof claims === 'object' && claims !== null && 'sub' in claims ? claims.sub : null;
  if (typeof sub !== 'string') throw new Error('the demo token has no sub');
  return sub;
}

it('drops a revoked member at the next change once its verdict ran out; the lead goes on', async () => {
  const [networkId] = stack.sandbox.restFacts().networkIds;
  if (networkId === undefined) throw new Error('the seed has no network');
  const lead = clients.follow(clients.ws(), CHANGES, { networkId });
  await lead.events(1);
  const token = stack.sandbox.tokenService.sign({ sub: adminSubject() }, 3600);
  const member = clients.follow(clients.ws(token), CHANGES, { networkId });
  await member.events(1);
  expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 2 });

  stack.sandbox.tokenService.revoke(token);
  // Changes keep coming; once the member's verdict has run out, the platform is asked again and refuses it.
  let made = 0;
  await waitUntil(
    async () => {
      made += 1;
      await sandboxRest(stack, 'POST', `/networks/${networkId}/endpoints`, { name: `revocation-${made}`, endpointType: 'ZTCL' });
      await lead.events(made + 1);
      return member.status !== 'open';
    },
    () => `the revoked member to be dropped\n${member.describe()}`,
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  expect(member.results.at(-1)?.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
  expect(lead.status).toBe('open');
  expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 1 });
}, 60_000);
