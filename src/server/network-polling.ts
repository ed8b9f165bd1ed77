/**
 * The `networkChanges` pollers' settings and meter: the pace bounds from the configuration, and a
 * histogram of the upstream calls each poll sent (`_count` is the polls, `_sum` their calls), so
 * /metrics shows what following networks costs the platform; what a poll saw change goes to
 * `changed` (the upstream cache forgets the network's reads).
 */
import { Histogram, type Registry } from 'prom-client';
import type { SubscriptionSettings } from '../config';
import type { NetworkPolling } from '../context';

export function createNetworkPolling(
  settings: Pick<SubscriptionSettings, 'networkPollIntervalMs' | 'networkPollMaxIntervalMs'>,
  registry: Registry,
  changed?: (networkId: string) => void,
): NetworkPolling {
  const calls = new Histogram({
    name: 'netgraph_network_poll_upstream_calls',
    help: 'Upstream calls of one networkChanges poll (retries included): _count is the polls, _sum their calls.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    registers: [registry],
  });
  return {
    intervalMs: settings.networkPollIntervalMs,
    maxIntervalMs: settings.networkPollMaxIntervalMs,
    countPoll: (upstreamCalls) => calls.observe(upstreamCalls),
    ...(changed ? { changed } : {}),
  };
}
