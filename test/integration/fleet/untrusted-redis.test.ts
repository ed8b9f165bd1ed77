/**
 * Redis as an untrusted store, over a real redis-server: what a replica reads back and acts on is
 * authenticated with the fleet key or checked against its own content, whoever wrote it.
 *
 * - A verdict forged in Redis (a junk token marked accepted under a victim's identity: the victim's
 *   own MAC'd verdict copied to the junk token's key, or one written without the key) is ignored
 *   and counted; the platform is asked, and refuses the junk token.
 * - A persisted query's document swapped in Redis (a mutation in place of the registered query)
 *   does not run: its text does not hash to its name, so it is unknown (counted).
 * - A provisioning entry written back at an older version (authentic, MAC and all: a replay) is
 *   neither shown nor resumed by a replica that saw a newer one (counted).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import type { StoredEntry } from '../../../src/provisioning/store';
import { RedisLink } from '../../../src/state/redis/link';
import { createRedisProvisioningStore } from '../../../src/state/redis/provisionings';
import type { UntrustedKind } from '../../../src/state/redis/untrusted';
import { fields } from '../../helpers/provisioning-runs';
import { redisTestsEnabled } from '../../helpers/redis-server';
import { startInProcessFleet, type InProcessFleet } from '../../helpers/in-process-fleet';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;
const roomy = { maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 100, retainMs: 60_000 };

describeFleet('what Redis holds is not trusted as written', () => {
  let fleet: InProcessFleet;
  let sandbox: RunningSandbox;
  let replicas: RunningGateway[] = [];
  let client: Redis;
  const links: RedisLink[] = [];

  beforeAll(async () => {
    fleet = await startInProcessFleet(2, { tokenKey: randomBytes(32) });
    ({ sandbox, client, gateways: replicas } = fleet);
  });
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
    await fleet?.close();
  });

  const reserve = (replica: RunningGateway, token: string): Promise<Response> => fetch(replica.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
  const untrusted = async (replica: RunningGateway, kind: UntrustedKind): Promise<number> => {
    const text = await (await fetch(replica.metricsUrl)).text();
    return Number(new RegExp(`^netgraph_fleet_untrusted_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };

  it('ignores a verdict forged in Redis, counts it, and asks the platform', async () => {
    const [a, b] = replicas as [RunningGateway, RunningGateway];
    const victim = `Bearer ${sandbox.tokens.admin}`;
    await a.verifier.verify(victim);
    const stored = await client.get(`netgraph:caller:${a.verifier.tokenHash(victim)}`);
    if (stored === null) throw new Error("the victim's verdict in Redis");
    const identity = (JSON.parse((JSON.parse(stored) as { verdict: string }).verdict) as { identity: unknown }).identity;

    // The victim's authentic verdict, copied to a junk token's key: its MAC names another token.
    const copied = randomBytes(24).toString('base64url');
    await client.set(`netgraph:caller:${b.verifier.tokenHash(`Bearer ${copied}`)}`, stored, 'PX', 600_000);
    // A verdict written without the key (as a writer of Redis would), expiring far away.
    const written = randomBytes(24).toString('base64url');
    const forged = JSON.stringify({ accepted: true, identity });
    await client.set(`netgraph:caller:${b.verifier.tokenHash(`Bearer ${written}`)}`, JSON.stringify({ verdict: forged, expiresAt: Date.now() + 600_000, mac: 'AAAA' }), 'PX', 600_000);

    const before = await untrusted(b, 'verdict');
    sandbox.control.resetCalls();
    expect((await reserve(b, copied)).status).toBe(401);
    expect((await reserve(b, written)).status).toBe(401);
    expect(await untrusted(b, 'verdict')).toBe(before + 2);
    // The platform was asked about each (and refused both).
    expect(sandbox.control.calls().byRoute['GET /identity/v1/organization']).toBe(2);
  });

  it('does not run a persisted query whose document was swapped in Redis', async () => {
    const [a, b] = replicas as [RunningGateway, RunningGateway];
    const query = '{ gatewayInfo { version } }';
    const hash = createHash('sha256').update(query).digest('hex');
    const token = sandbox.tokens.admin;
    const send = (replica: RunningGateway, body: Record<string, unknown>) =>
      fetch(replica.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }>,
      );
    const persisted = { persistedQuery: { version: 1, sha256Hash: hash } };
    expect((await send(a, { query, extensions: persisted })).errors).toBeUndefined();
    await waitUntil(async () => (await client.hexists('netgraph:apq:documents', hash)) === 1, 'the registration in Redis');

    // A writer of Redis puts a mutation under the query's hash.
    const networkId = randomUUID();
    await client.hset('netgraph:apq:documents', hash, `mutation { deleteNetwork(id: "${networkId}") { accepted } }`);
    sandbox.control.resetCalls();
    const before = await untrusted(b, 'persisted-query');
    const answer = await send(b, { extensions: persisted });
    expect(answer.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(answer.data ?? null).toBeNull();
    expect(await untrusted(b, 'persisted-query')).toBe(before + 1);
    expect(JSON.stringify(sandbox.control.requests())).not.toContain(networkId);
    // The client sends its document again, as APQ clients do: it runs, and is what Redis holds again.
    expect((await send(b, { query, extensions: persisted })).data).toMatchObject({ gatewayInfo: { version: expect.any(String) } });
  });

  it('neither shows nor resumes a provisioning entry written back at an older version', async () => {
    const link = new RedisLink(fleet.redis.url, () => undefined);
    links.push(link);
    await waitUntil(() => link.isUp, 'the Redis link up');
    const refused: UntrustedKind[] = [];
    const store = createRedisProvisioningStore({ link, tokenKey: randomBytes(32), warn: () => undefined, untrusted: (kind) => refused.push(kind) });
    const id = randomUUID();
    const first: StoredEntry = { owner: 'id:owner', version: 1, record: { id, ...structuredClone(fields) }, actions: [] };
    expect(await store.reserve(first, '', roomy)).toBe('ok');
    const older = await client.get(`netgraph:prov:${id}`);
    if (older === null) throw new Error('the entry in Redis');
    const second: StoredEntry = { ...first, version: 2, record: { ...first.record, steps: [] } };
    expect(await store.write(second, '')).toBe(true);
    await expect(store.read(id)).resolves.toMatchObject({ version: 2 });

    // The first entry, MAC and all, written back over the second.
    await client.set(`netgraph:prov:${id}`, older);
    await expect(store.read(id)).resolves.toBeNull();
    await link.client.del(`netgraph:prov:${id}:run`);
    const claimed = await store.claim(id);
    expect(claimed.kind).toBe('altered');
    // Ended from here, its FAILED record is newer than any seen, and reads again.
    if (claimed.kind === 'altered') expect(claimed.entry.version).toBe(2);
    expect(refused).toEqual(['provisioning-entry', 'provisioning-entry']);
  });
});
