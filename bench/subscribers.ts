/**
 * The subscribers scenario (`npm run bench -- --scenario subscribers [--subscribers N]`): N
 * WebSocket subscribers of `networkChanges` on the largest network of the sandbox, all through one
 * gateway (in a child process, so its memory is its own). It measures what following costs as
 * followers grow: the gateway's resident memory per subscriber (RSS after all first events, less
 * RSS before any socket, ÷ N), and how long one change takes to reach them (from a `createEndpoint`
 * mutation sent through the gateway to the first and the last subscriber's event that carries it;
 * the spread between the two is the fan-out). A change through the gateway wakes the network's
 * poller at once (writes wake the followers); the poll interval is pinned short as well, as it was
 * when the change was made straight to the platform, so the two paths' figures compare.
 *
 * The subscribers are raw graphql-transport-ws sockets in this process: each keeps no event, and
 * finds the change by a marker in the message text (nothing parsed on the hot path).
 */
import { WebSocket } from 'ws';
import { startSandbox } from '../src/sandbox';
import type { GatewayMode } from './args';
import { benchGatewayEnv, startGatewayProcess } from './gateway-launcher';

export interface SubscribersResult {
  /** Subscribers asked for, and those that got their first event. */
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
}

export interface SubscribersOptions {
  subscribers: number;
  gateway: GatewayMode;
  log(line: string): void;
}

const POLL_INTERVAL_MS = 250;
/** Sockets opened at once (the kernel's accept queue, this process's event loop). */
const OPENING_BATCH = 100;
const WAIT_MS = 120_000;

const CHANGES = `subscription Follow($networkId: UUID!) {
  networkChanges(networkId: $networkId) {
    networkId snapshot resourceCount
    added { kind id name status statusName }
    removed { kind id name }
    changed { kind id after { statusName name } }
  }
}`;

const CREATE = `mutation Create($networkId: UUID!, $input: CreateEndpointInput!) {
  createEndpoint(networkId: $networkId, input: $input) { __typename }
}`;

interface Follower {
  socket: WebSocket;
  /** When its first event came, and its size. */
  first: Promise<number>;
  /** When an event holding `marker` came (resolves once `watch` was called with it). */
  sawChange: Promise<number>;
  watch(marker: string): void;
}

function follow(wsUrl: string, token: string, networkId: string): Follower {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  let marker: string | null = null;
  let onFirst: (bytes: number) => void = () => undefined;
  let onChange: (at: number) => void = () => undefined;
  const first = new Promise<number>((resolve) => (onFirst = resolve));
  const sawChange = new Promise<number>((resolve) => (onChange = resolve));
  let firstSeen = false;
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
  socket.on('message', (data: Buffer) => {
    const text = data.toString();
    if (text.startsWith('{"type":"connection_ack"')) {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: CHANGES, variables: { networkId } } }));
      return;
    }
    if (!firstSeen) {
      firstSeen = true;
      onFirst(data.length);
      return;
    }
    if (marker !== null && text.includes(marker)) onChange(performance.now());
  });
  socket.on('error', () => undefined);
  return { socket, first, sawChange, watch: (m) => (marker = m) };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);
}

export async function runSubscribers(options: SubscribersOptions): Promise<SubscribersResult> {
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
  });
  const followers: Follower[] = [];
  try {
    const facts = sandbox.restFacts();
    const network = [...facts.networks].sort((a, b) => b.endpointIds.length - a.endpointIds.length)[0];
    if (!network) throw new Error('the sandbox has no network');
    const wsUrl = gateway.url.replace(/^http/, 'ws');
    const rssBeforeBytes = await gateway.rssBytes();
    options.log(`subscribers: opening ${options.subscribers} sockets on network ${network.id} (${network.endpointIds.length} endpoints)`);
    for (let opened = 0; opened < options.subscribers; opened += OPENING_BATCH) {
      const batch = Array.from({ length: Math.min(OPENING_BATCH, options.subscribers - opened) }, () => follow(wsUrl, sandbox.tokens.admin, network.id));
      followers.push(...batch);
      await Promise.all(batch.map((f) => within(f.first, WAIT_MS)));
    }
    const sizes = await Promise.all(followers.map((f) => within(f.first, WAIT_MS)));
    const connected = sizes.filter((s) => s !== null).length;
    const rssAfterBytes = await gateway.rssBytes();
    options.log(`subscribers: ${connected} have their first event; RSS ${(rssBeforeBytes / 2 ** 20).toFixed(0)} → ${(rssAfterBytes / 2 ** 20).toFixed(0)} MiB`);

    // One change made through the gateway, as a client of it would.
    const marker = `bench-follow-${Date.now()}`;
    for (const f of followers) f.watch(marker);
    const changedAt = performance.now();
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE, variables: { networkId: network.id, input: { name: marker, endpointType: 'ZTCL' } } }),
    });
    const answer = await res.text();
    if (res.status >= 300 || answer.includes('"errors"')) throw new Error(`the change was refused: ${res.status} ${answer}`);
    const seen = (await Promise.all(followers.map((f) => within(f.sawChange, WAIT_MS)))).filter((t): t is number => t !== null);
    const firstAt = Math.min(...seen);
    const lastAt = Math.max(...seen);
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    return {
      subscribers: options.subscribers,
      connected,
      networkResources: network.endpointIds.length + network.serviceIds.length + network.appWanIds.length + network.endpointGroupIds.length,
      firstEventBytes: Math.max(0, ...sizes.filter((s): s is number => s !== null)),
      rssBeforeBytes,
      rssAfterBytes,
      rssPerSubscriberBytes: connected > 0 ? Math.round((rssAfterBytes - rssBeforeBytes) / connected) : 0,
      changeToFirstMs: seen.length > 0 ? round(firstAt - changedAt) : -1,
      changeToLastMs: seen.length > 0 ? round(lastAt - changedAt) : -1,
      fanOutMs: seen.length > 0 ? round(lastAt - firstAt) : -1,
      reached: seen.length,
      pollIntervalMs: POLL_INTERVAL_MS,
      gatewayMode: gateway.mode,
      changeThrough: 'gateway',
    };
  } finally {
    for (const f of followers) f.socket.terminate();
    await gateway.close();
    await sandbox.close();
  }
}
