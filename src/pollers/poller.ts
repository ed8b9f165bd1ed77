/**
 * One shared poller: polls one target with one owner's credentials, and fans each change out to
 * every subscriber. It owns its timer and its AbortSignal; it stops when its last subscriber
 * leaves, after a terminal value, after a failure, or when the registry closes.
 */
import { ErrorCode } from '../errors/codes';
import { nextPause, type PauseReason } from './backoff';
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
  private readonly subscribers: Subscribers<V>;
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
    private readonly owner: PollOwner<S>,
    private readonly settings: PollerSettings,
    private readonly hooks: PollerHooks,
  ) {
    this.pause = settings.intervalMs;
    this.subscribers = new Subscribers<V>(kind.name, hooks.metrics, () => this.stop());
  }

  get subscriberCount(): number {
    return this.subscribers.count;
  }

  /** A new subscriber: it hears the latest value at once, when there is one. */
  subscribe(signal?: AbortSignal): PollStream<V> {
    return this.subscribers.join(signal);
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
    this.polls += 1;
    const result = await this.pollOnce();
    if (this.stopped) return; // stopped meanwhile: the answer has no reader
    try {
      if (result.ok) this.observe(result.value);
      else this.failed(result.error);
    } catch (error) {
      // The kind's own code threw (fingerprint, isTerminal, classifyError): a bug, not an upstream state.
      this.finish({ error });
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.run(), this.again ? 0 : this.pause);
    this.again = false;
  }

  private async pollOnce(): Promise<PollResult<V>> {
    try {
      // A fresh session per poll: nothing cached in one poll may hide a change from the next.
      return { ok: true, value: await this.kind.poll(this.target, this.owner.session(this.controller.signal), this.controller.signal) };
    } catch (error) {
      return { ok: false, error };
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

  private failed(error: unknown): void {
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
        this.finish({ error: decision.error });
        return;
    }
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
