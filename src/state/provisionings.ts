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
import { ErrorCode, GatewayError, LimitExceededError } from '../errors/codes';
import { parseProvisioningRecord, parseStepActions } from '../provisioning/codec';
import {
  markCrashed,
  notFound,
  ownerRetained,
  retainedRefusal,
  snapshot,
  type ProvisioningJobs,
  type ProvisioningLimits,
  type ProvisioningOwner,
  type ProvisioningRun,
} from '../provisioning/jobs';
import type { ProvisioningRecord, StepAction } from '../provisioning/records';
import { HANDOVER, type RunHandle } from '../provisioning/runner';
import { Fields } from '../core/parse';
import type { FleetMetrics } from './metrics';
import { PREFIX, type RedisLink } from './redis';
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
 * Registers a new run, or answers why not. ARGV: prefix, owner, id, entry, sealed token ('' for
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
  ownerFor: (authorization: string) => O;
  /** `FLEET_TOKEN_KEY`; null: no token is kept, a lapsed run ends FAILED. */
  tokenKey: Buffer | null;
  metrics: FleetMetrics;
  warn(message: string, fields?: Record<string, unknown>): void;
}

function refusal(answer: string, limits: ProvisioningLimits): LimitExceededError {
  switch (answer) {
    case 'running:gateway':
      return new LimitExceededError('provisionings', limits.maxRunning, `the gateways run ${limits.maxRunning} provisionings already (MAX_PROVISIONINGS); try again when one has finished`, { scope: 'gateway', retryAfter: 5 });
    case 'running:caller':
      return new LimitExceededError('provisionings', limits.maxRunningPerOwner, `this caller runs ${limits.maxRunningPerOwner} provisionings already, its share of MAX_PROVISIONINGS; try again when one has finished`, { scope: 'caller', retryAfter: 5 });
    case 'retained:caller':
      return retainedRefusal(ownerRetained(limits), 'caller');
    default:
      return retainedRefusal(limits.maxRetained, 'gateway');
  }
}

export function createFleetProvisionings<O extends ProvisioningOwner>(options: FleetProvisioningOptions<O>): ProvisioningJobs<O> {
  const { link, limits } = options;
  const runs = new Map<string, LocalRun>();
  let closing = false;
  let rejoinedAt = 0;
  options.metrics.watchLeases(() => runs.size, 'provisioning');

  const message = (entry: Entry): string => JSON.stringify({ version: entry.version, record: entry.record });

  /** Writes an entry (FINISH once it is over): 0 when another replica holds its lease. */
  function store(entry: Entry, sealed: string): Promise<unknown> {
    const args = [P, entry.owner, entry.record.id, JSON.stringify(entry), sealed, link.replicaId, RUN_LEASE_MS, Date.now(), message(entry)];
    return entry.record.state !== 'RUNNING' ? link.client.eval(FINISH, 0, ...args, limits.retainMs) : link.client.eval(WRITE, 0, ...args);
  }

  /** Writes the run's record now (queued after the writes before it). */
  function write(local: LocalRun): Promise<void> {
    local.writing = local.writing.then(async () => {
      try {
        const written = await store(local.entry, local.sealed);
        local.dirty = false;
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
        for (const wake of local.listeners) wake();
      });
    return local;
  }

  // --- heartbeats and takeovers ---

  async function heartbeat(): Promise<void> {
    if (!link.isUp) return;
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
    const entry = parseEntry(text);
    const token = sealed !== null && options.tokenKey !== null ? openToken(options.tokenKey, sealed, id) : null;
    if (token !== null && sealed !== null) {
      options.warn('resuming a provisioning whose replica stopped', { id });
      carry(entry, sealed, options.ownerFor(token), true);
      return;
    }
    // No token to go on with: the run ends here, and says so.
    options.metrics.takeover('provisioning');
    options.warn('a provisioning whose replica stopped ends FAILED: no token to resume it with (FLEET_TOKEN_KEY)', { id });
    endWithoutToken(entry.record);
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
    for (const local of runs.values()) void write(local);
  });

  async function read(id: string, owner: string): Promise<ProvisioningRecord | null> {
    const local = runs.get(id);
    if (local !== undefined && (!link.isUp || local.dirty)) return local.entry.owner === owner ? snapshot(local.entry.record) : null;
    let text: string | null;
    try {
      if (!link.isUp) throw new Error('down');
      text = await link.client.get(keys.record(id));
    } catch {
      throw new GatewayError(ErrorCode.UPSTREAM_UNAVAILABLE, "the gateways' shared state (Redis) is not reachable from this replica: try again shortly");
    }
    if (text === null) return null;
    const entry = parseEntry(text);
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
          JSON.stringify(entry),
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
        if (answer !== 'ok') throw refusal(String(answer), limits);
      } else {
        // Alone until Redis is back: this replica's own runs count against the limits.
        const mine = [...runs.values()];
        if (mine.length >= limits.maxRunning) throw refusal('running:gateway', limits);
        if (mine.filter((r) => r.entry.owner === entry.owner).length >= limits.maxRunningPerOwner) throw refusal('running:caller', limits);
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

/** Ends a run that cannot go on: the step it was in failed (its change may have been sent), the record says why. */
function endWithoutToken(record: ProvisioningRecord): void {
  const now = new Date().toISOString();
  const error = {
    code: ErrorCode.INTERNAL_SERVER_ERROR,
    message:
      'the gateway replica running this provisioning stopped, and no other could resume it with your token (FLEET_TOKEN_KEY is not set, or is not the key it was kept with): check the resources it created, then start again',
    outcomeUnknown: true,
  };
  const step = record.steps.find((s) => s.state === 'RUNNING') ?? record.steps.find((s) => s.state === 'PENDING');
  if (step !== undefined) Object.assign(step, { state: 'FAILED', finishedAt: now, error: { ...error, outcomeUnknown: step.changeSent } });
  record.error = error;
  record.state = 'FAILED';
  record.finishedAt = now;
}
