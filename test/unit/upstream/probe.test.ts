/**
 * Probes are shared: one round in flight, its result reused for `cacheMs`; an operation's budget
 * pays only for the requests its own round sends, before they are sent.
 */
import { createSharedProbe, type ProbeTarget } from '../../../src/upstream/probe';
import { json, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream';

let upstream: FakeUpstream;
let targets: ProbeTarget[];

beforeEach(async () => {
  upstream = await startFakeUpstream((_req, res) => json(res, 404, { message: 'no route' }));
  targets = [
    { service: 'rest-v1', url: `${upstream.url}/rest/v1/` },
    { service: 'core-v2', url: `${upstream.url}/core/v2/` },
  ];
});

afterEach(() => upstream.close());

it('answers 200 concurrent checks with one round, even with no reuse after it', async () => {
  const probe = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 0 });
  const answers = await Promise.all(Array.from({ length: 200 }, () => probe.check()));
  expect(upstream.requests).toHaveLength(2);
  for (const checks of answers) expect(checks.map((c) => [c.service, c.reachable, c.status])).toEqual([['rest-v1', true, 404], ['core-v2', true, 404]]);
  // With no reuse, the next check sends a new round.
  await probe.check();
  expect(upstream.requests).toHaveLength(4);
});

it('reuses a finished round for cacheMs, then probes again', async () => {
  let now = 0;
  const probe = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 1000, now: () => now });
  await probe.check();
  now = 999;
  await probe.check();
  expect(upstream.requests).toHaveLength(2);
  now = 2000;
  await probe.check();
  expect(upstream.requests).toHaveLength(4);
});

it('charges a new round to its asker, request by request before any is sent, and nothing for a shared one', async () => {
  const probe = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 60_000 });
  let spent = 0;
  const spend = (): void => {
    spent += 1;
  };
  await probe.check({ spend });
  await probe.check({ spend });
  expect(spent).toBe(2);
  expect(upstream.requests).toHaveLength(2);

  const refused = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 60_000 });
  const broke = new Error('budget crossed');
  await expect(
    refused.check({
      spend: () => {
        throw broke;
      },
    }),
  ).rejects.toBe(broke);
  expect(upstream.requests).toHaveLength(2);
});

it("stops one asker's wait on its signal without stopping the round the others wait for", async () => {
  const probe = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 0 });
  const controller = new AbortController();
  const leaving = probe.check({ signal: controller.signal });
  const staying = probe.check();
  controller.abort(new Error('client gone'));
  await expect(leaving).rejects.toThrow('client gone');
  expect((await staying).every((c) => c.reachable)).toBe(true);
  expect(upstream.requests).toHaveLength(2);
});

it('reports an origin that does not answer as unreachable', async () => {
  await upstream.close();
  const probe = createSharedProbe(targets, { timeoutMs: 2000, cacheMs: 0 });
  expect((await probe.check()).map((c) => [c.reachable, c.status])).toEqual([
    [false, null],
    [false, null],
  ]);
});
