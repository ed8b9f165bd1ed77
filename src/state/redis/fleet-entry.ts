/**
 * One target of the fleet's pollers on this replica (pollers.ts): its subscribers here, served per
 * credential (src/pollers/subscribers.ts), and the parts that keep it: its role and lease
 * (fleet-roles.ts, fleet-lease.ts), the polls it makes here (fleet-inner.ts) and what it hears
 * from the holder (fleet-listener.ts). It ends as an in-process poller does (src/pollers/life.ts).
 */
import type { CancelSignal } from '../../core/cancellation';
import { admissionRead, PollerLife, Subscribers, type PollerMetrics, type PollerRegistry, type PollerSettings, type PollKind, type PollOwner, type PollStream } from '../../pollers';
import { countingFleetPolls, InnerPoll } from './fleet-inner';
import { FleetLease } from './fleet-lease';
import { FleetListener, type ListenerHost } from './fleet-listener';
import { LeaseRoles, type Mode, type RolesHost } from './fleet-roles';
import type { RedisLink } from './link';
import type { FleetMetrics } from './metrics';
import type { PollValueCodec } from './poll-values';

/** What every entry of one registry shares. */
export interface Shared<S> {
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

export class FleetEntry<T, V, S> implements ListenerHost<V, S>, RolesHost {
  private readonly subscribers: Subscribers<V, PollOwner<S>>;
  private readonly life: PollerLife;
  private readonly lease: FleetLease;
  private readonly inner: InnerPoll<T, V, S>;
  private readonly listener: FleetListener<T, V, S>;
  private readonly roles: LeaseRoles;

  constructor(
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    private readonly owner: PollOwner<S>,
    private readonly shared: Shared<S>,
    done: () => void,
  ) {
    this.lease = new FleetLease(shared.link, kind.name, kind.key(target), owner.fingerprint, shared);
    // Every credential, the first one too, is served only after its own read on this replica: a
    // listener's values were read with another replica's credential.
    this.subscribers = new Subscribers<V, PollOwner<S>>(kind.name, shared.metrics, {
      lastLeft: () => this.life.stop(),
      admit: (o, signal) => this.admit(o, signal),
      admitted: (value) => this.admitted(value),
    });
    this.life = new PollerLife(this.subscribers, () => {
      this.listener.stop();
      this.roles.leave(kind.wire !== undefined);
      this.inner.stop();
      done();
    });
    const polling = countingFleetPolls(kind, () => {
      if (this.roles.mode === 'holder') shared.fleet.fleetPoll(kind.name);
    });
    this.inner = new InnerPoll(shared.inner, polling, target, {
      accept: (o) => this.subscribers.accept(o),
      value: async (value) => {
        this.deliver(value);
        if (this.roles.mode === 'holder') await this.lease.publish(this.listener.valueMessage(value), true);
      },
      ended: () => this.life.finish(null),
      refused: (refused, error) => this.refused(refused, error),
    });
    this.listener = new FleetListener(kind, target, shared.values, this.lease.place, this);
    this.roles = new LeaseRoles(shared.link, this.lease, shared.leaseMs, this.life, this);
  }

  get mode(): Mode {
    return this.roles.mode;
  }

  get subscriberCount(): number {
    return this.subscribers.count;
  }

  subscribe(owner: PollOwner<S>, signal?: CancelSignal): PollStream<V> {
    return this.subscribers.join(owner, signal);
  }

  start(): void {
    this.roles.start(this.kind.wire !== undefined);
  }

  close(): void {
    this.life.finish(null);
  }

  // --- what its parts ask of it ---

  get listening(): boolean {
    return this.roles.mode === 'follower';
  }

  get stopped(): boolean {
    return this.life.stopped;
  }

  get lead(): PollOwner<S> | undefined {
    return this.subscribers.lead;
  }

  /** To this replica's subscribers, when it differs from the last value they heard. */
  deliver(value: V): void {
    this.subscribers.deliver(value, this.kind.fingerprint(value));
  }

  finish(failure: null): void {
    this.life.finish(failure);
  }

  handover(): void {
    void this.roles.attemptTakeover();
  }

  message(text: string): void {
    this.listener.message(text);
  }

  async publishLatest(): Promise<void> {
    const latest = this.subscribers.latest;
    if (latest) await this.lease.publish(this.listener.valueMessage(latest.value), true);
  }

  tookOver(): void {
    this.shared.fleet.takeover(this.kind.name);
  }

  /** Polls here (holder or alone) with the lead's credential (the first subscriber's until one is admitted). */
  startInner(): void {
    if (!this.life.stopped) this.inner.start(this.subscribers.lead ?? this.owner);
  }

  stopInner(): void {
    this.inner.stop();
  }

  // --- admission and refusal ---

  /**
   * A credential's own read: the inner poller's first answer when this replica polls with that
   * very credential (no second read), else a read of its own (admission.ts).
   */
  private async admit(owner: PollOwner<S>, signal: AbortSignal): Promise<V> {
    await this.roles.placed;
    const first = this.inner.firstAnswerFor(owner);
    if (first !== null) {
      const answer = await first;
      if (answer !== null) return answer.value;
    }
    return admissionRead(this.kind, this.target, owner, this.shared.settings, AbortSignal.any([signal, this.life.signal]));
  }

  /** A credential's own read admitted it: deliver it; a poller that lost its credential polls again with the new lead. */
  private admitted(value: V): void {
    if (this.life.stopped) return;
    this.deliver(value);
    if (this.kind.isTerminal(value)) return this.life.finish(null);
    if (!this.inner.running && (this.roles.mode === 'holder' || this.roles.mode === 'local')) this.startInner();
  }

  /**
   * The platform refused the credential polled with (or the target, as it sees it): its
   * subscribers end; another admitted one polls next. Nothing is published: a listener's
   * credentials are not this one, it hears the platform itself once it holds the lease.
   */
  private refused(refused: PollOwner<S> | null, error: unknown): void {
    if (refused !== null) this.subscribers.drop(refused.credential, error);
    if (this.subscribers.count === 0) return this.life.stop();
    if (this.subscribers.lead !== undefined) this.startInner();
  }
}
