/**
 * The fleet's provisionings: each record (with its plan and owner) lives in Redis, readable and
 * followable from every replica; its run is leased to one replica, which renews the lease as a
 * heartbeat and writes each change (a write is refused once the lease is somebody else's: that
 * run stops). Every replica looks for runs whose lease has lapsed and resumes them from the last
 * recorded step (src/provisioning/runner.ts: a create that may have been sent is looked up by
 * name first), with the owner's token opened from its sealed copy; without `FLEET_TOKEN_KEY`
 * no token is kept, and such a run ends FAILED, saying why, on the replica that finds it.
 *
 * Limits are counted in Redis, for the whole fleet: MAX_PROVISIONINGS and each owner's share,
 * PROVISIONINGS_RETAINED (the oldest finished records go first, an owner's own before others').
 * While Redis is not reachable, a replica starts and runs provisionings on its own and writes
 * them when it is back; records of other replicas cannot be read meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, GatewayError } from '../errors/codes';
import { parseProvisioningRecord, parseStepActions } from '../provisioning/codec';
import { markCrashed, notFound, snapshot, type ProvisioningJobs, type ProvisioningOwner, type ProvisioningRun } from '../provisioning/jobs';
import { isLimitAnswer, ownerRetained, ProvisioningLedger, refusalOf, type ProvisioningLimits } from '../provisioning/limits';
import type { ProvisioningRecord, StepAction } from '../provisioning/records';
import { HANDOVER, type RunHandle } from '../provisioning/runner';
import { Fields } from '../core/parse';
import type { FleetMetrics } from './metrics';
import { PREFIX, type RedisLink } from './redis';
import { deriveKey, mac, macMatches } from './seal';
import { openToken, sealToken } from './token-seal';

/** How long a run's lease lasts without a heartbeat (renewed every third of it). */
export const RUN_LEASE_MS = 5000;
/** How long a sealed token may outlive its run at most (it is deleted when the run ends). */
const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** After Redis comes back, how long to leave runs to the replicas that carried them before taking lapsed ones. */
const REJOIN_GRACE_MS = RUN_LEASE_MS + 2000;
/** A watcher on another replica also reads the record this often, in case a change message was lost. */
const WATCH_REREAD_MS = 2000;

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
interface Entry {
  owner: string;
  version: number;
  record: ProvisioningRecord;
  actions: readonly StepAction[];
}

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

/** A run this replica carries. */
interface LocalRun {
  entry: Entry;
  sealed: string;
  controller: AbortController;
  listeners: Set<() => void>;
  /** Writes go one after another; `checkpoint` waits for the chain. */
  writing: Promise<void>;
  /** A change could not be written (Redis unreachable): written again when it is back. */
  dirty: boolean;
  done: Promise<void>;
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
}

