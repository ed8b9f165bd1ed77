import { NO_ASYNC_FAILURES } from '../../../src/sandbox/core/async-failures';
import { createClock } from '../../../src/sandbox/core/clock';
import { fallbackAuthz } from '../../../src/sandbox/core/late-authz';
import { createRandom } from '../../../src/sandbox/core/random';
import type { AreaContext } from '../../../src/sandbox/core/types';
import { seedRestV1 } from '../../../src/sandbox/rest-v1/seed';
import { Store } from '../../../src/sandbox/rest-v1/store';

function context(seed = 7): AreaContext {
  const random = createRandom(seed);
  return { clock: createClock(1000), authz: fallbackAuthz, asyncFailures: NO_ASYNC_FAILURES, random: () => random.next(), uuid: () => random.uuid() };
}

describe('rest/v1 seed data', () => {
  it('is deterministic: the same size gives the same ids and names', () => {
    const a = seedRestV1(new Store(), context(), 'demo');
    const b = seedRestV1(new Store(), context(), 'demo');
    expect(b).toEqual(a);
  });

  it('tiny has 1 group, 2 networks and AppWAN memberships', () => {
    const store = new Store();
    const facts = seedRestV1(store, context(), 'tiny');
    expect(facts.organizationIds).toHaveLength(1);
    expect(facts.networkIds).toHaveLength(2);
    for (const id of facts.networks.flatMap((n) => n.appWanIds)) expect(store.members(id).endpoints.size).toBeGreaterThan(0);
  });

  it('scale multiplies the networks, each of the same shape, and keeps scale 1 as the first networks', () => {
    const one = seedRestV1(new Store(), context(), 'demo');
    const three = seedRestV1(new Store(), context(), 'demo', 3);
    expect(three.organizationIds).toHaveLength(one.organizationIds.length);
    expect(three.networks).toHaveLength(one.networks.length * 3);
    expect(three.networks.slice(0, one.networks.length)).toEqual(one.networks);
    for (const kind of ['network', 'endpoint', 'service', 'appWan', 'endpointGroup']) {
      expect({ kind, count: three.counts[kind] }).toEqual({ kind, count: (one.counts[kind] ?? 0) * 3 });
    }
    expect(seedRestV1(new Store(), context(), 'demo', 1)).toEqual(one);
    expect(() => seedRestV1(new Store(), context(), 'demo', 0)).toThrow(/scale/);
  });

  it('large: >= 5 networks, 2000 endpoints, 500 services, 40 AppWANs of tens of endpoints; endpoints in several AppWANs; under 2 s', () => {
    // CPU time, not wall time: other test workers on the machine must not make this flaky. The
    // faster of two runs, since the first also pays for JIT warm-up.
    const timings: number[] = [];
    let store = new Store();
    let facts = seedRestV1(store, context(), 'tiny');
    for (let i = 0; i < 2; i++) {
      store = new Store();
      const started = process.cpuUsage();
      facts = seedRestV1(store, context(), 'large');
      const used = process.cpuUsage(started);
      timings.push((used.user + used.system) / 1000);
    }
    expect(Math.min(...timings)).toBeLessThan(2000);
    expect(facts.counts['network']).toBeGreaterThanOrEqual(5);
    expect(facts.counts['endpoint']).toBeGreaterThanOrEqual(2000);
    expect(facts.counts['service']).toBeGreaterThanOrEqual(500);
    expect(facts.counts['appWan']).toBeGreaterThanOrEqual(40);
    const memberships = new Map<string, number>();
    for (const id of facts.networks.flatMap((n) => n.appWanIds)) {
      const m = store.members(id);
      expect(m.endpoints.size).toBeGreaterThanOrEqual(20);
      expect(m.services.size).toBeGreaterThanOrEqual(3);
      for (const e of m.endpoints) memberships.set(e, (memberships.get(e) ?? 0) + 1);
    }
    const multi = [...memberships.values()].filter((c) => c >= 2).length;
    expect(multi).toBeGreaterThan(memberships.size / 2);
  });
});
