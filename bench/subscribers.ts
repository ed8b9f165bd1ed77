/**
 * The subscribers scenario (`npm run bench -- --scenario subscribers [--subscribers N] [--per-socket K]`):
 * N followers of `networkChanges` on the largest network of the sandbox, K subscriptions on each
 * WebSocket (N/K sockets; a console tab follows more than one thing), all through one gateway (in a
 * child process, so its memory is its own). It measures what following costs as followers grow:
 * the gateway's memory per follower (resident set after all first events, less before any socket,
 * ÷ N: as read, and settled, after a full collection), how long a subscribe takes to its first
 * event, how long one change takes to reach them (from a `createEndpoint` mutation sent through
 * the gateway to the first, the 99th percentile and the last follower's event that carries it),
 * the upstream polls per interval while they follow, and what is left once they all leave. A
 * change through the gateway wakes the network's poller at once (writes wake the followers); the
 * poll interval is pinned short as well, as it was when the change was made straight to the
 * platform, so the two paths' figures compare.
 *
 * The followers are raw graphql-transport-ws sockets in this process (the gateway's memory is the
 * child's alone): each keeps three timestamps in shared typed arrays and no event, reads only a
 * message's head until the change is awaited, then finds it by a marker in the message text.
 */
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import type { GatewayMode } from './args';
import { networkGraph } from './queries/network-graph';
import { benchGatewayEnv, startGatewayProcess, type SettledMemory } from './gateway-launcher';
import { runSlowReaders, type SlowReadersResult } from './slow-readers';
import { runChurn, type ChurnResult } from './churn';

export interface SubscribersResult {
  /** Followers (subscriptions) asked for, and those that got their first event. */
  subscribers: number;
  connected: number;
  /** The followed network: its resources (first event's `resourceCount`) and the first event's size. */
  networkResources: number;
  firstEventBytes: number;
  /** Gateway RSS before any socket, and once every subscriber has its first event (bytes). */
  rssBeforeBytes: number;
  rssAfterBytes: number;
  /** (rssAfterBytes - rssBeforeBytes) ÷ connected. */
  rssPerSubscriberBytes: number;
  /** Time from the change (sent as `changeThrough` says) to the first and to the last subscriber's event carrying it (ms). */
  changeToFirstMs: number;
  changeToLastMs: number;
  /** changeToLastMs - changeToFirstMs: the gateway's fan-out of one event to every subscriber. */
  fanOutMs: number;
  /** Subscribers that got the change (all of `connected`, unless the wait ran out). */
  reached: number;
  pollIntervalMs: number;
  gatewayMode: GatewayMode;
  /** How the change was made: a mutation through the gateway (absent in runs made before it was: straight to the platform). */
  changeThrough?: 'gateway';
  /** Subscriptions per socket, and sockets (absent in runs made before: one subscription per socket). */
  perSocket?: number;
  sockets?: number;
  /** The gateway ran with `--max-semi-space-size` of this many MB (absent: V8's own young generation; runs before this field ran with 64). */
  semiSpaceMb?: number;
  /** The gateway served WARM_QUERIES whole-network queries before its baseline was read (absent: a cold gateway). */
  warm?: true;
  /** Gateway memory after a full collection, before any socket and once every follower has its first event (bytes). */
  settledBefore?: SettledMemory;
  settledAfter?: SettledMemory;
  /** (settledAfter.rss - settledBefore.rss) ÷ connected: the goal's figure (settled RSS growth per follower). */
  rssSettledPerFollowerBytes?: number;
  /** (settledAfter.heapUsed - settledBefore.heapUsed) ÷ connected. */
  heapPerFollowerBytes?: number;
  /** A subscribe message to its first event, per follower (ms). */
  firstEventMs?: { p50: number; p99: number; max: number };
  /** From the first socket opened to the last follower's first event (ms; sockets open 100 at a time). */
  firstEventsToAllMs?: number;
  /** Change to the 99th percentile follower's event carrying it (ms). */
  changeToP99Ms?: number;
  /** Polls of the followed network per poll interval while everyone follows (its record read: one per poll). */
  pollsPerInterval?: number;
  /** Followers that stopped reading during a burst of changes, and what that did to the others (bench/slow-readers.ts; absent in runs before it). */
  slowReaders?: SlowReadersResult;
  /** Followers coming and going after everyone left (`--churn`; absent: not run). */
  churn?: ChurnResult;
  /** Once every socket is gone: polls of the network in the two intervals after the first (0: the poller stopped), and settled memory. */
  pollsAfterLeaving?: number;
  settledAfterLeaving?: SettledMemory;
}

