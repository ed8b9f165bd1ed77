/**
 * The poller registry of a fleet: one poller per (kind, target, identity) across every replica. The replica holding the target's lease in Redis polls (through an in-process
 * registry) and publishes each change on the target's channel, keeping the latest one; replicas
 * with subscribers to the same target listen instead, and try for the lease every half lease,
 * so when the holder dies one of them polls within about one and a half poll intervals. A holder
 * whose last subscriber leaves gives the lease up and says so, and a listener takes it at once.
 *
 * Only identity keys and sealed values go to Redis: never a credential (each replica polls with
 * the token of its own subscribers), and a value only sealed with the fleet key, which also
 * authenticates it and its order (poll-values.ts); without the key, a message only says the
 * target changed and each listener reads it itself. Data are served per credential on every
 * replica: a credential is served anything (the holder's values included) only once its own
 * read of the target succeeded on this replica (src/pollers/subscribers.ts). Nothing read from
 * Redis ends a subscription: a holder whose credentials were all refused gives the lease up, and
 * a listener that takes it over polls with its own credential and hears the platform's answer
 * itself. A kind without `wire`, and every kind while Redis is not reachable, is polled by this
 * replica on its own; when Redis is back the targets re-join.
 */
import {
  admissionRead,
  createAcquisition,
  createPollerRegistry,
  Subscribers,
  type PollerMetrics,
  type PollerRegistry,
  type PollerSettings,
  type PollKind,
  type PollOwner,
  type PollStream,
} from '../../pollers';
import { Fields } from '../../core/parse';
import type { FleetMetrics } from './metrics';
import { pollValueCodec, type PollValueCodec } from './poll-values';
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

/** The shortest lease: below it a busy event loop could lose one it holds. */
const MIN_LEASE_MS = 250;

interface Shared<S> {
  link: RedisLink;
  settings: PollerSettings;
  inner: PollerRegistry<S>;
  metrics: PollerMetrics;
  fleet: FleetMetrics;
  values: PollValueCodec;
  leaseMs: number;
  /** How long the latest value is kept for a replica that joins later. */
  latestMs: number;
}

type Mode = 'starting' | 'local' | 'holder' | 'follower';

class FleetEntry<T, V, S> {
  mode: Mode = 'starting';
  private readonly subscribers: Subscribers<V, PollOwner<S>>;
  /** The authenticated order of the last value published or accepted (poll-values.ts): an older one is a replay. */
  private at = 0;
  private inner: PollStream<V> | null = null;
  /** The credential the inner poller polls with. */
  private innerOwner: PollOwner<S> | null = null;
  /** Aborts this entry's admission reads when it stops. */
  private readonly controller = new AbortController();
  /** Settles once this entry knows whether it polls (holder, local) or listens, or has stopped. */
  private readonly placed: Promise<void>;
  private settle: () => void = () => undefined;
  /** The inner poller's first answer: the own read of the credential it polls with. */
  private first: { promise: Promise<{ value: V } | null>; resolve(answer: { value: V } | null): void; reject(error: unknown): void } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly unhook: Array<() => void> = [];
  private readonly polling: PollKind<T, V, S>;
  private readonly keys: { lease: string; latest: string; channel: string };
  /** Where this target's values belong (a sealed value opens here only). */
  private readonly place: string;
  /** A read of the target by this listener itself (a value came stripped): its signal, and whether another is due. */
  private reading: { controller: AbortController; again: boolean } | null = null;
  private readonly onMessage = (message: string): void => this.message(message);

  constructor(
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    private readonly owner: PollOwner<S>,
    private readonly shared: Shared<S>,
    private readonly done: () => void,
  ) {
    const base = `${PREFIX}poll:${kind.name}:${kind.key(target)}#${owner.fingerprint}`;
    this.keys = { lease: `${base}:lease`, latest: `${base}:latest`, channel: `${base}:events` };
    this.place = base;
    this.placed = new Promise<void>((resolve) => (this.settle = resolve));
    // Every credential, the first one too, is served only after its own read on this replica: a
    // listener's values were read with another replica's credential.
    this.subscribers = new Subscribers<V, PollOwner<S>>(kind.name, shared.metrics, {
      lastLeft: () => this.stop(),
      admit: (o, signal) => this.admit(o, signal),
      admitted: (value) => this.admitted(value),
    });
    // The same kind, counting the polls this replica makes for the fleet while it holds the lease.
    this.polling = {
      ...kind,
      poll: (t, session, signal) => {
        if (this.mode === 'holder') shared.fleet.fleetPoll(kind.name);
        return kind.poll(t, session, signal);
      },
    };
  }

