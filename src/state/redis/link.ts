/**
 * The fleet's link to Redis: one connection for commands, one for pub/sub, and whether Redis is
 * reachable now. Commands fail at once while it is not (no offline queue): every store falls back
 * to this process and re-joins when the link is up again (`onUp`). ioredis reconnects by itself,
 * forever, every second at most.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { StateCheck } from '../index';

/** Every key and channel of the gateway starts with this, so a Redis may be shared with other software. */
export const PREFIX = 'netgraph:';

type Handler = (message: string) => void;

const heard = new WeakSet<object>();

/**
 * ioredis hears only a socket's first error (`once`): a TLS socket can emit a second one (a
 * refused certificate, then the server's alert), which, unheard, would end the process. What the
 * link makes of it is the first error's; the rest are heard and dropped.
 */
function hearLaterErrors(stream: { on(event: 'error', listener: () => void): unknown } | undefined): void {
  if (stream === undefined || heard.has(stream)) return;
  heard.add(stream);
  stream.on('error', () => undefined);
}

export class RedisLink {
  /** This replica, in leases (who holds a poller, who runs a provisioning). */
  readonly replicaId = randomUUID();
  readonly client: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly upHooks = new Set<() => void>();
  private readonly downHooks = new Set<() => void>();
  private everUp = false;
  private up = false;
  private closed = false;
  private lastError: string | null = null;

  /**
   * `url` is `redis://`, or `rediss://` for TLS (ioredis checks the server's certificate against
   * the system's authorities, or `tls.ca` when given: `REDIS_TLS_CA_FILE`).
   */
  constructor(
    url: string,
    private readonly warn: (message: string, fields?: Record<string, unknown>) => void,
    tls: { ca: Buffer } | null = null,
  ) {
    const options = {
      ...(tls === null ? {} : { tls: { ca: tls.ca } }),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(100 * times, 1000),
    };
    this.client = new Redis(url, { ...options, connectionName: `netgraph-${this.replicaId}` });
    this.sub = new Redis(url, options);
    for (const connection of [this.client, this.sub]) {
      connection.on('ready', () => this.update());
      connection.on('close', () => this.update());
      connection.on('end', () => this.update());
      // The message only (ioredis' errors can carry the URL, and so its password).
      connection.on('error', (error: Error) => {
        this.lastError = error.message.replace(/\/\/[^@\s]*@/g, '//');
        hearLaterErrors(connection.stream);
      });
    }
    this.sub.on('ready', () => {
      // Channels asked for while the link was down (ioredis re-subscribes the others itself).
      const channels = [...this.handlers.keys()];
      if (channels.length > 0) this.sub.subscribe(...channels).catch(() => undefined);
    });
    this.sub.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  get isUp(): boolean {
    return this.up;
  }

  check(): StateCheck {
    if (this.up) return { status: 'ready' };
    const detail = `Redis is not reachable${this.lastError ? ` (${this.lastError})` : ''}`;
    return this.everUp ? { status: 'degraded', detail: `${detail}: serving from this replica's own state` } : { status: 'starting', detail };
  }

  /** `fn` runs each time the link comes (back) up. Returns the way to stop. */
  onUp(fn: () => void): () => void {
    this.upHooks.add(fn);
    return () => this.upHooks.delete(fn);
  }

  /** `fn` runs each time the link goes down. */
  onDown(fn: () => void): () => void {
    this.downHooks.add(fn);
    return () => this.downHooks.delete(fn);
  }

  /** Listens on `channel`; resolves once subscribed (or at once while the link is down: subscribed when it comes up). */
  async subscribe(channel: string, handler: Handler): Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    if (set.size === 1 && this.up) await this.sub.subscribe(channel).catch(() => undefined);
  }

  unsubscribe(channel: string, handler: Handler): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    set.delete(handler);
    if (set.size > 0) return;
    this.handlers.delete(channel);
    if (this.up) this.sub.unsubscribe(channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.upHooks.clear();
    this.downHooks.clear();
    await Promise.allSettled([this.client.quit(), this.sub.quit()]);
    this.client.disconnect();
    this.sub.disconnect();
  }

  private update(): void {
    const up = this.client.status === 'ready' && this.sub.status === 'ready';
    if (up === this.up || this.closed) return;
    this.up = up;
    if (up) {
      if (this.everUp) this.warn('Redis is reachable again: re-joining the fleet');
      this.everUp = true;
      this.lastError = null;
      for (const fn of this.upHooks) fn();
    } else {
      this.warn('Redis is not reachable: serving from this replica until it is back', { error: this.lastError });
      for (const fn of this.downHooks) fn();
    }
  }
}
