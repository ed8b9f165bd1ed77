/**
 * The polls a fleet entry (fleet-entry.ts) makes on this replica, holding the lease or alone:
 * one stream of the in-process registry, the credential it polls with, and its first answer
 * (that credential's own read, so it is not read twice).
 */
import type { PollerRegistry, PollKind, PollOwner, PollStream } from '../../pollers';

/** What the entry does with what the inner poller says. */
export interface InnerHooks<V, S> {
  /** A poll with `owner`'s credential answered: that is its own read, served from now on. */
  accept(owner: PollOwner<S>): void;
  /** A value polled here. */
  value(value: V): Promise<void>;
  /** The poller ended: a terminal value (already delivered), or the inner registry closing. */
  ended(): void;
  /** The platform refused the credential polled with (or the target, as it sees it). */
  refused(owner: PollOwner<S> | null, error: unknown): void;
}

interface FirstAnswer<V> {
  promise: Promise<{ value: V } | null>;
  resolve(answer: { value: V } | null): void;
  reject(error: unknown): void;
}

export class InnerPoll<T, V, S> {
  private stream: PollStream<V> | null = null;
  /** The credential the inner poller polls with. */
  private owner: PollOwner<S> | null = null;
  /** The inner poller's first answer: the own read of the credential it polls with. */
  private first: FirstAnswer<V> | null = null;

  constructor(
    private readonly registry: PollerRegistry<S>,
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    private readonly hooks: InnerHooks<V, S>,
  ) {}

  get running(): boolean {
    return this.stream !== null;
  }

  start(owner: PollOwner<S>): void {
    if (this.stream !== null) return;
    const stream = this.registry.acquire(this.kind, this.target, owner);
    this.stream = stream;
    this.owner = owner;
    // Null: the inner poller stopped before answering (this replica listens now): read yourself.
    let resolve: (answer: { value: V } | null) => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const promise = new Promise<{ value: V } | null>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => undefined);
    this.first = { promise, resolve, reject };
    void this.consume(stream);
  }

  stop(): void {
    const stream = this.stream;
    this.stream = null;
    this.owner = null;
    this.first?.resolve(null);
    this.first = null;
    stream?.release();
  }

  /** The first answer when this replica polls with `owner`'s very credential; null otherwise. */
  firstAnswerFor(owner: PollOwner<S>): Promise<{ value: V } | null> | null {
    return this.first !== null && this.owner?.credential === owner.credential ? this.first.promise : null;
  }

  private async consume(stream: PollStream<V>): Promise<void> {
    try {
      for await (const value of stream) {
        if (stream !== this.stream) return;
        if (this.owner !== null) this.hooks.accept(this.owner);
        this.first?.resolve({ value });
        await this.hooks.value(value);
      }
      if (stream === this.stream) this.hooks.ended();
    } catch (error) {
      if (stream !== this.stream) return;
      this.first?.reject(error);
      const refused = this.owner;
      this.stop();
      this.hooks.refused(refused, error);
    }
  }
}

/** The same kind, `counted` before each poll (the polls this replica makes for the fleet while it holds the lease). */
export function countingFleetPolls<T, V, S>(kind: PollKind<T, V, S>, counted: () => void): PollKind<T, V, S> {
  return {
    ...kind,
    poll: (target, session, signal) => {
      counted();
      return kind.poll(target, session, signal);
    },
  };
}
