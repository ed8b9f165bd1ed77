/**
 * The fleet's provisioning store: each entry (record, plan and owner, with an HMAC under a key
 * derived from `FLEET_TOKEN_KEY`) lives in Redis, readable and followable from every replica; its
 * run is leased to one replica (a write is refused once the lease is somebody else's), and the
 * owner's token is kept sealed for the run while it lasts (none without the key). The limits are
 * reserved for the whole fleet by the START script: the steps of src/provisioning/limits.ts, in
 * the same order. Storage and leases only: the lifecycle (heartbeats, takeovers, resume, the
 * fallback while Redis is away) is src/provisioning/lifecycle.ts.
 *
 * Redis is not trusted with an entry: with the key, one whose HMAC does not hold, or whose version
 * is older than one this replica wrote or read (an older authentic entry written back: a replay),
 * is not read by clients and not resumed (`altered`), and is counted.
 */
import { parseProvisioningRecord, parseStepActions } from '../../provisioning/codec';
import type { ProvisioningJobs, ProvisioningOwner, ProvisioningRun } from '../../provisioning/jobs';
import { createProvisionings, RUN_LEASE_MS } from '../../provisioning/lifecycle';
import { isLimitAnswer, ownerRetained, type LimitAnswer, type ProvisioningLimits } from '../../provisioning/limits';
import type { ProvisioningStore, StoredChange, StoredEntry } from '../../provisioning/store';
import { LRUCache } from 'lru-cache';
import { Fields } from '../../core/parse';
import type { FleetMetrics } from './metrics';
import { PREFIX, type RedisLink } from './link';
import { deriveKey, mac, macMatches } from './seal';
import { openToken, sealToken } from './token-seal';
import type { UntrustedSink } from './untrusted';

/** How long a sealed token may outlive its run at most (it is deleted when the run ends). */
const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const P = `${PREFIX}prov:`;
const keys = {
  record: (id: string) => `${P}${id}`,
  token: (id: string) => `${P}${id}:token`,
  lease: (id: string) => `${P}${id}:run`,
  channel: (id: string) => `${P}${id}:events`,
  running: `${P}running`,
};

const DROP = `
local P = ARGV[1]
local function drop(o, id)
  redis.call('DEL', P .. id)
  redis.call('ZREM', P .. 'all', o .. '|' .. id)
  redis.call('ZREM', P .. 'finished', o .. '|' .. id)
  redis.call('ZREM', P .. 'owner:' .. o, id)
  redis.call('ZREM', P .. 'owner:' .. o .. ':finished', id)
end`;

/**
 * Registers a new run, or answers why not: the steps of src/provisioning/limits.ts
 * (`ProvisioningLedger.reserve`), in the same order, over the fleet's sets. ARGV: prefix, owner, id, entry, sealed token ('' for
 * none), replica, lease ms, max running, per owner, max retained, owner retained, now, retain ms.
 */
const START = `${DROP}
local owner, id, now = ARGV[2], ARGV[3], tonumber(ARGV[12])
for _, m in ipairs(redis.call('ZRANGEBYSCORE', P .. 'finished', '-inf', now - tonumber(ARGV[13]))) do
  local o, old = string.match(m, '^(.-)|(.*)$')
  drop(o, old)
end
if redis.call('SCARD', P .. 'running') >= tonumber(ARGV[8]) then return 'running:gateway' end
if redis.call('SCARD', P .. 'running:' .. owner) >= tonumber(ARGV[9]) then return 'running:caller' end
if redis.call('ZCARD', P .. 'owner:' .. owner) >= tonumber(ARGV[11]) then
  local f = redis.call('ZRANGE', P .. 'owner:' .. owner .. ':finished', 0, 0)
  if #f == 0 then return 'retained:caller' end
  drop(owner, f[1])
end
if redis.call('ZCARD', P .. 'all') >= tonumber(ARGV[10]) then
  local f = redis.call('ZRANGE', P .. 'finished', 0, 0)
  if #f == 0 then return 'retained:gateway' end
  local o, old = string.match(f[1], '^(.-)|(.*)$')
  drop(o, old)
end
redis.call('SET', P .. id, ARGV[4])
redis.call('SADD', P .. 'running', id)
redis.call('SADD', P .. 'running:' .. owner, id)
redis.call('ZADD', P .. 'all', now, owner .. '|' .. id)
redis.call('ZADD', P .. 'owner:' .. owner, now, id)
if ARGV[5] ~= '' then redis.call('SET', P .. id .. ':token', ARGV[5], 'PX', ${TOKEN_TTL_MS}) end
redis.call('SET', P .. id .. ':run', ARGV[6], 'PX', ARGV[7])
return 'ok'`;

