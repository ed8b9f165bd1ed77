/**
 * The provisioning lifecycle (src/provisioning/lifecycle.ts) is one algorithm over a
 * `ProvisioningStore`; the same scenarios run against the store of one process and the fleet's
 * store over a real redis-server. First the store itself: reservations with the limits (the
 * ledger in memory, the START script in Redis) answer alike, step for step. Then the lifecycle:
 * watch sees each change until the run is over, owners see only their own, a change is in the
 * store before `checkpoint` lets a create go, a crashed run ends FAILED. And, in Redis, a run
 * handed over on close is resumed by another replica from its last recorded step, with the
 * owner's token, its create not sent again.
 */
import { Registry } from 'prom-client';
import { ErrorCode } from '../../../src/errors/codes';
import type { ProvisioningOwner } from '../../../src/provisioning/jobs';
import { createProvisionings } from '../../../src/provisioning/lifecycle';
import type { LimitAnswer, ProvisioningLimits } from '../../../src/provisioning/limits';
import type { ProvisioningRecord, StepRecord } from '../../../src/provisioning/records';
import type { RunHandle } from '../../../src/provisioning/runner';
import type { ProvisioningStore, StoredEntry } from '../../../src/provisioning/store';
import { createMemoryProvisioningStore } from '../../../src/state/memory/provisionings';
import { createFleetMetrics } from '../../../src/state/redis/metrics';
import { createFleetProvisionings, createRedisProvisioningStore } from '../../../src/state/redis/provisionings';
import type { RedisLink } from '../../../src/state/redis/link';
import { controlledRuns, fields, owner } from '../../helpers/provisioning-runs';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;
const roomy: ProvisioningLimits = { maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 100, retainMs: 60_000 };

let redis: TestRedis | undefined;
const links = redisLinks(() => redis);
const upLink = (): Promise<RedisLink> => links.up();

type StoreFactory = (limits: ProvisioningLimits) => Promise<ProvisioningStore>;
const stores: Array<[string, StoreFactory]> = [
  ['in this process', async (limits) => createMemoryProvisioningStore(limits)],
  [
    'in Redis',
    async () => {
      const link = await upLink();
      await link.client.flushdb();
      return createRedisProvisioningStore({ link, tokenKey: null, warn: () => undefined });
    },
  ],
];

const entry = (who: string, id: string): StoredEntry => ({ owner: who, version: 1, record: { id, ...structuredClone(fields) }, actions: [] });
const finished = (e: StoredEntry): StoredEntry => ({ ...e, version: e.version + 1, record: { ...e.record, state: 'SUCCEEDED', finishedAt: new Date().toISOString() } });

/** A step as the runner records it once its create may have been sent. */
const sentStep = (): StepRecord => ({
  index: 0,
  task: 'network',
  description: 'create the network',
  state: 'RUNNING',
  resourceKind: 'network',
  resourceId: null,
  resourceName: 'n1',
  created: false,
  changeSent: true,
  statusName: null,
  businessKey: null,
  error: null,
  rollback: 'NONE',
  rollbackError: null,
  startedAt: new Date().toISOString(),
  finishedAt: null,
});

