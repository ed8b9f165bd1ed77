/**
 * One shared poller: polls one target for one identity, with the credential of its lead member
 * (subscribers.ts: a credential is served only once its own read succeeded), and fans each change
 * out to every member's subscriber. It owns its timer and its AbortSignal; it stops when its last
 * subscriber leaves, after a terminal value, after a transient failure that lasted, or when the
 * registry closes. A refusal of the lead's credential ends that credential's subscribers only: the
 * next member polls at once, and the poller stops when none is left.
 */
import { ErrorCode } from '../errors/codes';
import { nextPause, type PauseReason } from './backoff';
import { admissionRead } from './admission';
import { classifyPollError, errorCodeOf } from './errors';
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
  private readonly controller = new AbortController();
  private readonly startedAt = Date.now();
  private changedAt = this.startedAt;
  private polls = 0;
  private errorsInARow = 0;
  private pause: number;
  private timer: NodeJS.Timeout | null = null;
  /** Woken while a poll was in flight: the next one goes at once. */
  private again = false;
  private current: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    first: PollOwner<S>,
    private readonly settings: PollerSettings,
    private readonly hooks: PollerHooks,
  ) {
    this.pause = settings.intervalMs;
    this.subscribers = new Subscribers<V, PollOwner<S>>(kind.name, hooks.metrics, {
      lastLeft: () => this.stop(),
      admit: (owner, signal) => admissionRead(kind, target, owner, settings, AbortSignal.any([signal, this.controller.signal])),
      admitted: (value) => this.admitted(value),
    });
    // The credential it starts with is its first poll's: its own read.
    this.subscribers.trust(first);
  }

  get subscriberCount(): number {
    return this.subscribers.count;
  }

  /** A new subscriber: it hears the latest value at once, when there is one and its credential is a member. */
  subscribe(owner: PollOwner<S>, signal?: AbortSignal): PollStream<V> {
    return this.subscribers.join(owner, signal);
  }

  /**
   * When the kind says `change` touches the target: poll now, or, while a poll is in flight, again
   * as soon as it settles. Returns whether it was woken.
   */
  wakeFor(change: PollWake): boolean {
    if (this.stopped || this.kind.wakes?.(this.target, change) !== true) return false;
    if (this.timer === null) {
      this.again = true;
      return true;
    }
    clearTimeout(this.timer);
    this.run();
    return true;
  }

  /** First poll now; the next ones are scheduled as each one settles. */
  start(): void {
    this.run();
  }

  /** Stop now; every subscriber ends (done). Resolves once a poll in flight has settled. */
  close(): Promise<void> {
    this.finish(null);
    return this.current;
  }

  private run(): void {
    this.timer = null;
    if (this.stopped) return;
    this.current = this.tick();
  }

  private async tick(): Promise<void> {
    const lead = this.subscribers.lead;
    if (lead === undefined) {
      // Every member left or was refused; others still wait for their own read: poll once one is in.
      this.timer = setTimeout(() => this.run(), this.pause);
      return;
    }
    this.polls += 1;
    const result = await this.pollOnce(lead);
    if (this.stopped) return; // stopped meanwhile: the answer has no reader
    try {
      if (result.ok) this.observe(result.value);
      else this.failed(result.error, lead);
    } catch (error) {
      // The kind's own code threw (fingerprint, isTerminal, classifyError): a bug, not an upstream state.
      this.finish({ error });
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.run(), this.again ? 0 : this.pause);
    this.again = false;
  }

  private async pollOnce(lead: PollOwner<S>): Promise<PollResult<V>> {
    try {
      // A fresh session per poll: nothing cached in one poll may hide a change from the next.
      return { ok: true, value: await this.kind.poll(this.target, lead.session(this.controller.signal), this.controller.signal) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** A credential's own read admitted it: a poll like any other (not paced: the timer runs as it was). */
  private admitted(value: V): void {
    if (this.stopped) return;
    try {
      if (this.subscribers.deliver(value, this.kind.fingerprint(value))) this.changedAt = Date.now();
      if (this.kind.isTerminal(value)) this.finish(null);
    } catch (error) {
      this.finish({ error });
    }
  }

  private observe(value: V): void {
    this.errorsInARow = 0;
    if (this.subscribers.deliver(value, this.kind.fingerprint(value))) {
      this.changedAt = Date.now();
      this.count('changed');
      this.pace('changed');
    } else {
      this.count('unchanged');
      this.pace('unchanged');
    }
    if (this.kind.isTerminal(value)) this.finish(null);
  }

  private failed(error: unknown, lead: PollOwner<S>): void {
    const state = { polls: this.polls, elapsedMs: Date.now() - this.startedAt, last: this.subscribers.latest?.value ?? null };
    const decision = this.kind.classifyError?.(error, state, this.target) ?? classifyPollError(error);
    switch (decision.action) {
      case 'emit':
        this.observe(decision.value);
        return;
      case 'wait':
        this.count('pending');
        this.pace('unchanged');
        return;
      case 'retry':
        this.errorsInARow += 1;
        if (this.errorsInARow >= this.settings.maxErrors) {
          this.count('failed');
          this.finish({ error });
          return;
        }
        this.count('error');
        this.pace('error');
        return;
      case 'fail':
        this.count(errorCodeOf(decision.error) === ErrorCode.UNAUTHENTICATED ? 'unauthenticated' : 'failed');
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
    if (this.subscribers.count === 0) return this.stop();
    this.errorsInARow = 0;
    this.again = true;
  }

  /** The next pause: the registry's rule, or the kind's own when it paces itself (`nextPauseMs`). */
  private pace(outcome: PauseReason): void {
    const proposedMs = nextPause(this.pause, outcome, this.settings);
    const own = this.kind.nextPauseMs?.({ outcome, pauseMs: this.pause, proposedMs, last: this.subscribers.latest?.value ?? null, sinceChangeMs: Date.now() - this.changedAt }, this.target);
    this.pause = own !== undefined && Number.isFinite(own) && own >= 0 ? own : proposedMs;
  }

  /** End every subscriber (with `failure`'s error, or done) and stop. */
  private finish(failure: { error: unknown } | null): void {
    this.subscribers.endAll(failure);
    this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.controller.abort();
    this.hooks.stopped();
  }

  private count(outcome: PollOutcome): void {
    this.hooks.metrics.polled(this.kind.name, outcome);
  }
}
