/**
 * The subscribers scenario on a fleet (`npm run bench -- --scenario subscribers --replicas R
 * --subscribers N`): R gateway children on one Redis (redis-server on a free port, no persistence),
 * N followers of the same network on each (as bench/subscribers.ts: raw sockets, K subscriptions
 * each), one change made through the first replica. It measures what the fleet shares: one poller
 * fleet-wide (the network's polls per interval, every replica together), the change reaching every
 * replica's followers (first, p99, last: on the replica it was made through and on the others),
 * and each replica's settled memory per follower.
 */
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../src/sandbox';
// The test suites' Redis (redis-server on a free port, no persistence): one way to start it.
import { startRedis } from '../test/helpers/redis-server';
import type { GatewayMode } from './args';
import { benchGatewayEnv, startGatewayProcess, type GatewayHandle, type SettledMemory } from './gateway-launcher';
import { CREATE, Followers, networkPolls, OPENING_BATCH, percentile, POLL_INTERVAL_MS, round, sleep, until, WAIT_MS } from './subscribers';

export interface FleetSubscribersResult {
  replicas: number;
  /** Followers per replica, subscriptions per socket, and the followers that got their first event (every replica). */
  perReplica: number;
  perSocket: number;
  connected: number;
  /** Each replica's settled memory before any socket and with its followers, and the growth per follower. */
  memory: Array<{ before: SettledMemory; after: SettledMemory; rssPerFollowerBytes: number; heapPerFollowerBytes: number }>;
  /** A subscribe to its first event, every follower of the fleet (ms). */
  firstEventMs: { p50: number; p99: number; max: number };
  /** Polls of the followed network per interval, the whole fleet together (one poller fleet-wide: at most 1). */
  pollsPerInterval: number;
  /** The change, made through replica 0, to its followers and to the other replicas' (ms). */
  changeSameReplica: { first: number; p99: number; last: number };
  changeOtherReplicas: { first: number; p99: number; last: number };
  reached: number;
  pollIntervalMs: number;
  gatewayMode: GatewayMode;
}

const spread = (times: number[]): { first: number; p99: number; last: number } => {
  const sorted = [...times].sort((a, b) => a - b);
  return { first: round(sorted[0] ?? -1), p99: round(percentile(sorted, 99)), last: round(sorted[sorted.length - 1] ?? -1) };
};

export async function runFleetSubscribers(options: { replicas: number; subscribers: number; perSocket: number; gateway: GatewayMode; log(line: string): void }): Promise<FleetSubscribersResult> {
  const { replicas, perSocket } = options;
  const perReplica = options.subscribers;
  const sockets = Math.ceil(perReplica / perSocket);
  const redis = await startRedis();
  const sandbox = await startSandbox({ port: 0, seed: 'large' });
  const limit = String(perReplica + 100);
  const env = {
    ...benchGatewayEnv(sandbox),
    REDIS_URL: redis.url,
    FLEET_TOKEN_KEY: randomBytes(32).toString('hex'),
    NETWORK_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    NETWORK_POLL_MAX_INTERVAL_MS: String(POLL_INTERVAL_MS),
    WS_MAX_CONNECTIONS: limit,
    WS_CONNECTIONS_PER_CLIENT: limit,
    MAX_SUBSCRIPTIONS_PER_CALLER: String(perReplica * replicas + 100),
    MAX_SUBSCRIPTIONS_PER_CONNECTION: String(Math.max(perSocket, 10)),
  };
  const gateways: GatewayHandle[] = [];
  const fleet: Followers[] = [];
  try {
    for (let i = 0; i < replicas; i += 1) gateways.push(await startGatewayProcess(options.gateway, env));
    const network = [...sandbox.restFacts().networks].sort((a, b) => b.endpointIds.length - a.endpointIds.length)[0];
    if (!network) throw new Error('the sandbox has no network');
    const before: SettledMemory[] = [];
    for (const gateway of gateways) before.push(await gateway.settledMemory());
    options.log(`subscribers (fleet): ${replicas} replicas × ${perReplica} followers (${sockets} sockets × ${perSocket}) of network ${network.id}`);
    for (const gateway of gateways) {
      const followers = new Followers(perReplica, perSocket);
      fleet.push(followers);
      const wsUrl = gateway.url.replace(/^http/, 'ws');
      for (let opened = 0; opened < sockets; opened += OPENING_BATCH) {
        const batch = Math.min(OPENING_BATCH, sockets - opened);
        for (let i = 0; i < batch; i += 1) followers.open(wsUrl, sandbox.tokens.admin, network.id, opened + i);
        await until(() => followers.firsts >= Math.min(perReplica, (opened + batch) * perSocket), WAIT_MS);
      }
    }
    const connected = fleet.reduce((sum, f) => sum + f.firsts, 0);
    const firstTimes: number[] = [];
    for (const followers of fleet) {
      for (let i = 0; i < perReplica; i += 1) {
        const at = followers.firstAt[i] ?? 0;
        if (at > 0) firstTimes.push(at - (followers.subscribedAt[i] ?? at));
      }
    }
    firstTimes.sort((a, b) => a - b);
    const memory: FleetSubscribersResult['memory'] = [];
    for (const [i, gateway] of gateways.entries()) {
      const after = await gateway.settledMemory();
      const was = before[i] ?? after;
      const n = fleet[i]?.firsts ?? 0;
      memory.push({ before: was, after, rssPerFollowerBytes: n > 0 ? Math.round((after.rss - was.rss) / n) : 0, heapPerFollowerBytes: n > 0 ? Math.round((after.heapUsed - was.heapUsed) / n) : 0 });
    }
    options.log(`subscribers (fleet): ${connected} have their first event; per follower ${memory.map((m) => `${(m.rssPerFollowerBytes / 1024).toFixed(1)} KiB`).join(', ')}`);

    const pollsAt = networkPolls(sandbox);
    await sleep(POLL_INTERVAL_MS * 8);
    const pollsPerInterval = round((networkPolls(sandbox) - pollsAt) / 8);

    const marker = `bench-fleet-${Date.now()}`;
    for (const followers of fleet) followers.marker = marker;
    const through = gateways[0];
    if (!through) throw new Error('no replica');
    const changedAt = performance.now();
    const res = await fetch(through.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE, variables: { networkId: network.id, input: { name: marker, endpointType: 'ZTCL' } } }),
    });
    const answer = await res.text();
    if (res.status >= 300 || answer.includes('"errors"')) throw new Error(`the change was refused: ${res.status} ${answer}`);
    await until(() => fleet.every((f) => f.changes >= f.firsts), WAIT_MS);
    const seenOn = (followers: Followers): number[] => Array.from(followers.changeAt.filter((t) => t > 0), (t) => t - changedAt);
    const same = fleet[0] ? seenOn(fleet[0]) : [];
    const others = fleet.slice(1).flatMap(seenOn);
    return {
      replicas,
      perReplica,
      perSocket,
      connected,
      memory,
      firstEventMs: { p50: round(percentile(firstTimes, 50)), p99: round(percentile(firstTimes, 99)), max: round(firstTimes[firstTimes.length - 1] ?? -1) },
      pollsPerInterval,
      changeSameReplica: spread(same),
      changeOtherReplicas: spread(others),
      reached: same.length + others.length,
      pollIntervalMs: POLL_INTERVAL_MS,
      gatewayMode: gateways[0]?.mode ?? options.gateway,
    };
  } finally {
    for (const followers of fleet) followers.closeAll();
    for (const gateway of gateways) await gateway.close();
    await sandbox.close();
    await redis.close();
  }
}