export interface SubscribersOptions {
  subscribers: number;
  /** Subscriptions per socket (default 1). */
  perSocket?: number;
  /** Serve a short query load before the baseline: the young generation's one-off growth is then in it. */
  warm?: boolean;
  /** Seconds of churn after everyone left (bench/churn.ts); none: not run. */
  churnSeconds?: number;
  /** A directory for the gateway's heap snapshots (before any socket, after every first event); none: no snapshot. */
  snapshots?: string | null;
  /** The gateway's young generation was set (`--semi-space`: NODE_OPTIONS=--max-semi-space-size=MB); null: V8's own. */
  semiSpaceMb?: number | null;
  gateway: GatewayMode;
  log(line: string): void;
}

export const POLL_INTERVAL_MS = 250;
/** Sockets opened at once (the kernel's accept queue, this process's event loop). */
export const OPENING_BATCH = 100;
export const WAIT_MS = 120_000;
/** Followers that stop reading during the burst (at most a tenth of them), and the changes of the burst. */
export const SLOW_READERS = 200;
export const BURST_CHANGES = 20;
/** Followers per round of churn. */
export const CHURN_ROUND = 1000;
/** Whole-network queries a warmed gateway serves before its baseline (`--warm`). */
export const WARM_QUERIES = 20;
const NETWORK_ROUTE = 'GET /rest/v1/networks/{networkId}';

const CHANGES = `subscription Follow($networkId: UUID!) {
  networkChanges(networkId: $networkId) {
    networkId snapshot resourceCount
    added { kind id name status statusName }
    removed { kind id name }
    changed { kind id after { statusName name } }
  }
}`;

export const CREATE = `mutation Create($networkId: UUID!, $input: CreateEndpointInput!) {
  createEndpoint(networkId: $networkId, input: $input) { __typename }
}`;

/** Every follower's times (performance.now(), 0: not yet), one slot per follower: socket × perSocket + subscription. */
export class Followers {
  readonly subscribedAt: Float64Array;
  readonly firstAt: Float64Array;
  readonly changeAt: Float64Array;
  readonly firstBytes: Float64Array;
  firsts = 0;
  changes = 0;
  marker: string | null = null;
  readonly sockets: WebSocket[] = [];

  constructor(readonly count: number, readonly perSocket: number) {
    this.subscribedAt = new Float64Array(count);
    this.firstAt = new Float64Array(count);
    this.changeAt = new Float64Array(count);
    this.firstBytes = new Float64Array(count);
  }

  open(wsUrl: string, token: string, networkId: string, socketIndex: number): void {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    this.sockets.push(socket);
    const base = socketIndex * this.perSocket;
    const subscriptions = Math.min(this.perSocket, this.count - base);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    socket.on('message', (data: Buffer) => {
      // Only the head is read: `{"id":"3","type":"next",…` or `{"type":"connection_ack"}`.
      const head = data.subarray(0, 32).toString();
      if (head.startsWith('{"type":"connection_ack"')) {
        for (let i = 0; i < subscriptions; i += 1) {
          this.subscribedAt[base + i] = performance.now();
          socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: CHANGES, variables: { networkId } } }));
        }
        return;
      }
      const id = /^\{"id":"(\d+)","type":"next"/.exec(head)?.[1];
      if (id === undefined) return;
      const slot = base + Number(id);
      if (this.firstAt[slot] === 0) {
        this.firstAt[slot] = performance.now();
        this.firstBytes[slot] = data.length;
        this.firsts += 1;
        return;
      }
      if (this.marker !== null && this.changeAt[slot] === 0 && data.toString().includes(this.marker)) {
        this.changeAt[slot] = performance.now();
        this.changes += 1;
      }
    });
    socket.on('error', () => undefined);
  }

  closeAll(): void {
    for (const socket of this.sockets) socket.terminate();
  }
}

/** Resolves once `done()` holds (checked every 5 ms) or after `ms`. */
export async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return -1;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? -1;
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;
export const networkPolls = (sandbox: RunningSandbox): number => sandbox.control.calls().byRoute[NETWORK_ROUTE] ?? 0;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A short query load, as a replica that has served queries has seen: `networkGraph` (every network's
 * graph, ~1.4 MB answers), which grows the young generation to its cap, a one-off cost.
 */