  get subscriberCount(): number {
    return this.subscribers.count;
  }

  subscribe(owner: PollOwner<S>, signal?: AbortSignal): PollStream<V> {
    return this.subscribers.join(owner, signal);
  }

  start(): void {
    const { link } = this.shared;
    if (this.kind.wire === undefined) return this.goLocal();
    this.unhook.push(
      link.onUp(() => void this.rejoin()),
      link.onDown(() => this.goLocal()),
    );
    if (!link.isUp) return this.goLocal();
    void this.join();
  }

  close(): void {
    this.finish(null);
  }

  // --- roles ---

  private async join(): Promise<void> {
    const { link, leaseMs } = this.shared;
    try {
      await link.subscribe(this.keys.channel, this.onMessage);
      const taken = await link.client.set(this.keys.lease, link.replicaId, 'PX', leaseMs, 'NX');
      // Redis went away meanwhile: this entry polls alone now, and re-joins when it is back.
      if (this.stopped || this.mode !== 'starting') return;
      if (taken === 'OK') this.becomeHolder(false);
      else await this.becomeFollower();
    } catch {
      if (!this.stopped && this.mode === 'starting') this.goLocal();
    }
  }

  /** Redis is back: keep polling if the lease is free (or still ours), else listen to whoever has it. */
  private async rejoin(): Promise<void> {
    if (this.stopped || this.mode !== 'local') return;
    const { link, leaseMs } = this.shared;
    try {
      await link.subscribe(this.keys.channel, this.onMessage);
      const held = await link.client.eval(RENEW, 2, this.keys.lease, this.keys.latest, link.replicaId, leaseMs, this.shared.latestMs);
      if (this.stopped || this.mode !== 'local') return;
      if (held === 1) {
        this.becomeHolder(false);
        // Listeners and late joiners get what this replica saw while it polled alone.
        const latest = this.subscribers.latest;
        if (latest) await this.publish(this.valueMessage(latest.value), true);
      } else await this.becomeFollower();
    } catch {
      // Still unreachable after all: stay local until the next time it comes up.
    }
  }

  private becomeHolder(takeover: boolean): void {
    this.mode = 'holder';
    this.settle();
    if (takeover) this.shared.fleet.takeover(this.kind.name);
    this.startInner();
    this.every(this.shared.leaseMs / 3, () => void this.renew());
  }

  private async becomeFollower(): Promise<void> {
    this.mode = 'follower';
    this.settle();
    this.stopInner();
    this.every(this.shared.leaseMs / 2, () => void this.attemptTakeover());
    const latest = await this.shared.link.client.get(this.keys.latest).catch(() => null);
    if (latest !== null && !this.stopped) this.message(latest);
  }

  /** Polls on this replica alone: a kind that cannot travel, or Redis unreachable. */
  private goLocal(): void {
    if (this.stopped) return;
    this.mode = 'local';
    this.settle();
    this.clearTimer();
    this.startInner();
  }

  private async renew(): Promise<void> {
    const { link, leaseMs } = this.shared;
    try {
      const held = await link.client.eval(RENEW, 2, this.keys.lease, this.keys.latest, link.replicaId, leaseMs, this.shared.latestMs);
      if (held !== 1 && this.mode === 'holder' && !this.stopped) await this.becomeFollower();
    } catch {
      // Unreachable: the link's down hook makes this entry local.
    }
  }

  private async attemptTakeover(): Promise<void> {
    const { link, leaseMs } = this.shared;
    try {
      const taken = await link.client.set(this.keys.lease, link.replicaId, 'PX', leaseMs, 'NX');
      if (taken === 'OK' && this.mode === 'follower' && !this.stopped) this.becomeHolder(true);
    } catch {
      // Unreachable: the link's down hook makes this entry local.
    }
  }

  // --- values ---

