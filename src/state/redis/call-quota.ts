/**
 * The upstream-call quota's counts for the fleet (the window itself is ../call-quota.ts): one Redis
 * counter per identity and minute (INCR, expiring with the minute), so the quota holds across every
 * replica. While Redis is not reachable each replica counts alone (a memory counter), and the
 * fleet's count resumes when it is back.
 */
import type { MinuteCounter } from '../call-quota';
import { MemoryMinuteCounter } from '../memory/call-quota';
import { PREFIX, type RedisLink } from './link';

/** Counts one call unless the quota is spent already (then answers the count without adding). */
const COUNT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return n + 1 end
n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

export class RedisMinuteCounter implements MinuteCounter {
  private readonly alone = new MemoryMinuteCounter();

  constructor(private readonly link: RedisLink) {}

  async count(fingerprint: string, index: number, max: number, msLeft: number): Promise<number> {
    if (!this.link.isUp) return this.alone.count(fingerprint, index, max);
    let used: unknown;
    try {
      used = await this.link.client.eval(COUNT, 1, `${PREFIX}quota:${fingerprint}:${index}`, max, msLeft + 5000);
    } catch {
      return this.alone.count(fingerprint, index, max);
    }
    // An answer that is not a count refuses nothing (as before: only a count past the quota refuses).
    return typeof used === 'number' ? used : 0;
  }
}
