/**
 * The in-process provisioning store: runs counted in all and per owner (RATE_LIMITED with
 * retryAfter past either), records kept up to a count (the oldest finished go first, an owner's
 * own before anybody else's), and ownership.
 */
import { ErrorCode } from '../../../src/errors/codes';
import { createProvisioningJobs } from '../../../src/state/memory/provisionings';
import { controlledRuns, fields, owner } from '../../helpers/provisioning-runs';

it('caps the runs of one owner at its share, and in all, with RATE_LIMITED and retryAfter', async () => {
  const runs = controlledRuns();
  const jobs = createProvisioningJobs({ maxRunning: 3, maxRunningPerOwner: 2, maxRetained: 100, retainMs: 60_000 }, runs.run);
  await jobs.start(owner('alice'), fields, []);
  await jobs.start(owner('alice'), fields, []);
  await expect(jobs.start(owner('alice'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, limit: 'provisionings', scope: 'caller', retryAfter: expect.any(Number) });
  await jobs.start(owner('bob'), fields, []);
  await expect(jobs.start(owner('carol'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'gateway' });
  expect(jobs.running()).toBe(3);
  await runs.finishAll();
  expect(jobs.running()).toBe(0);
  await expect(jobs.start(owner('alice'), fields, [])).resolves.toMatchObject({ state: 'RUNNING' });
  await runs.finishAll();
  await jobs.close();
});

it('keeps at most the retained count: the oldest finished records go first, the owner\'s own before others\'', async () => {
  const runs = controlledRuns();
  // 8 records in all, 2 per owner.
  const jobs = createProvisioningJobs({ maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 8, retainMs: 60_000 }, runs.run);
  const bob = await jobs.start(owner('bob'), fields, []);
  const a1 = await jobs.start(owner('alice'), fields, []);
  await runs.finishAll();
  const a2 = await jobs.start(owner('alice'), fields, []);
  await runs.finishAll();
  // alice is at her share: her oldest finished record makes room, bob's stays.
  const a3 = await jobs.start(owner('alice'), fields, []);
  expect(await jobs.get(a1.id, 'alice')).toBeNull();
  expect(await jobs.get(a2.id, 'alice')).not.toBeNull();
  expect(await jobs.get(a3.id, 'alice')).not.toBeNull();
  expect(await jobs.get(bob.id, 'bob')).not.toBeNull();
  // With both of alice's records still running, a third cannot be kept.
  await jobs.start(owner('alice'), fields, []).then(async () => {
    await expect(jobs.start(owner('alice'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'caller' });
  });
  await runs.finishAll();
  await jobs.close();
});

it('answers a record only to its owner, and watches it to the end', async () => {
  const runs = controlledRuns();
  const jobs = createProvisioningJobs({ maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 10, retainMs: 60_000 }, runs.run);
  const started = await jobs.start(owner('alice'), fields, []);
  expect(await jobs.get(started.id, 'bob')).toBeNull();
  await expect(jobs.watch(started.id, 'bob', new AbortController().signal).next()).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  const events: string[] = [];
  const watching = (async () => {
    for await (const record of jobs.watch(started.id, 'alice', new AbortController().signal)) events.push(record.state);
  })();
  await new Promise((r) => setImmediate(r));
  await runs.finishAll();
  await watching;
  expect(events).toEqual(['RUNNING', 'SUCCEEDED']);
  await jobs.close();
});
