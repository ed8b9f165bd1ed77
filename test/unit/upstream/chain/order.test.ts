import { compose, type Interceptor } from '../../../../src/upstream/chain/call';
import { createUpstreamChain } from '../../../../src/upstream/chain';
import { metrics } from '../../../../src/upstream/chain/metrics';
import { retry } from '../../../../src/upstream/chain/retry';
import { fakeCall, scriptedSend, testHealth } from '../../../helpers/upstream-call';

const once = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 };

describe('the upstream chain', () => {
  it('declares its steps in one order, target first and send last', () => {
    const chain = createUpstreamChain(
      { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 }, metrics: undefined, health: testHealth() },
      { bases: new Map(), searchAuthorization: null },
      scriptedSend([200]),
    );
    expect(chain.names).toEqual(['link target check', 'caller quota', 'request budget', 'trace span', 'cache', 'in-flight sharing', 'breaker and window', 'pool share', 'retry', 'metrics', 'send']);
  });

  it('composes interceptors outermost first', async () => {
    const seen: string[] = [];
    const step = (name: string): Interceptor => ({
      name,
      wrap: (next) => async (call) => {
        seen.push(`${name} in`);
        const response = await next(call);
        seen.push(`${name} out`);
        return response;
      },
    });
    await compose([step('a'), step('b'), retry(once, testHealth())], scriptedSend([200]))(fakeCall());
    expect(seen).toEqual(['a in', 'b in', 'b out', 'a out']);
  });

  it("refuses steps out of their place: a call's step after the attempts step, an attempt's before it, no attempts step", async () => {
    const passes: Interceptor = { name: 'passes', wrap: (next) => next };
    expect(() => compose([retry(once, testHealth()), passes], scriptedSend([200]))).toThrow(/before the attempts step/);
    expect(() => compose([metrics(undefined), retry(once, testHealth())], scriptedSend([200]))).toThrow(/after the attempts step/);
    expect(() => compose([passes], scriptedSend([200]))).toThrow(/attempts step/);
  });
});
