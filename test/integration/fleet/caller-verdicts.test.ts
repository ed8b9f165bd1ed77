/**
 * Verdicts on tokens shared by the fleet: with FLEET_TOKEN_KEY, a token verified on one replica is
 * known to the others without asking the platform again; Redis holds the verdict under a keyed
 * hash of the token, never the token; and one identity's reservations are counted on the identity
 * the platform named, on both replicas alike.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ADMIN_IDENTITY_ID, type RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { redisTestsEnabled } from '../../helpers/redis-server';
import { startInProcessFleet, type InProcessFleet } from '../../helpers/in-process-fleet';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;
const IDENTITY_ROUTE = 'GET /identity/v1/organization';

describeFleet('verdicts on tokens in a fleet', () => {
  let fleet: InProcessFleet;
  let sandbox: RunningSandbox;
  let replicas: RunningGateway[] = [];
  let client: Redis;

  beforeAll(async () => {
    fleet = await startInProcessFleet(2, { tokenKey: randomBytes(32) });
    ({ sandbox, client, gateways: replicas } = fleet);
    // Both replicas have joined Redis (the fleet helper waits for /readyz); one verdict laid there already.
    for (const replica of replicas) await replica.verifier.verify(`Bearer ${sandbox.tokens.reader}`);
  });
  afterAll(() => fleet?.close());

  const identityCalls = (): number => sandbox.control.calls().byRoute[IDENTITY_ROUTE] ?? 0;
  const reserve = (replica: RunningGateway, token: string): Promise<Response> => fetch(replica.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });

  it('asks the platform once for a token, whichever replica sees it, and keeps no token in Redis', async () => {
    const [a, b] = replicas as [RunningGateway, RunningGateway];
    const token = sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, fleet: 'verdicts' });
    sandbox.control.resetCalls();
    expect((await reserve(a, token)).status).toBe(201);
    expect((await reserve(b, token)).status).toBe(201);
    expect(identityCalls()).toBe(1);
    // A junk token's refusal is shared too.
    const junk = randomBytes(24).toString('base64url');
    expect((await reserve(a, junk)).status).toBe(401);
    expect((await reserve(b, junk)).status).toBe(401);
    expect(identityCalls()).toBe(2);
    const keys = await client.keys('netgraph:caller:*');
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const values = await Promise.all(keys.map((key) => client.get(key)));
    const dump = JSON.stringify([keys, values]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(junk);
    expect(dump).not.toContain(token.split('.')[2] ?? 'never');
  });
});