describeFleet.each(stores)('provisioning store %s', (_name, make) => {
  beforeAll(async () => {
    redis ??= await startRedis();
  });

  // Each row reserves (owner, id) expecting an answer, finishes an id, or lets time pass; then which records are gone and which kept.
  type Row = ['reserve', string, string, LimitAnswer] | ['finish', string] | ['pause'];
  interface Scenario {
    name: string;
    limits: ProvisioningLimits;
    rows: Row[];
    gone: string[];
    kept: string[];
  }
  const scenarios: Scenario[] = [
    {
      name: 'runs per owner, then in all',
      limits: { maxRunning: 3, maxRunningPerOwner: 2, maxRetained: 100, retainMs: 60_000 },
      rows: [
        ['reserve', 'alice', 'a1', 'ok'],
        ['reserve', 'alice', 'a2', 'ok'],
        ['reserve', 'alice', 'a3', 'running:caller'],
        ['reserve', 'bob', 'b1', 'ok'],
        ['reserve', 'carol', 'c1', 'running:gateway'],
        ['finish', 'a1'],
        ['reserve', 'carol', 'c2', 'ok'],
      ],
      gone: [],
      kept: ['a1', 'a2', 'b1', 'c2'],
    },
    {
      // 4 records in all, 1 per owner.
      name: "records per owner (its own oldest finished first), then in all (anybody's)",
      limits: { maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 4, retainMs: 60_000 },
      rows: [
        ['reserve', 'alice', 'a1', 'ok'],
        ['reserve', 'alice', 'a2', 'retained:caller'],
        ['finish', 'a1'],
        ['reserve', 'alice', 'a3', 'ok'],
        ['reserve', 'bob', 'b1', 'ok'],
        ['reserve', 'carol', 'c1', 'ok'],
        ['reserve', 'dave', 'd1', 'ok'],
        ['reserve', 'erin', 'e1', 'retained:gateway'],
        // (apart in time: which of two finished in the same millisecond goes first is not part of the rule)
        ['finish', 'c1'],
        ['pause'],
        ['finish', 'b1'],
        ['reserve', 'erin', 'e2', 'ok'],
      ],
      gone: ['a1', 'c1'],
      kept: ['a3', 'b1', 'd1', 'e2'],
    },
    {
      name: 'records past their time',
      limits: { maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 100, retainMs: 1 },
      rows: [['reserve', 'alice', 'a1', 'ok'], ['finish', 'a1'], ['pause'], ['reserve', 'bob', 'b1', 'ok']],
      gone: ['a1'],
      kept: ['b1'],
    },
  ];

  it.each(scenarios)('reserves with the limits atomically, as limits.ts says: $name', async ({ limits, rows, gone, kept }) => {
    const store = await make(limits);
    const reserved = new Map<string, StoredEntry>();
    const answers: string[] = [];
    for (const row of rows) {
      if (row[0] === 'pause') await new Promise((resolve) => setTimeout(resolve, 20));
      else if (row[0] === 'reserve') {
        const e = entry(row[1], row[2]);
        const answer = await store.reserve(e, '', limits);
        answers.push(`${row[2]}:${answer}`);
        if (answer === 'ok') reserved.set(row[2], e);
      } else {
        const e = reserved.get(row[1]);
        if (e === undefined) throw new Error(`no ${row[1]}`);
        expect(await store.finish(finished(e), limits)).toBe(true);
      }
    }
    expect(answers).toEqual(rows.flatMap((r) => (r[0] === 'reserve' ? [`${r[2]}:${r[3]}`] : [])));
    const known = async (ids: string[]): Promise<string[]> => (await Promise.all(ids.map(async (id) => ((await store.read(id)) === null ? [] : [id])))).flat();
    expect(await known(gone)).toEqual([]);
    expect(await known(kept)).toEqual(kept);
  });

  it('tells a listener each write, and reads back what was written', async () => {
    const store = await make(roomy);
    const e = entry('alice', 'w1');
    expect(await store.reserve(e, '', roomy)).toBe('ok');
    const seen: number[] = [];
    const stop = await store.changes('w1', (change) => seen.push(change.version));
    await store.write({ ...e, version: 2 }, '');
    await store.finish(finished({ ...e, version: 2 }), roomy);
    await waitUntil(() => seen.length === 2, () => `two changes (${seen.join(',')})`);
    stop();
    expect(seen).toEqual([2, 3]);
    expect(await store.read('w1')).toMatchObject({ owner: 'alice', version: 3, record: { state: 'SUCCEEDED' } });
  });
});

