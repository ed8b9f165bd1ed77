/**
 * One shared poller: polls one target for one identity, with the credential of its lead member
 * (subscribers.ts: a credential is served only once its own read succeeded), and fans each change
 * out to every member's subscriber. It owns its timer and its AbortSignal; it stops when its last
 * subscriber leaves, after a terminal value, after a transient failure that lasted, or when the
 * registry closes. A refusal of the lead's credential ends that credential's subscribers only: the
 * next member polls at once, and the poller stops when none is left.
 */
import type { CancelSignal } from '../core/cancellation';
import { ErrorCode } from '../errors/codes';
import { Pacer, type PauseReason } from './backoff';
import { admissionRead } from './admission';
import { classifyPollError, errorCodeOf } from './errors';
import { PollerLife } from './life';
import type { PollerMetrics, PollOutcome } from './metrics';
import { Subscribers } from './subscribers';
import type { PollerSettings, PollKind, PollOwner, PollStream, PollWake } from './types';

export interface PollerHooks {
  metrics: PollerMetrics;
  /** Called once, when the poller has stopped for whatever reason. */
  stopped(): void;
}

type PollResult<V> = { ok: true; value: V } | { ok: false; error: unknown };

export class Poller<T, V, S> {
  private readonly subscribers: Subscribers<V, PollOwner<S>>;
  private readonly life: PollerLife;
  private readonly startedAt = Date.now();
  private readonly pacer: Pacer<T, V>;
  private polls = 0;
  private errorsInARow = 0;
  /** Woken while a poll was in flight: the next one goes at once. */
  private again = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    first: PollOwner<S>,
    private readonly settings: PollerSettings,
    private readonly hooks: PollerHooks,
  ) {
    this.pacer = new Pacer(kind, target, settings, this.startedAt);
    this.subscribers = new Subscribers<V, PollOwner<S>>(kind.name, hooks.metrics, {
      lastLeft: () => this.life.stop(),
      admit: (owner, signal) => admissionRead(kind, target, owner, settings, AbortSignal.any([signal, this.life.signal])),
      admitted: (value) => this.admitted(value),
    });
    this.life = new PollerLife(this.subscribers, () => hooks.stopped());
    // The credential it starts with is its first poll's: its own read.
    this.subscribers.trust(first);
  }

  get subscriberCount(): number {
    return this.subscribers.count;
  }

  /** A new subscriber: it hears the latest value at once, when there is one and its credential is a member. */
  subscribe(owner: PollOwner<S>, signal?: CancelSignal): PollStream<V> {
    return this.subscribers.join(owner, signal);
  }

  /**
   * When the kind says `change` touches the target: poll now, or, while a poll is in flight, again
   * as soon as it settles. Returns whether it was woken.
   */
  wakeFor(change: PollWake): boolean {
    if (this.life.stopped || this.kind.wakes?.(this.target, change) !== true) return false;
    if (!this.life.waiting) {
      this.again = true;
      return true;
    }
    this.life.clearTimer();
    this.run();
    return true;
  }

  /** First poll now; the next ones are scheduled as each one settles. */
  start(): void {
    this.run();
  }

  /** Stop now; every subscriber ends (done). Resolves once a poll in flight has settled. */
  close(): Promise<void> {
    this.life.finish(null);
    return this.current;
  }

  private run(): void {
    if (this.life.stopped) return;
    this.current = this.tick();
  }

  private async tick(): Promise<void> {
    const lead = this.subscribers.lead;
    if (lead === undefined) {
      // Every member left or was refused; others still wait for their own read: poll once one is in.
      this.life.after(this.pacer.ms, () => this.run());
      return;
    }
    this.polls += 1;
    const result = await pollOnce(this.kind, this.target, lead, this.life.signal);
    if (this.life.stopped) return; // stopped meanwhile: the answer has no reader
    try {
      if (result.ok) this.observe(result.value);
      else this.failed(result.error, lead);
    } catch (error) {
      // The kind's own code threw (fingerprint, isTerminal, classifyError): a bug, not an upstream state.
      this.life.finish({ error });
    }
    if (this.life.stopped) return;
    this.life.after(this.again ? 0 : this.pacer.ms, () => this.run());
    this.again = false;
  }

  /** A credential's own read admitted it: a poll like any other (not paced: the timer runs as it was). */
  private admitted(value: V): void {
    if (this.life.stopped) return;
    try {
      if (this.subscribers.deliver(value, this.kind.fingerprint(value))) this.pacer.changed();
      if (this.kind.isTerminal(value)) this.life.finish(null);
    } catch (error) {
      this.life.finish({ error });
    }
  }

  private observe(value: V): void {
    this.errorsInARow = 0;
    const changed = this.subscribers.deliver(value, this.kind.fingerprint(value));
    if (changed) this.pacer.changed();
    this.step(changed ? 'changed' : 'unchanged', changed ? 'changed' : 'unchanged');
    if (this.kind.isTerminal(value)) this.life.finish(null);
  }

  private failed(error: unknown, lead: PollOwner<S>): void {
    const state = { polls: this.polls, elapsedMs: Date.now() - this.startedAt, last: this.subscribers.latest?.value ?? null };
    const decision = this.kind.classifyError?.(error, state, this.target) ?? classifyPollError(error);
    switch (decision.action) {
      case 'emit':
        this.observe(decision.value);
        return;
      case 'wait':
        return this.step('pending', 'unchanged');
      case 'retry':
        this.errorsInARow += 1;
        if (this.errorsInARow < this.settings.maxErrors) return this.step('error', 'error');
        this.hooks.metrics.polled(this.kind.name, 'failed');
        return this.life.finish({ error });
      case 'fail':
        this.hooks.metrics.polled(this.kind.name, errorCodeOf(decision.error) === ErrorCode.UNAUTHENTICATED ? 'unauthenticated' : 'failed');
        this.handOver(lead, decision.error);
        return;
    }
  }

  /**
   * The platform refused the lead's credential (or the target, as this credential sees it): its
   * subscribers end with the error; the next member, if any, polls at once with its own.
   */
  private handOver(lead: PollOwner<S>, error: unknown): void {
    this.subscribers.drop(lead.credential, error);
    if (this.subscribers.count === 0) return this.life.stop();
    this.errorsInARow = 0;
    this.again = true;
  }

  /** A poll counted, and the pause after it. */
  private step(outcome: PollOutcome, pause: PauseReason): void {
    this.hooks.metrics.polled(this.kind.name, outcome);
    this.pacer.pace(pause, this.subscribers.latest?.value ?? null);
  }
}

async function pollOnce<T, V, S>(kind: PollKind<T, V, S>, target: T, lead: PollOwner<S>, signal: AbortSignal): Promise<PollResult<V>> {
  try {
    // A fresh session per poll: nothing cached in one poll may hide a change from the next.
    return { ok: true, value: await kind.poll(target, lead.session(signal), signal) };
  } catch (error) {
    return { ok: false, error };
  }
}