/**
 * Writes a running record while this replica holds (or may take back) the lease; 0 when another
 * replica holds it. Re-adds the run to the sets, so a Redis that restarted empty is whole again.
 * ARGV: prefix, owner, id, entry, sealed token, replica, lease ms, now, message.
 */
const WRITE = `
local P, owner, id = ARGV[1], ARGV[2], ARGV[3]
local lease = P .. id .. ':run'
local holder = redis.call('GET', lease)
if holder and holder ~= ARGV[6] then return 0 end
redis.call('SET', lease, ARGV[6], 'PX', ARGV[7])
redis.call('SET', P .. id, ARGV[4])
redis.call('SADD', P .. 'running', id)
redis.call('SADD', P .. 'running:' .. owner, id)
redis.call('ZADD', P .. 'all', 'NX', ARGV[8], owner .. '|' .. id)
redis.call('ZADD', P .. 'owner:' .. owner, 'NX', ARGV[8], id)
if ARGV[5] ~= '' and redis.call('EXISTS', P .. id .. ':token') == 0 then redis.call('SET', P .. id .. ':token', ARGV[5], 'PX', ${TOKEN_TTL_MS}) end
redis.call('PUBLISH', P .. id .. ':events', ARGV[9])
return 1`;

/** The run is over: the record expires after the retention, the token and the lease go. ARGV as WRITE, plus retain ms. */
const FINISH = `
local P, owner, id = ARGV[1], ARGV[2], ARGV[3]
local holder = redis.call('GET', P .. id .. ':run')
if holder and holder ~= ARGV[6] then return 0 end
redis.call('SET', P .. id, ARGV[4], 'PX', ARGV[10])
redis.call('SREM', P .. 'running', id)
redis.call('SREM', P .. 'running:' .. owner, id)
redis.call('ZADD', P .. 'all', 'NX', ARGV[8], owner .. '|' .. id)
redis.call('ZADD', P .. 'owner:' .. owner, 'NX', ARGV[8], id)
redis.call('ZADD', P .. 'finished', ARGV[8], owner .. '|' .. id)
redis.call('ZADD', P .. 'owner:' .. owner .. ':finished', ARGV[8], id)
redis.call('DEL', P .. id .. ':token', P .. id .. ':run')
redis.call('PUBLISH', P .. id .. ':events', ARGV[9])
return 1`;

const RENEW = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not cur then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** What Redis keeps of a provisioning (its record is what clients read). */
type Entry = StoredEntry;

function parseEntry(text: string): Entry {
  const f = Fields.of(JSON.parse(text), 'ProvisioningEntry');
  const owner = f.str('owner');
  if (owner === null) throw new Error('a provisioning entry names its owner');
  return { owner, version: f.int('version') ?? 0, record: parseProvisioningRecord(f.raw('record')), actions: parseStepActions(f.raw('actions')) };
}

/**
 * An entry as Redis keeps it: its JSON, and with `FLEET_TOKEN_KEY` an HMAC over that whole text
 * (owner, plan, record, version), so a replica resumes with the owner's token only the entry a
 * replica of this fleet wrote.
 */