describeFleet.each(stores)('provisioning lifecycle over the store %s', (_name, make) => {
  beforeAll(async () => {
    redis ??= await startRedis();
  });

  async function lifecycle(run: Parameters<typeof createProvisionings>[1]['run']) {
    const store = await make(roomy);
    const jobs = createProvisionings(store, { limits: roomy, run });
    return { store, jobs };
  }

  it('watch sees the record, each change, and ends once the run is over; owners see only their own', async () => {
    const runs = controlledRuns();
    const { jobs } = await lifecycle(runs.run);
    const started = await jobs.start(owner('alice'), fields, []);
    const watched: string[] = [];
    const controller = new AbortController();
    const watching = (async () => {
      for await (const record of jobs.watch(started.id, 'alice', controller.signal)) watched.push(`${record.state}:${record.networkId ?? '-'}`);
    })();
    await waitUntil(() => watched.length === 1, () => 'the first record');
    const handle = runs.handles[0];
    if (handle === undefined) throw new Error('no run');
    handle.change((r) => (r.networkId = 'n1'));
    await waitUntil(() => watched.length === 2, () => `the change (${watched.join(',')})`);
    await runs.finishAll();
    await watching;
    expect(watched).toEqual(['RUNNING:-', 'RUNNING:n1', 'SUCCEEDED:n1']);
    await waitUntil(() => jobs.running() === 0, () => 'the run over');
    await expect(jobs.get(started.id, 'alice')).resolves.toMatchObject({ state: 'SUCCEEDED', networkId: 'n1' });
    await expect(jobs.get(started.id, 'bob')).resolves.toBeNull();
    const other = jobs.watch(started.id, 'bob', controller.signal);
    await expect(other.next()).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await jobs.close();
  });

  it('has a change in the store before checkpoint lets its create go', async () => {
    let checkpointed: StoredEntry | null = null;
    let store: ProvisioningStore | null = null;
    const run = async (_o: ProvisioningOwner, handle: RunHandle): Promise<void> => {
      handle.change((r) => (r.steps = [sentStep()]));
      await handle.checkpoint();
      checkpointed = (await store?.read(handle.record.id)) ?? null;
      handle.change((r) => Object.assign(r, { state: 'SUCCEEDED', finishedAt: new Date().toISOString() }));
    };
    const made = await lifecycle(run);
    store = made.store;
    const started = await made.jobs.start(owner('alice'), fields, []);
    await waitUntil(() => made.jobs.running() === 0, () => 'the run over');
    expect(checkpointed).toMatchObject({ record: { id: started.id, steps: [{ changeSent: true }] } });
    await made.jobs.close();
  });

  it('ends a run that throws FAILED, saying why', async () => {
    const { jobs } = await lifecycle(() => Promise.reject(new Error('a bug')));
    const started = await jobs.start(owner('alice'), fields, []);
    await waitUntil(() => jobs.running() === 0, () => 'the run over');
    await expect(jobs.get(started.id, 'alice')).resolves.toMatchObject({ state: 'FAILED', error: { code: 'INTERNAL_SERVER_ERROR', message: 'a bug' } });
    await jobs.close();
  });
});

describeFleet('provisioning lifecycle in Redis: handover', () => {
  beforeAll(async () => {
    redis ??= await startRedis();
  });
  afterAll(async () => {
    await links.closeAll();
    await redis?.close();
  });

  it('resumes a run handed over on close from its last recorded step, with the owner token, its create not sent again', async () => {
    const tokenKey = Buffer.alloc(32, 7);
    const sealing: ProvisioningOwner = { fingerprint: 'alice', verify: () => Promise.resolve(), sealCredential: (seal) => seal('Bearer alice-token') };
    const one = await upLink();
    await one.client.flushdb();
    const two = await upLink();
    const creates: string[] = [];
    const resumedWith: string[] = [];
    // Sends its create once its step says the change may have been sent, unless a resumed run finds it so.
    const run = async (o: ProvisioningOwner & { token?: string }, handle: RunHandle, _a: unknown, signal: AbortSignal): Promise<void> => {
      if (o.token !== undefined) resumedWith.push(o.token);
      if (handle.record.steps[0]?.changeSent !== true) {
        handle.change((r) => (r.steps = [sentStep()]));
        await handle.checkpoint();
        creates.push(handle.record.id);
        // The replica stops here (its close hands the run over).
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        return;
      }
      handle.change((r) => Object.assign(r, { state: 'SUCCEEDED', finishedAt: new Date().toISOString() }));
    };
    const replica = (link: RedisLink) =>
      createFleetProvisionings<ProvisioningOwner & { token?: string }>({
        link,
        limits: roomy,
        run,
        ownerFor: (token, ownerKey) => ({ fingerprint: ownerKey, token, verify: () => Promise.resolve(), sealCredential: () => null }),
        tokenKey,
        metrics: createFleetMetrics(new Registry()),
        warn: () => undefined,
      });
    const first = replica(one);
    const second = replica(two);
    const started = await first.start(sealing, fields, []);
    await waitUntil(() => creates.length === 1, () => 'the create sent');
    await first.close();
    let record: ProvisioningRecord | null = null;
    await waitUntil(() => second.running() === 0 && resumedWith.length === 1, () => 'the run resumed and over', 10_000);
    record = await second.get(started.id, 'alice');
    expect(record).toMatchObject({ state: 'SUCCEEDED', steps: [{ changeSent: true }] });
    expect(resumedWith).toEqual(['Bearer alice-token']);
    expect(creates).toEqual([started.id]);
    await second.close();
  }, 20_000);
});