async function warmUp(url: string, token: string, log: (line: string) => void): Promise<void> {
  for (let i = 0; i < WARM_QUERIES; i += 1) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: networkGraph.document, variables: { first: 1000 } }),
    });
    const text = await res.text();
    if (res.status >= 300 || text.includes('"errors"')) throw new Error(`the warm-up query was refused: ${res.status} ${text.slice(0, 200)}`);
  }
  log(`subscribers: gateway warmed by ${WARM_QUERIES} networkGraph queries`);
}

export async function runSubscribers(options: SubscribersOptions): Promise<SubscribersResult> {
  const perSocket = options.perSocket ?? 1;
  const sockets = Math.ceil(options.subscribers / perSocket);
  const sandbox = await startSandbox({ port: 0, seed: 'large' });
  const limit = String(options.subscribers + 100);
  const gateway = await startGatewayProcess(options.gateway, {
    ...benchGatewayEnv(sandbox),
    NETWORK_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    NETWORK_POLL_MAX_INTERVAL_MS: String(POLL_INTERVAL_MS),
    // Every subscriber comes from this one address.
    WS_MAX_CONNECTIONS: limit,
    WS_CONNECTIONS_PER_CLIENT: limit,
    // Every subscriber holds the one token.
    MAX_SUBSCRIPTIONS_PER_CALLER: limit,
    MAX_SUBSCRIPTIONS_PER_CONNECTION: String(Math.max(perSocket, 10)),
  });
  const followers = new Followers(options.subscribers, perSocket);
  try {
    const facts = sandbox.restFacts();
    const network = [...facts.networks].sort((a, b) => b.endpointIds.length - a.endpointIds.length)[0];
    if (!network) throw new Error('the sandbox has no network');
    const wsUrl = gateway.url.replace(/^http/, 'ws');
    if (options.warm === true) await warmUp(gateway.url, sandbox.tokens.admin, options.log);
    const settledBefore = await gateway.settledMemory();
    const rssBeforeBytes = await gateway.rssBytes();
    // After the baseline's readings: writing a snapshot takes memory of its own (a snapshot run's memory figures are rough).
    if (options.snapshots) await gateway.heapSnapshot(join(options.snapshots, 'before.heapsnapshot'));
    options.log(`subscribers: ${options.subscribers} followers on ${sockets} sockets (${perSocket} each) of network ${network.id} (${network.endpointIds.length} endpoints)`);
    const openedAt = performance.now();
    for (let opened = 0; opened < sockets; opened += OPENING_BATCH) {
      const batch = Math.min(OPENING_BATCH, sockets - opened);
      for (let i = 0; i < batch; i += 1) followers.open(wsUrl, sandbox.tokens.admin, network.id, opened + i);
      const expected = Math.min(options.subscribers, (opened + batch) * perSocket);
      await until(() => followers.firsts >= expected, WAIT_MS);
    }
    await until(() => followers.firsts >= options.subscribers, WAIT_MS);
    const firstTimes: number[] = [];
    let lastFirst = openedAt;
    let firstEventBytes = 0;
    for (let i = 0; i < options.subscribers; i += 1) {
      const at = followers.firstAt[i] ?? 0;
      if (at === 0) continue;
      firstTimes.push(at - (followers.subscribedAt[i] ?? at));
      lastFirst = Math.max(lastFirst, at);
      firstEventBytes = Math.max(firstEventBytes, followers.firstBytes[i] ?? 0);
    }
    firstTimes.sort((a, b) => a - b);
    const connected = followers.firsts;
    const rssAfterBytes = await gateway.rssBytes();
    const settledAfter = await gateway.settledMemory();
    if (options.snapshots) {
      await gateway.heapSnapshot(join(options.snapshots, 'after.heapsnapshot'));
      options.log(`subscribers: heap snapshots in ${options.snapshots} (node dist-bench/bench/heap-diff.js ${options.snapshots} ${connected})`);
    }
    const perFollower = (after: number, before: number): number => (connected > 0 ? Math.round((after - before) / connected) : 0);
    options.log(`subscribers: ${connected} have their first event; RSS ${(rssBeforeBytes / 2 ** 20).toFixed(0)} → ${(rssAfterBytes / 2 ** 20).toFixed(0)} MiB; settled ${(settledBefore.rss / 2 ** 20).toFixed(0)} → ${(settledAfter.rss / 2 ** 20).toFixed(0)} MiB (${(perFollower(settledAfter.rss, settledBefore.rss) / 1024).toFixed(1)} KiB per follower, heap ${(perFollower(settledAfter.heapUsed, settledBefore.heapUsed) / 1024).toFixed(1)} KiB)`);

    // Polls while everyone follows: the network's record is read once per poll.
    const pollsAt = networkPolls(sandbox);
    await sleep(POLL_INTERVAL_MS * 8);
    const pollsPerInterval = round((networkPolls(sandbox) - pollsAt) / 8);

    // One change made through the gateway, as a client of it would.
    const marker = `bench-follow-${Date.now()}`;
    followers.marker = marker;
    const changedAt = performance.now();
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE, variables: { networkId: network.id, input: { name: marker, endpointType: 'ZTCL' } } }),
    });
    const answer = await res.text();
    if (res.status >= 300 || answer.includes('"errors"')) throw new Error(`the change was refused: ${res.status} ${answer}`);
    await until(() => followers.changes >= connected, WAIT_MS);
    const seen = Array.from(followers.changeAt.filter((t) => t > 0), (t) => t - changedAt).sort((a, b) => a - b);

    // Some stop reading while a burst of changes comes: the others are not to wait for them.
    const slowReaders = await runSlowReaders({ followers, gateway, token: sandbox.tokens.admin, networkId: network.id, slow: Math.min(SLOW_READERS, Math.floor(connected / 10)), changes: BURST_CHANGES, log: options.log });

    // Everyone leaves: the poller stops within an interval, and memory goes back.
    followers.closeAll();
    await sleep(POLL_INTERVAL_MS * 2);
    const pollsLeft = networkPolls(sandbox);
    await sleep(POLL_INTERVAL_MS * 2);
    const pollsAfterLeaving = networkPolls(sandbox) - pollsLeft;
    const settledAfterLeaving = await gateway.settledMemory();
    const churn =
      options.churnSeconds !== undefined && options.churnSeconds > 0
        ? await runChurn({ gateway, token: sandbox.tokens.admin, networkId: network.id, seconds: options.churnSeconds, perRound: Math.min(options.subscribers, CHURN_ROUND), perSocket, polls: () => networkPolls(sandbox), log: options.log })
        : undefined;
    return {
      subscribers: options.subscribers,
      connected,
      networkResources: network.endpointIds.length + network.serviceIds.length + network.appWanIds.length + network.endpointGroupIds.length,
      firstEventBytes,
      rssBeforeBytes,
      rssAfterBytes,
      rssPerSubscriberBytes: perFollower(rssAfterBytes, rssBeforeBytes),
      changeToFirstMs: seen.length > 0 ? round(seen[0] ?? -1) : -1,
      changeToLastMs: seen.length > 0 ? round(seen[seen.length - 1] ?? -1) : -1,
      fanOutMs: seen.length > 0 ? round((seen[seen.length - 1] ?? 0) - (seen[0] ?? 0)) : -1,
      reached: seen.length,
      pollIntervalMs: POLL_INTERVAL_MS,
      gatewayMode: gateway.mode,
      changeThrough: 'gateway',
      ...(options.warm === true ? { warm: true as const } : {}),
      ...(options.semiSpaceMb ? { semiSpaceMb: options.semiSpaceMb } : {}),
      perSocket,
      sockets,
      settledBefore,
      settledAfter,
      rssSettledPerFollowerBytes: perFollower(settledAfter.rss, settledBefore.rss),
      heapPerFollowerBytes: perFollower(settledAfter.heapUsed, settledBefore.heapUsed),
      firstEventMs: { p50: round(percentile(firstTimes, 50)), p99: round(percentile(firstTimes, 99)), max: round(firstTimes[firstTimes.length - 1] ?? -1) },
      firstEventsToAllMs: round(lastFirst - openedAt),
      changeToP99Ms: round(percentile(seen, 99)),
      pollsPerInterval,
      slowReaders,
      pollsAfterLeaving,
      settledAfterLeaving,
      ...(churn ? { churn } : {}),
    };
  } finally {
    followers.closeAll();
    await gateway.close();
    await sandbox.close();
  }
}
