import { Faults, parseFaultRules } from '../../../src/sandbox/core/faults';

const T = '/rest/v1/networks/{networkId}/endpoints';
const P = '/rest/v1/networks/abc/endpoints';

describe('sandbox fault rules', () => {
  it('match by template, glob, ** glob and ^regex; method filter', () => {
    const cases: Array<[string, boolean]> = [
      [T, true],
      [`${T}/`, true],
      ['/rest/v1/networks/*/endpoints', true],
      ['/rest/v1/**', true],
      ['^/rest/v1/networks/[a-c]+/', true],
      ['/rest/v1/networks/*', false],
      ['/rest/v1/networks/{networkId}', false],
    ];
    for (const [route, expected] of cases) {
      const faults = new Faults();
      faults.set([{ route, errorRate: 1 }]);
      expect([route, faults.decide('GET', P, T).errorStatus !== null]).toEqual([route, expected]);
    }
    const faults = new Faults();
    faults.set([{ method: 'post', route: T, errorRate: 1, status: 429 }]);
    expect(faults.decide('GET', P, T).errorStatus).toBeNull();
    expect(faults.decide('POST', P, T).errorStatus).toBe(429);
  });

  it('the first matching rule wins, and `times` counts down then removes the rule', () => {
    const faults = new Faults();
    faults.set([{ route: T, reset: true, times: 1 }, { route: T, latencyMs: 10 }]);
    expect(faults.decide('GET', P, T)).toEqual({ delayMs: 0, reset: true, errorStatus: null, retryAfterS: null, slowBodyMs: 0 });
    expect(faults.decide('GET', P, T)).toEqual({ delayMs: 10, reset: false, errorStatus: null, retryAfterS: null, slowBodyMs: 0 });
    expect(faults.list()).toEqual([{ route: T, latencyMs: 10 }]);
  });

  it('`times: 0` applies to no call', () => {
    const faults = new Faults();
    faults.set([{ errorRate: 1, times: 0 }]);
    expect(faults.decide('GET', P, T).errorStatus).toBeNull();
  });

  it('errorRate 0 never fails; jitter stays within bounds', () => {
    const faults = new Faults();
    faults.set([{ errorRate: 0, latencyMs: 5, jitterMs: 10 }]);
    for (let i = 0; i < 50; i++) {
      const d = faults.decide('GET', P, T);
      expect(d.errorStatus).toBeNull();
      expect(d.delayMs).toBeGreaterThanOrEqual(5);
      expect(d.delayMs).toBeLessThan(15);
    }
  });

  it('parses a rule, a list or { rules }, and rejects bad values with 400', () => {
    expect(parseFaultRules({ route: T, errorRate: 1 })).toEqual([{ route: T, errorRate: 1 }]);
    expect(parseFaultRules([{ reset: true }, { latencyMs: 3 }])).toHaveLength(2);
    expect(parseFaultRules({ rules: [{ times: 2 }] })).toEqual([{ times: 2 }]);
    for (const bad of [{ errorRate: -1 }, { reset: 'yes' }, { route: 5 }, { status: 302 }, { latencyMs: -5 }, { route: '^[' }, 7]) {
      expect(() => parseFaultRules(bad)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});