export function createFleetProvisionings<O extends ProvisioningOwner>(options: FleetProvisioningOptions<O>): ProvisioningJobs<O> {
  const { link, limits } = options;
  const macKey = options.tokenKey === null ? null : deriveKey(options.tokenKey, 'provisioning-entry');
  const runs = new Map<string, LocalRun>();
  /**
   * The runs this replica carried, by the limits' own rules (provisioning/limits.ts): what counts
   * while Redis is away, when new runs are reserved here instead of by the START script.
   */
  const alone = new ProvisioningLedger(limits);
  /**
   * Runs that ended here while Redis was away, their last record not written yet: written when it
   * is back (else the record there would still say RUNNING, and another replica would resume a
   * run that is over).
   */
  const unwritten = new Map<string, LocalRun>();
  let closing = false;
  let rejoinedAt = 0;
  options.metrics.watchLeases(() => runs.size, 'provisioning');

  const message = (entry: Entry): string => JSON.stringify({ version: entry.version, record: entry.record });

  /** Writes an entry (FINISH once it is over): 0 when another replica holds its lease. */
  function store(entry: Entry, sealed: string): Promise<unknown> {
    const args = [P, entry.owner, entry.record.id, packEntry(entry, macKey), sealed, link.replicaId, RUN_LEASE_MS, Date.now(), message(entry)];
    return entry.record.state !== 'RUNNING' ? link.client.eval(FINISH, 0, ...args, limits.retainMs) : link.client.eval(WRITE, 0, ...args);
  }

  /** Writes the run's record now (queued after the writes before it). */
  function write(local: LocalRun): Promise<void> {
    local.writing = local.writing.then(async () => {
      try {
        const written = await store(local.entry, local.sealed);
        local.dirty = false;
        unwritten.delete(local.entry.record.id);
        if (written === 0) handOver(local, 'another replica runs it now');
      } catch {
        local.dirty = true;
      }
    });
    return local.writing;
  }

  /** This replica stops carrying the run (another one does, or will): nothing more is recorded here. */
  function handOver(local: LocalRun, why: string): void {
    if (local.controller.signal.aborted) return;
    options.warn('provisioning handed over', { id: local.entry.record.id, why });
    local.controller.abort(HANDOVER);
  }

  function carry(entry: Entry, sealed: string, owner: O, resumed: boolean): LocalRun {
    const controller = new AbortController();
    const local: LocalRun = { entry, sealed, controller, listeners: new Set(), writing: Promise.resolve(), dirty: false, done: Promise.resolve() };
    runs.set(entry.record.id, local);
    alone.track(entry.owner, entry.record.id);
    const handle: RunHandle = {
      record: entry.record,
      change(edit) {
        edit(entry.record);
        if (controller.signal.aborted && controller.signal.reason === HANDOVER) return;
        entry.version += 1;
        for (const wake of local.listeners) wake();
        void write(local);
      },
      checkpoint: () => local.writing,
    };
    if (resumed) options.metrics.takeover('provisioning');
    local.done = options
      .run(owner, handle, entry.actions, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.reason !== HANDOVER) handle.change((r) => markCrashed(r, error));
      })
      .then(() => local.writing)
      .finally(() => {
        runs.delete(entry.record.id);
        if (local.dirty) unwritten.set(entry.record.id, local);
        alone.finish(entry.record.id, Date.now());
        for (const wake of local.listeners) wake();
      });
    return local;
  }

  // --- heartbeats and takeovers ---

  async function heartbeat(): Promise<void> {
    if (!link.isUp) return;
    for (const local of unwritten.values()) void write(local);
    for (const local of runs.values()) {
      if (local.dirty) {
        void write(local);
        continue;
      }
      try {
        const held = await link.client.eval(RENEW, 1, keys.lease(local.entry.record.id), link.replicaId, RUN_LEASE_MS);
        if (held !== 1) handOver(local, 'its lease is held by another replica');
      } catch {
        // Unreachable: written again when it is back.
      }
    }
  }

  async function takeOver(): Promise<void> {
    if (!link.isUp || closing || Date.now() - rejoinedAt < REJOIN_GRACE_MS) return;
    let ids: string[];
    try {
      ids = await link.client.smembers(keys.running);
    } catch {
      return;
    }
    for (const id of ids) {
      if (runs.has(id) || closing) continue;
      try {
        const taken = await link.client.set(keys.lease(id), link.replicaId, 'PX', RUN_LEASE_MS, 'NX');
        if (taken === 'OK') await resume(id);
      } catch (error) {
        options.warn('could not resume a provisioning', { id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** A lapsed run, now leased to this replica: resumed with its owner's token, or ended saying why not. */
  async function resume(id: string): Promise<void> {
    const [text, sealed] = await Promise.all([link.client.get(keys.record(id)), link.client.get(keys.token(id))]);
    if (text === null) {
      await link.client.srem(keys.running, id);
      await link.client.eval(RELEASE, 1, keys.lease(id), link.replicaId);
      return;
    }
    let unpacked: { entry: Entry; authentic: boolean };
    try {
      unpacked = unpackEntry(text, macKey);
      if (unpacked.entry.record.id !== id) unpacked.authentic = false;
    } catch {
      // Unreadable: nothing to resume, nothing to record; the run leaves the running set and its token goes.
      options.warn('a provisioning entry in Redis could not be read: not resumed', { id });
      await link.client.multi().srem(keys.running, id).del(keys.token(id)).exec();
      await link.client.eval(RELEASE, 1, keys.lease(id), link.replicaId);
      return;
    }
    const { entry } = unpacked;
    if (!unpacked.authentic) {
      // Changed in Redis (or written without the key): never run with the owner's token. Nothing is sent.
      options.metrics.takeover('provisioning');
      options.warn('a provisioning entry in Redis failed its integrity check (FLEET_TOKEN_KEY): not resumed, ended FAILED', { id });
      endUnresumable(entry.record, ALTERED);
      entry.version += 1;
      await store(entry, '');
      return;
    }
    const token = sealed !== null && options.tokenKey !== null ? openToken(options.tokenKey, sealed, id) : null;
    if (token !== null && sealed !== null) {
      options.warn('resuming a provisioning whose replica stopped', { id });
      carry(entry, sealed, options.ownerFor(token, entry.owner), true);
      return;
    }
    // No token to go on with: the run ends here, and says so.
    options.metrics.takeover('provisioning');
    options.warn('a provisioning whose replica stopped ends FAILED: no token to resume it with (FLEET_TOKEN_KEY)', { id });
    endUnresumable(entry.record, NO_TOKEN);
    entry.version += 1;
    await store(entry, '');
  }

  const timers = [setInterval(() => void heartbeat(), RUN_LEASE_MS / 3), setInterval(() => void takeOver(), RUN_LEASE_MS / 2)];
  for (const timer of timers) timer.unref();
  let joined = false;
  const offUp = link.onUp(() => {
    // Back after an outage (not the first connection): other replicas' leases may have lapsed meanwhile.
    if (joined) rejoinedAt = Date.now();
    joined = true;
    // Write back what this replica carried while Redis was away (a restarted Redis is empty).
    for (const local of [...runs.values(), ...unwritten.values()]) void write(local);
  });

  async function read(id: string, owner: string): Promise<ProvisioningRecord | null> {
    const local = runs.get(id) ?? unwritten.get(id);
    if (local !== undefined && (!link.isUp || local.dirty)) return local.entry.owner === owner ? snapshot(local.entry.record) : null;
    let text: string | null;
    try {
      if (!link.isUp) throw new Error('down');
      text = await link.client.get(keys.record(id));
    } catch {
      throw new GatewayError(ErrorCode.UPSTREAM_UNAVAILABLE, "the gateways' shared state (Redis) is not reachable from this replica: try again shortly");
    }
    if (text === null) return null;
    const { entry } = unpackEntry(text, macKey);
    return entry.owner === owner ? entry.record : null;
  }

  return {
    async start(owner, fields, actions) {
      if (closing) throw new GatewayError(ErrorCode.UPSTREAM_UNAVAILABLE, 'this gateway is shutting down');
      const id = randomUUID();
      const entry: Entry = { owner: owner.fingerprint, version: 1, record: { id, ...fields }, actions };
      const key = options.tokenKey;
      const sealed = key === null ? '' : (owner.sealCredential((authorization) => sealToken(key, authorization, id)) ?? '');
      if (link.isUp) {
        const answer = await link.client.eval(
          START,
          0,
          P,
          entry.owner,
          id,
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
        if (answer !== 'ok') throw refusalOf(answer, limits);
      } else {
        // Alone until Redis is back: the runs this replica carried count, by the same rules.
        const answer = alone.reserve(entry.owner, id, Date.now());
        if (answer !== 'ok') throw refusalOf(answer, limits);
      }
      const local = carry(entry, sealed, owner, false);
      local.dirty = !link.isUp;
      return snapshot(entry.record);
    },

    get: (id, owner) => read(id, owner),

    async *watch(id, owner, signal) {
      let seen = -1;
      let latest: { version: number; record: ProvisioningRecord } | null = null;
      let wake: (() => void) | null = null;
      const poke = (): void => wake?.();
      const onMessage = (text: string): void => {
        try {
          const f = Fields.of(JSON.parse(text), 'ProvisioningMessage');
          const version = f.int('version') ?? 0;
          if (latest !== null && version > latest.version) latest = { version, record: parseProvisioningRecord(f.raw('record')) };
          poke();
        } catch {
          // A message this version cannot read: the periodic read catches up.
        }
      };
      const reread = setInterval(() => {
        void read(id, owner)
          .then((record) => {
            if (record !== null && latest !== null && JSON.stringify(record) !== JSON.stringify(latest.record)) {
              latest = { version: latest.version + 1, record };
              poke();
            }
          })
          .catch(() => undefined);
      }, WATCH_REREAD_MS);
      // This replica's own run also wakes its watchers directly (Redis may be away).
      const local = runs.get(id);
      const onLocal = (): void => {
        const run = runs.get(id);
        if (run !== undefined && latest !== null && run.entry.version > latest.version) latest = { version: run.entry.version, record: snapshot(run.entry.record) };
        poke();
      };
      local?.listeners.add(onLocal);
      // Listening before the first read: no change falls between the two.
      await link.subscribe(keys.channel(id), onMessage);
      signal.addEventListener('abort', poke);
      try {
        const first = await read(id, owner);
        if (first === null) throw notFound(id);
        latest ??= { version: 0, record: first };
        while (!signal.aborted) {
          if (latest.version !== seen) {
            seen = latest.version;
            const current = snapshot(latest.record);
            yield current;
            if (current.state !== 'RUNNING') return;
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        clearInterval(reread);
        local?.listeners.delete(onLocal);
        link.unsubscribe(keys.channel(id), onMessage);
        signal.removeEventListener('abort', poke);
      }
    },

    running: () => runs.size,

    async close() {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      offUp();
      const carried = [...runs.values()];
      for (const local of carried) {
        // With a key, another replica resumes the run: give its lease up. Without one, it stops here and says so.
        if (options.tokenKey !== null && local.sealed !== '' && link.isUp) {
          local.controller.abort(HANDOVER);
          await local.done;
          await local.writing;
          await link.client.eval(RELEASE, 1, keys.lease(local.entry.record.id), link.replicaId).catch(() => undefined);
        } else local.controller.abort();
      }
      await Promise.allSettled(carried.map((r) => r.done));
    },
  };
}

const NO_TOKEN =
  'the gateway replica running this provisioning stopped, and no other could resume it with your token (FLEET_TOKEN_KEY is not set, or is not the key it was kept with): check the resources it created, then start again';
const ALTERED =
  "the gateway replica running this provisioning stopped, and its record in the gateways' shared state (Redis) had been changed by something other than a gateway of this fleet, so it was not resumed and nothing more was sent: check the resources it created, then start again";

/** Ends a run that cannot go on: the step it was in failed (its change may have been sent), the record says why. */
function endUnresumable(record: ProvisioningRecord, message: string): void {
  const now = new Date().toISOString();
  const error = { code: ErrorCode.INTERNAL_SERVER_ERROR, message, outcomeUnknown: true };
  const step = record.steps.find((s) => s.state === 'RUNNING') ?? record.steps.find((s) => s.state === 'PENDING');
  if (step !== undefined) Object.assign(step, { state: 'FAILED', finishedAt: now, error: { ...error, outcomeUnknown: step.changeSent } });
  record.error = error;
  record.state = 'FAILED';
  record.finishedAt = now;
}
