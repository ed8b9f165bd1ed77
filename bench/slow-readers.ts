/**
 * The subscribers scenario's slow readers (bench/subscribers.ts): some followers stop reading
 * (their sockets paused: the client takes nothing more off the wire) and a burst of changes is
 * made through the gateway. What it measures: whether the others still get the burst (its last
 * change, which every later event carries) and how soon, and what the gateway holds for the ones
 * that stopped (bytes held unsent, on all sockets and on one, sampled through the burst; sockets
 * closed for passing `WS_MAX_BUFFERED_BYTES`). A socket's kernel buffers take a few megabytes
 * before the gateway holds anything, so small events never reach the bound here; the closing at
 * the bound is tested with large events (test/integration/ws-backpressure.test.ts).
 */
import type { GatewayHandle, WsStats } from './gateway-launcher';
import { CREATE, percentile, round, until, WAIT_MS, type Followers } from './subscribers';

export interface SlowReadersResult {
  /** Followers whose sockets stopped reading, and the others. */
  slowFollowers: number;
  others: number;
  /** Changes made at once through the gateway. */
  changes: number;
  /** Others whose events carried the burst's last change. */
  othersReached: number;
  /** From the burst's last change (its request sent, after the others of the burst were answered) to the first, the 99th percentile and the last of the others' event carrying it (ms). */
  toFirstMs: number;
  toP99Ms: number;
  toLastMs: number;
  /** The most the gateway held unsent, on all its sockets and on one, sampled every 25 ms from the burst on (bytes). */
  maxBufferedBytes: number;
  maxSocketBufferedBytes: number;
  /** Sockets the gateway closed for reading too slowly during the phase. */
  closedSlow: number;
}

export interface SlowReadersOptions {
  followers: Followers;
  gateway: GatewayHandle;
  token: string;
  networkId: string;
  /** Followers that stop reading (whole sockets: rounded up to the socket). */
  slow: number;
  changes: number;
  log(line: string): void;
}

async function change(url: string, token: string, networkId: string, name: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: CREATE, variables: { networkId, input: { name, endpointType: 'ZTCL' } } }),
  });
  const answer = await res.text();
  if (res.status >= 300 || answer.includes('"errors"')) throw new Error(`a burst change was refused: ${res.status} ${answer.slice(0, 200)}`);
}

export async function runSlowReaders(options: SlowReadersOptions): Promise<SlowReadersResult> {
  const { followers, gateway } = options;
  const slowSockets = Math.min(followers.sockets.length, Math.ceil(options.slow / followers.perSocket));
  const firstSlow = followers.sockets.length - slowSockets;
  for (const socket of followers.sockets.slice(firstSlow)) socket.pause();
  const slowFollowers = Math.min(followers.count, followers.sockets.length * followers.perSocket) - firstSlow * followers.perSocket;
  const others = firstSlow * followers.perSocket;
  const before: WsStats = await gateway.wsStats();
  options.log(`subscribers: ${slowFollowers} followers stop reading; a burst of ${options.changes} changes`);

  // The others are timed to the burst's last change: every event after it carries it.
  followers.changeAt.fill(0);
  followers.changes = 0;
  const marker = `bench-burst-${Date.now()}`;
  followers.marker = `${marker}-${options.changes - 1}`;
  let maxBufferedBytes = 0;
  let maxSocketBufferedBytes = 0;
  let sampling = true;
  const sample = async (): Promise<void> => {
    while (sampling) {
      const stats = await gateway.wsStats();
      maxBufferedBytes = Math.max(maxBufferedBytes, stats.bufferedBytes);
      maxSocketBufferedBytes = Math.max(maxSocketBufferedBytes, stats.maxBufferedBytes);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const sampled = sample();
  // At once, as a burst: the last one is sent after the others have been.
  await Promise.all(Array.from({ length: options.changes - 1 }, (_, i) => change(gateway.url, options.token, options.networkId, `${marker}-${i}`)));
  const startedAt = performance.now();
  await change(gateway.url, options.token, options.networkId, followers.marker);
  const othersSeen = (): number => followers.changeAt.subarray(0, others).reduce((n, t) => n + (t > 0 ? 1 : 0), 0);
  await until(() => othersSeen() >= others, WAIT_MS);
  sampling = false;
  await sampled;
  const seen = Array.from(followers.changeAt.subarray(0, others).filter((t) => t > 0), (t) => t - startedAt).sort((a, b) => a - b);
  const after = await gateway.wsStats();
  for (const socket of followers.sockets.slice(firstSlow)) socket.resume();
  return {
    slowFollowers,
    others,
    changes: options.changes,
    othersReached: seen.length,
    toFirstMs: round(seen[0] ?? -1),
    toP99Ms: round(percentile(seen, 99)),
    toLastMs: round(seen[seen.length - 1] ?? -1),
    maxBufferedBytes,
    maxSocketBufferedBytes,
    closedSlow: after.closedSlow - before.closedSlow,
  };
}
