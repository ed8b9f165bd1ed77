import { BudgetExceededError } from '../../../../src/errors/codes';
import { Cancellation } from '../../../../src/core/cancellation';
import { compose, type Interceptor } from '../../../../src/upstream/chain/call';
import { callerQuota } from '../../../../src/upstream/chain/caller-quota';
import { requestBudget } from '../../../../src/upstream/chain/request-budget';
import { retry } from '../../../../src/upstream/chain/retry';
import { fakeCall, rejection, scriptedSend, testHealth } from '../../../helpers/upstream-call';

const policy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 1000 };

/** A step that answers without the network, as a cache hit or a shared call does. */
const answersItself: Interceptor = { name: 'hit', wrap: () => (call) => {
  call.outcome = 'hit';
  return Promise.resolve({ status: 200, headers: {}, body: null, text: '' });
} };

function budget(max: number): { signal: Cancellation; spendCall(): void; spent: number } {
  return {
    signal: new Cancellation(),
    spent: 0,
    spendCall() {
      if (this.spent >= max) throw new BudgetExceededError('upstreamCalls', max, 'no calls left');
      this.spent += 1;
    },
  };
}

describe('caller quota and request budget', () => {
  it('charge the budget and the call count per attempt that leaves, the quota once per call', async () => {
    const spendQuota = jest.fn(() => Promise.resolve());
    const b = budget(10);
    const calls = { count: 0 };
    const send = scriptedSend([503, 503, 200]);
    await compose([callerQuota, requestBudget, retry(policy, testHealth())], send)(fakeCall({ spendQuota, caller: { budget: b, calls } }));
    expect(send.attempts).toEqual([1, 2, 3]);
    expect(b.spent).toBe(3);
    expect(calls.count).toBe(3);
    expect(spendQuota).toHaveBeenCalledTimes(1);
  });

  it('charge nothing for an answer that did not need the network', async () => {
    const spendQuota = jest.fn(() => Promise.resolve());
    const b = budget(10);
    const calls = { count: 0 };
    const send = scriptedSend([200]);
    await compose([callerQuota, requestBudget, answersItself, retry(policy, testHealth())], send)(fakeCall({ spendQuota, caller: { budget: b, calls } }));
    expect(send.attempts).toEqual([]);
    expect([b.spent, calls.count, spendQuota.mock.calls.length]).toEqual([0, 0, 0]);
  });

  it('send nothing when a charge refuses', async () => {
    const send = scriptedSend([200]);
    const refused = await rejection(compose([requestBudget, retry(policy, testHealth())], send)(fakeCall({ caller: { budget: budget(0) } })));
    expect(refused).toBeInstanceOf(BudgetExceededError);
    const quotaRefusal = new Error('quota');
    const refusedByQuota = await rejection(compose([callerQuota, retry(policy, testHealth())], send)(fakeCall({ spendQuota: () => Promise.reject(quotaRefusal) })));
    expect(refusedByQuota).toBe(quotaRefusal);
    expect(send.attempts).toEqual([]);
  });
});
