import { Registry } from 'prom-client';
import { compose } from '../../../../src/upstream/chain/call';
import { metrics } from '../../../../src/upstream/chain/metrics';
import { requestBudget } from '../../../../src/upstream/chain/request-budget';
import { retry } from '../../../../src/upstream/chain/retry';
import { BudgetExceededError } from '../../../../src/errors/codes';
import { Cancellation } from '../../../../src/core/cancellation';
import { fakeCall, rejection, scriptedSend, testHealth } from '../../../helpers/upstream-call';

async function counts(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('netgraph_upstream_request_duration_seconds')?.get();
  const out: Record<string, number> = {};
  for (const v of metric?.values ?? []) if ('metricName' in v && String(v.metricName).endsWith('_count')) out[String(v.labels['status_class'])] = v.value;
  return out;
}

describe('the metrics step', () => {
  it('observes each attempt that left by status class, and none that was refused', async () => {
    const registry = new Registry();
    const policy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 };
    const observe = metrics(registry);
    await compose([retry(policy, testHealth()), observe], scriptedSend(['reset', 503, 200]))(fakeCall());
    expect(await counts(registry)).toEqual({ error: 1, '5xx': 1, '2xx': 1 });
    const noBudget = { signal: new Cancellation(), spendCall: () => { throw new BudgetExceededError('upstreamCalls', 0, 'none'); } };
    await rejection(compose([requestBudget, retry(policy, testHealth()), observe], scriptedSend([200]))(fakeCall({ caller: { budget: noBudget } })));
    expect(await counts(registry)).toEqual({ error: 1, '5xx': 1, '2xx': 1 });
  });
});
