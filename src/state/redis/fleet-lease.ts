/**
 * A fleet entry's (fleet-entry.ts) target in Redis: its keys, and the scripts that keep its lease
 * and publish its values. Only identity keys and sealed values go there (poll-values.ts).
 */
import { PREFIX, type RedisLink } from './link';

/**
 * Publishes a message numbered by Redis's clock in microseconds (so numbers keep growing across
 * holders and across a Redis restart), and keeps it as the latest value when asked.
 */
const PUBLISH = `
local t = redis.call('TIME')
local seq = t[1] .. string.format('%06d', tonumber(t[2]))
local msg = '{"seq":' .. seq .. ',' .. string.sub(ARGV[1], 2)
if ARGV[3] == '1' then redis.call('SET', KEYS[1], msg, 'PX', ARGV[2]) end
redis.call('PUBLISH', KEYS[2], msg)
return seq`;

/**
 * Keeps (or takes, when free) the lease, and keeps the latest value as long as a holder lives
 * (a target that does not change is published once): 1 when this replica holds the lease now.
 */
const RENEW = `
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/** Gives the lease up when this replica holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** One target's lease, with how long a lease and the latest value last. */
export class FleetLease {
  /** Where this target's values belong (a sealed value opens here only). */
  readonly place: string;
  readonly channel: string;
  private readonly lease: string;
  private readonly latest: string;

  constructor(
    private readonly link: RedisLink,
    kind: string,
    key: string,
    fingerprint: string,
    private readonly times: { leaseMs: number; latestMs: number },
  ) {
    this.place = `${PREFIX}poll:${kind}:${key}#${fingerprint}`;
    this.lease = `${this.place}:lease`;
    this.latest = `${this.place}:latest`;
    this.channel = `${this.place}:events`;
  }

  /** Takes the lease when it is free: whether this replica holds it now. */
  async take(): Promise<boolean> {
    return (await this.link.client.set(this.lease, this.link.replicaId, 'PX', this.times.leaseMs, 'NX')) === 'OK';
  }

  /** Keeps (or takes, when free) the lease and the latest value: whether this replica holds it now. */
  async renew(): Promise<boolean> {
    return (await this.link.client.eval(RENEW, 2, this.lease, this.latest, this.link.replicaId, this.times.leaseMs, this.times.latestMs)) === 1;
  }

  /** Gives the lease up, and tells the listeners so that one of them polls at once. */
  release(): void {
    const { link } = this;
    void link.client
      .eval(RELEASE, 1, this.lease, link.replicaId)
      .then(() => link.client.publish(this.channel, JSON.stringify({ type: 'handover' })))
      .catch(() => undefined);
  }

  /** The latest value kept, when there is one (null too when Redis is unreachable). */
  readLatest(): Promise<string | null> {
    return this.link.client.get(this.latest).catch(() => null);
  }

  async publish(message: Record<string, unknown>, keep: boolean): Promise<void> {
    try {
      await this.link.client.eval(PUBLISH, 2, this.latest, this.channel, JSON.stringify(message), this.times.latestMs, keep ? '1' : '0');
    } catch {
      // Unreachable: subscribers here still get every value; listeners elsewhere poll for themselves.
    }
  }
}
