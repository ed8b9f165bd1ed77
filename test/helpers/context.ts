/**
 * A gateway context for tests that run the schema in-process over a fake HttpClient (no server):
 * what the server's context factory builds, with test values for the gateway-level services.
 */
import { createContext, createPollSession, type GatewayContext, type GatewayOwner, type PollSession } from '../../src/context';
import { OperationBudget } from '../../src/limits/budget';
import { DEFAULT_LIMITS } from '../../src/limits/limits';
import { createPollerRegistry } from '../../src/pollers';
import { createProvisioningJobs } from '../../src/state/memory/provisionings';
import { Cancellation } from '../../src/core/cancellation';
import type { HttpClient } from '../../src/upstream/http-types';

export function inProcessContext(http: HttpClient, options: { batching?: boolean; cancellation?: Cancellation } = {}): GatewayContext {
  const batching = options.batching ?? true;
  const pollers = createPollerRegistry<PollSession>({ intervalMs: 10, maxIntervalMs: 10, maxErrors: 3, maxPollers: 10 });
  const owner: GatewayOwner = { fingerprint: 'test', credential: 'test', verify: () => Promise.resolve(), session: () => createPollSession(http, { batching }), sealCredential: () => null };
  const cancellation = options.cancellation ?? new Cancellation();
  return createContext({
    http,
    options: { batching },
    cancellation,
    budget: new OperationBudget(DEFAULT_LIMITS.budget, cancellation),
    authenticated: true,
    calls: { count: 0 },
    gateway: {
      info: { version: 'test', sandbox: true, searchConfigured: false },
      probeUpstreams: async () => [],
      polling: { notFoundGraceMs: 0, network: { intervalMs: 1000, maxIntervalMs: 1000, countPoll: () => undefined } },
      provisioning: { jobs: createProvisioningJobs({ maxRunning: 1, maxRunningPerOwner: 1, maxRetained: 1, retainMs: 0 }, () => Promise.resolve()), stepTimeoutMs: 1000 },
    },
    pollers: pollers.forOwner(owner),
    owner,
    admitEventSearch: () => Promise.resolve(),
  });
}