function packEntry(entry: Entry, macKey: Buffer | null): string {
  const text = JSON.stringify(entry);
  return JSON.stringify(macKey === null ? { entry: text } : { entry: text, mac: mac(macKey, text) });
}

/**
 * The entry, and whether its MAC holds (false when the key is set and the MAC is missing or
 * wrong). A bare entry (as a previous version wrote it) has none.
 */
function unpackEntry(stored: string, macKey: Buffer | null): { entry: Entry; authentic: boolean } {
  const f = Fields.of(JSON.parse(stored), 'ProvisioningEnvelope');
  const text = f.str('entry');
  if (text === null) return { entry: parseEntry(stored), authentic: macKey === null };
  const claimed = f.str('mac');
  const authentic = macKey === null || (claimed !== null && macMatches(macKey, text, claimed));
  return { entry: parseEntry(text), authentic };
}

export interface RedisProvisioningStoreOptions {
  link: RedisLink;
  /** `FLEET_TOKEN_KEY`; null: no token is kept (a lapsed run ends FAILED), entries carry no HMAC. */
  tokenKey: Buffer | null;
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Told of each entry read back that fails its check (a MAC, or older than one seen here). */
  untrusted?: UntrustedSink;
}

export function createRedisProvisioningStore(options: RedisProvisioningStoreOptions): ProvisioningStore {
  const { link, tokenKey } = options;
  const macKey = tokenKey === null ? null : deriveKey(tokenKey, 'provisioning-entry');
  // The newest version of each run this replica wrote or read authentic: an older one read back
  // later was written back by someone (the MAC covers the version, so none newer can be made up).
  const newest = new LRUCache<string, number>({ max: 10_000 });
  const saw = (entry: Entry): void => {
    const id = entry.record.id;
    if ((newest.get(id) ?? 0) < entry.version) newest.set(id, entry.version);
  };
  /** Whether an entry read back for `id` is one this fleet wrote and not older than one seen; counted when not. */
  const trusted = (id: string, unpacked: { entry: Entry; authentic: boolean }): boolean => {
    const ok = unpacked.authentic && unpacked.entry.record.id === id && unpacked.entry.version >= (newest.get(id) ?? 0);
    if (ok) saw(unpacked.entry);
    else if (macKey !== null) options.untrusted?.('provisioning-entry');
    return ok;
  };
  const message = (entry: Entry): string => JSON.stringify({ version: entry.version, record: entry.record });
  /** The ARGV of WRITE and FINISH. */
  const args = (entry: Entry, sealed: string): Array<string | number> => [P, entry.owner, entry.record.id, packEntry(entry, macKey), sealed, link.replicaId, RUN_LEASE_MS, Date.now(), message(entry)];
  const release = async (id: string): Promise<void> => {
    await link.client.eval(RELEASE, 1, keys.lease(id), link.replicaId);
  };

  return {
    shared: true,
    isUp: () => link.isUp,
    onUp: (listener) => link.onUp(listener),
    seal: (owner, id) => (tokenKey === null ? '' : (owner.sealCredential((authorization) => sealToken(tokenKey, authorization, id)) ?? '')),
    canHandOver: (sealed) => tokenKey !== null && sealed !== '',

    async reserve(entry, sealed, limits): Promise<LimitAnswer> {
      saw(entry);
      const answer = await link.client.eval(
        START,
        0,
        P,
        entry.owner,
        entry.record.id,
        packEntry(entry, macKey),
        sealed,
        link.replicaId,
        RUN_LEASE_MS,
        limits.maxRunning,
        limits.maxRunningPerOwner,
        limits.maxRetained,
        ownerRetained(limits),
        Date.now(),
        limits.retainMs,
      );
      if (!isLimitAnswer(answer)) throw new Error(`the provisioning script answered ${String(answer)}`);
      return answer;
    },

    async write(entry, sealed) {
      saw(entry);
      return (await link.client.eval(WRITE, 0, ...args(entry, sealed))) !== 0;
    },
    async finish(entry, limits) {
      saw(entry);
      return (await link.client.eval(FINISH, 0, ...args(entry, ''), limits.retainMs)) !== 0;
    },

    async read(id) {
      const text = await link.client.get(keys.record(id));
      if (text === null) return null;
      let unpacked: { entry: Entry; authentic: boolean };
      try {
        unpacked = unpackEntry(text, macKey);
      } catch {
        return null;
      }
      // An entry this fleet did not write (or an older one written back) is shown to nobody.
      return trusted(id, unpacked) ? unpacked.entry : null;
    },

    async changes(id, listener) {
      const onMessage = (text: string): void => {
        try {
          const f = Fields.of(JSON.parse(text), 'ProvisioningMessage');
          const change: StoredChange = { version: f.int('version') ?? 0, record: parseProvisioningRecord(f.raw('record')) };
          listener(change);
        } catch {
          // A message this version cannot read: the watcher's periodic read catches up.
        }
      };
      await link.subscribe(keys.channel(id), onMessage);
      return () => link.unsubscribe(keys.channel(id), onMessage);
    },

    async renew(id) {
      return (await link.client.eval(RENEW, 1, keys.lease(id), link.replicaId, RUN_LEASE_MS)) === 1;
    },
    release,
    running: () => link.client.smembers(keys.running),
    async take(id) {
      return (await link.client.set(keys.lease(id), link.replicaId, 'PX', RUN_LEASE_MS, 'NX')) === 'OK';
    },

    async claim(id) {
      const [text, sealed] = await Promise.all([link.client.get(keys.record(id)), link.client.get(keys.token(id))]);
      if (text === null) {
        await link.client.srem(keys.running, id);
        await release(id);
        return { kind: 'gone' };
      }
      let unpacked: { entry: Entry; authentic: boolean };
      try {
        unpacked = unpackEntry(text, macKey);
      } catch {
        // Unreadable: nothing to resume, nothing to record; the run leaves the running set and its token goes.
        options.warn('a provisioning entry in Redis could not be read: not resumed', { id });
        await link.client.multi().srem(keys.running, id).del(keys.token(id)).exec();
        await release(id);
        return { kind: 'gone' };
      }
      if (!trusted(id, unpacked)) {
        // Ended from here with a version past any seen, so the FAILED record it writes is the newest.
        const entry = { ...unpacked.entry, version: Math.max(unpacked.entry.version, newest.get(id) ?? 0) };
        return { kind: 'altered', entry };
      }
      const token = sealed !== null && tokenKey !== null ? openToken(tokenKey, sealed, id) : null;
      return { kind: 'resumable', entry: unpacked.entry, token, sealed: sealed ?? '' };
    },
  };
}

export interface FleetProvisioningOptions<O> {
  link: RedisLink;
  limits: ProvisioningLimits;
  run: ProvisioningRun<O>;
  /** The owner of a run resumed here: its token (opened from the sealed copy) and the key the record was started under. */
  ownerFor: (authorization: string, ownerKey: string) => O;
  /** `FLEET_TOKEN_KEY`; null: no token is kept, a lapsed run ends FAILED. */
  tokenKey: Buffer | null;
  metrics: FleetMetrics;
  warn(message: string, fields?: Record<string, unknown>): void;
  untrusted?: UntrustedSink;
}

/** The fleet's provisionings: the lifecycle over the store in Redis. */
export function createFleetProvisionings<O extends ProvisioningOwner>(options: FleetProvisioningOptions<O>): ProvisioningJobs<O> {
  const { metrics } = options;
  return createProvisionings(createRedisProvisioningStore(options), {
    limits: options.limits,
    run: options.run,
    ownerFor: options.ownerFor,
    warn: options.warn,
    metrics: { takeover: () => metrics.takeover('provisioning'), watchLeases: (count) => metrics.watchLeases(count, 'provisioning') },
  });
}
