/**
 * A fleet entry's (fleet-entry.ts) role for its target: it holds the lease and polls, listens to
 * the holder, or polls alone (a kind that cannot travel, or Redis unreachable). The lease is
 * renewed every third of it; a listener tries for it every half lease and at once on a handover;
 * when Redis is back a lone poller re-joins.
 */
import type { PollerLife } from '../../pollers';
import type { FleetLease } from './fleet-lease';
import type { RedisLink } from './link';

export type Mode = 'starting' | 'local' | 'holder' | 'follower';

/** What the roles need of their entry. */
export interface RolesHost {
  /** Polls here (holder or alone). */
  startInner(): void;
  stopInner(): void;
  /** A message on the target's channel (or the latest value kept). */
  message(text: string): void;
  /** Publishes and keeps what this replica's subscribers heard last, when there is something. */
  publishLatest(): Promise<void>;
  /** A lapsed lease taken over (a metric). */
  tookOver(): void;
}

export class LeaseRoles {
  mode: Mode = 'starting';
  /** Settles once the entry knows whether it polls (holder, local) or listens, or has stopped. */
  readonly placed: Promise<void>;
  private settle: () => void = () => undefined;
  private readonly unhook: Array<() => void> = [];
  private readonly onMessage = (message: string): void => this.host.message(message);

  constructor(
    private readonly link: RedisLink,
    private readonly lease: FleetLease,
    private readonly leaseMs: number,
    private readonly life: PollerLife,
    private readonly host: RolesHost,
  ) {
    this.placed = new Promise<void>((resolve) => (this.settle = resolve));
  }

  /** `travels`: the kind has a `wire`, so its values can cross Redis. */
  start(travels: boolean): void {
    const { link } = this;
    if (!travels) return this.goLocal();
    this.unhook.push(
      link.onUp(() => void this.rejoin()),
      link.onDown(() => this.goLocal()),
    );
    if (!link.isUp) return this.goLocal();
    void this.join();
  }

  /** The entry stopped: the channel left, and the lease given up (listeners told) when it held it. */
  leave(travels: boolean): void {
    this.settle();
    for (const unhook of this.unhook.splice(0)) unhook();
    if (travels) this.link.unsubscribe(this.lease.channel, this.onMessage);
    if (this.mode === 'holder') this.lease.release();
  }

  async attemptTakeover(): Promise<void> {
    try {
      if ((await this.lease.take()) && this.mode === 'follower' && !this.life.stopped) this.becomeHolder(true);
    } catch {
      // Unreachable: the link's down hook makes this entry local.
    }
  }

  private async join(): Promise<void> {
    try {
      await this.link.subscribe(this.lease.channel, this.onMessage);
      const taken = await this.lease.take();
      // Redis went away meanwhile: this entry polls alone now, and re-joins when it is back.
      if (this.life.stopped || this.mode !== 'starting') return;
      if (taken) this.becomeHolder(false);
      else await this.becomeFollower();
    } catch {
      if (!this.life.stopped && this.mode === 'starting') this.goLocal();
    }
  }

  /** Redis is back: keep polling if the lease is free (or still ours), else listen to whoever has it. */
  private async rejoin(): Promise<void> {
    if (this.life.stopped || this.mode !== 'local') return;
    try {
      await this.link.subscribe(this.lease.channel, this.onMessage);
      const held = await this.lease.renew();
      if (this.life.stopped || this.mode !== 'local') return;
      if (held) {
        this.becomeHolder(false);
        // Listeners and late joiners get what this replica saw while it polled alone.
        await this.host.publishLatest();
      } else await this.becomeFollower();
    } catch {
      // Still unreachable after all: stay local until the next time it comes up.
    }
  }

  private becomeHolder(takeover: boolean): void {
    this.mode = 'holder';
    this.settle();
    if (takeover) this.host.tookOver();
    this.host.startInner();
    this.life.every(this.leaseMs / 3, () => void this.renew());
  }

  private async becomeFollower(): Promise<void> {
    this.mode = 'follower';
    this.settle();
    this.host.stopInner();
    this.life.every(this.leaseMs / 2, () => void this.attemptTakeover());
    const latest = await this.lease.readLatest();
    if (latest !== null && !this.life.stopped) this.host.message(latest);
  }

  /** Polls on this replica alone: a kind that cannot travel, or Redis unreachable. */
  private goLocal(): void {
    if (this.life.stopped) return;
    this.mode = 'local';
    this.settle();
    this.life.clearTimer();
    this.host.startInner();
  }

  private async renew(): Promise<void> {
    try {
      const held = await this.lease.renew();
      if (!held && this.mode === 'holder' && !this.life.stopped) await this.becomeFollower();
    } catch {
      // Unreachable: the link's down hook makes this entry local.
    }
  }
}
