/**
 * What a replica read back from Redis and refused to act on: a value whose MAC (under a key
 * derived from `FLEET_TOKEN_KEY`) does not hold, a persisted query whose text does not hash to
 * its name, a provisioning entry older than one this replica has seen. Each is ignored (treated
 * as absent) and counted here, so an operator sees a Redis that someone else writes to.
 */
import { Counter, type Registry } from 'prom-client';

export type UntrustedKind = 'verdict' | 'persisted-query' | 'provisioning-entry';

/** Counts one refused value of a kind. */
export type UntrustedSink = (kind: UntrustedKind) => void;

export function createUntrustedCounter(registry: Registry): UntrustedSink {
  const refused = new Counter({
    name: 'netgraph_fleet_untrusted_total',
    help: 'Values read from Redis and ignored because they failed their check (verdict: MAC or expiry; persisted-query: the text does not hash to its name; provisioning-entry: MAC, or older than one this replica saw).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  return (kind) => refused.inc({ kind });
}