  /** Polls here (holder or alone) with the lead's credential (the first subscriber's until one is admitted). */
  private startInner(): void {
    if (this.inner !== null || this.stopped) return;
    const owner = this.subscribers.lead ?? this.owner;
    const stream = this.shared.inner.acquire(this.polling, this.target, owner);
    this.inner = stream;
    this.innerOwner = owner;
    // Null: the inner poller stopped before answering (this replica listens now): read yourself.
    let resolve: (answer: { value: V } | null) => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const promise = new Promise<{ value: V } | null>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => undefined);
    this.first = { promise, resolve, reject };
    void this.consume(stream);
  }

  private stopInner(): void {
    const stream = this.inner;
    this.inner = null;
    this.innerOwner = null;
    this.first?.resolve(null);
    this.first = null;
    stream?.release();
  }

  /**
   * A credential's own read: the inner poller's first answer when this replica polls with that
   * very credential (no second read), else a read of its own (admission.ts).
   */
  private async admit(owner: PollOwner<S>, signal: AbortSignal): Promise<V> {
    await this.placed;
    const first = this.first;
    if (first !== null && this.innerOwner?.credential === owner.credential) {
      const answer = await first.promise;
      if (answer !== null) return answer.value;
    }
    return admissionRead(this.kind, this.target, owner, this.shared.settings, AbortSignal.any([signal, this.controller.signal]));
  }

  /** A credential's own read admitted it: deliver it; a poller that lost its credential polls again with the new lead. */
  private admitted(value: V): void {
    if (this.stopped) return;
    this.deliver(value);
    if (this.kind.isTerminal(value)) return this.finish(null);
    if (this.inner === null && (this.mode === 'holder' || this.mode === 'local')) this.startInner();
  }

  private async consume(stream: PollStream<V>): Promise<void> {
    try {
      for await (const value of stream) {
        if (stream !== this.inner) return;
        // A poll with the inner owner's credential is its own read: it is served from now on.
        if (this.innerOwner !== null) this.subscribers.accept(this.innerOwner);
        this.first?.resolve({ value });
        this.deliver(value);
        if (this.mode === 'holder') await this.publish(this.valueMessage(value), true);
      }
      // The poller ended: a terminal value (already delivered), or the inner registry closing.
      if (stream === this.inner) this.finish(null);
    } catch (error) {
      if (stream !== this.inner) return;
      this.first?.reject(error);
      // The platform refused the credential polled with (or the target, as it sees it): its
      // subscribers end; another admitted one polls next. Nothing is published: a listener's
      // credentials are not this one, it hears the platform itself once it holds the lease.
      const refused = this.innerOwner;
      this.stopInner();
      if (refused !== null) this.subscribers.drop(refused.credential, error);
      if (this.subscribers.count === 0) return this.stop();
      if (this.subscribers.lead !== undefined) this.startInner();
    }
  }

  /** A value as it crosses Redis: sealed with its order, or (no fleet key) only the news that it changed. */
  private valueMessage(value: V): Record<string, unknown> {
    const wire = this.kind.wire;
    this.at = Math.max(Date.now(), this.at + 1);
    return { type: 'value', ...this.shared.values.pack(wire === undefined ? null : wire.encode(value), this.place, this.at) };
  }

  /** To this replica's subscribers, when it differs from the last value they heard. */
  private deliver(value: V): void {
    this.subscribers.deliver(value, this.kind.fingerprint(value));
  }

  private async publish(message: Record<string, unknown>, keep: boolean): Promise<void> {
    const { link, latestMs } = this.shared;
    try {
      await link.client.eval(PUBLISH, 2, this.keys.latest, this.keys.channel, JSON.stringify(message), latestMs, keep ? '1' : '0');
    } catch {
      // Unreachable: subscribers here still get every value; listeners elsewhere poll for themselves.
    }
  }

  /** A message on the target's channel (or the latest value, read when starting to listen). */
  private message(text: string): void {
    if (this.stopped) return;
    let f: Fields;
    try {
      f = Fields.of(JSON.parse(text), 'PollMessage');
    } catch {
      return;
    }
    const type = f.str('type');
    if (type === 'handover') {
      if (this.mode === 'follower') void this.attemptTakeover();
      return;
    }
    // Only values count (Redis's own `seq` is anyone's to write: order comes from inside the seal).
    if (this.mode !== 'follower' || type !== 'value' || this.kind.wire === undefined) return;
    let value: V;
    try {
      const unpacked = this.shared.values.unpack(f, this.place);
      if (unpacked === null) return void this.readItself();
      // A replay of an older value (or the same one again) is no news.
      if (unpacked.at <= this.at) return;
      value = this.kind.wire.decode(unpacked.json);
      this.at = unpacked.at;
    } catch {
      return; // written by a replica of another version: its next value may read
    }
    this.deliver(value);
    if (this.kind.isTerminal(value)) this.finish(null);
  }

  /**
   * The holder's value came without its secrets (or sealed under another key): this replica reads
   * the target once with its own subscribers' credentials, so they get the whole value. Reads do
   * not overlap; a value announced meanwhile is read once more after.
   */
  private async readItself(): Promise<void> {
    if (this.reading !== null) {
      this.reading.again = true;
      return;
    }
    const reading = { controller: new AbortController(), again: true };
    this.reading = reading;
    try {
      while (reading.again && !this.stopped && this.mode === 'follower') {
        reading.again = false;
        const { signal } = reading.controller;
        // The lead's credential: its data reach only admitted members. None yet: their own reads are on their way.
        const lead = this.subscribers.lead;
        if (lead === undefined) return;
        const value = await this.kind.poll(this.target, lead.session(signal), signal);
        if (this.stopped || this.mode !== 'follower') return;
        this.deliver(value);
        if (this.kind.isTerminal(value)) return this.finish(null);
      }
    } catch {
      // The holder's next value, or its failure, reaches the subscribers.
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }

  // --- ending ---

  private finish(failure: { error: unknown } | null): void {
    this.subscribers.endAll(failure);
    this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearTimer();
    this.controller.abort();
    this.settle();
    this.reading?.controller.abort();
    for (const unhook of this.unhook.splice(0)) unhook();
    const { link } = this.shared;
    if (this.kind.wire !== undefined) link.unsubscribe(this.keys.channel, this.onMessage);
    if (this.mode === 'holder') {
      // Give the lease up, and tell the listeners so that one of them polls at once.
      void link.client
        .eval(RELEASE, 1, this.keys.lease, link.replicaId)
        .then(() => link.client.publish(this.keys.channel, JSON.stringify({ type: 'handover' })))
        .catch(() => undefined);
    }
    this.stopInner();
    this.done();
  }

  private every(ms: number, fn: () => void): void {
    this.clearTimer();
    this.timer = setInterval(fn, Math.max(10, Math.round(ms)));
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * `fleetKey` (`FLEET_TOKEN_KEY`) seals the values kept and published in Redis; without it their
 * secret fields are stripped (poll-values.ts).
 */
export function createFleetPollers<S>(link: RedisLink, settings: PollerSettings, metrics: PollerMetrics, fleet: FleetMetrics, fleetKey: Buffer | null = null): PollerRegistry<S> {
  // The in-process registry polls for this replica; its limits are the entries' (below).
  const inner = createPollerRegistry<S>(
    { ...settings, maxPollers: Number.MAX_SAFE_INTEGER, maxPollersPerCaller: Number.MAX_SAFE_INTEGER },
    { ...metrics, subscriberJoined: () => undefined, subscriberLeft: () => undefined },
  );
  const leaseMs = Math.max(MIN_LEASE_MS, settings.intervalMs);
  const shared: Shared<S> = { link, settings, inner, metrics, fleet, values: pollValueCodec(fleetKey), leaseMs, latestMs: Math.max(leaseMs * 4, settings.maxIntervalMs * 2) };
  // Targets this replica follows (holding, listening or alone): acquisition and its limits are the pollers' own.
  const entries = new Set<{ readonly mode: Mode }>();
  fleet.watchLeases(() => [...entries].filter((e) => e.mode === 'holder').length);
  return createAcquisition<S>(
    settings,
    (kind, target, owner, stopped) => {
      const entry = new FleetEntry(kind, target, owner, shared, () => {
        entries.delete(entry);
        stopped();
      });
      entries.add(entry);
      return entry;
    },
    () => inner.close(),
    // Every replica hears each change; the one polling a target (its holder, or itself alone) polls it at once.
    (change) => inner.wake(change),
  );
}
