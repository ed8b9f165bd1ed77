/**
 * The subscribers of one poller, whether it polls in this process (poller.ts) or follows the
 * fleet's holder (src/state/redis/fleet-entry.ts): the latest value and its fingerprint; a newcomer
 * hears it at once; a value whose fingerprint differs goes to every subscriber; the owner hears
 * when the last one leaves.
 *
 * Data are served per credential. A poller is shared by the tokens of one identity, but a token
 * is a **member** (served what the poller reads) only once the platform has answered it for this
 * target: the credential the poller starts with polls itself (its first poll is its own read);
 * any other waits, hearing nothing, until its own read (`admit`, admission.ts) succeeded, and a
 * refusal ends only its streams. The first member is the **lead**, whose credential the poller
 * polls with; when the lead is refused later (an expired token), `drop` ends only its streams and
 * the next member leads.
 */
import type { CancelSignal } from '../core/cancellation';
import { GatewayError } from '../errors/codes';
import type { PollerMetrics } from './metrics';
import { SubscriberStream } from './stream';
import type { PollStream } from './types';

export interface SubscriberHooks<V, O> {
  /** The last subscriber (member or waiting) has left. */
  lastLeft(): void;
  /** `owner`'s own read of the target; rejects with the platform's refusal. */
  admit(owner: O, signal: AbortSignal): Promise<V>;
  /** A credential was admitted by a read that gave `value` (a poll like any other: deliver it). */
  admitted(value: V): void;
}

/** What a member is to the subscribers: its credential, and how its token is verified again (cached for the verdict's lifetime). */
export interface Member {
  readonly credential: string;
  verify?(): Promise<void>;
}

/** The platform's refusal of a token (not an outage, which is no verdict). */
function isRefusal(error: unknown): boolean {
  return error instanceof GatewayError && (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN');
}

/** Each member but the lead (the first) verified again (cached for its verdict's lifetime); `drop` the ones the platform now refuses. */
function recheckMembers<O extends Member>(members: ReadonlyMap<string, O>, drop: (credential: string, error: unknown) => void): void {
  let lead = true;
  for (const [credential, owner] of members) {
    if (lead) {
      lead = false;
      continue;
    }
    owner.verify?.().catch((error: unknown) => {
      if (isRefusal(error) && members.get(credential) === owner) drop(credential, error);
    });
  }
}

/** The streams of `credential` in `map`, taken out of it. */
function takeOf<S>(map: Map<S, string>, credential: string): S[] {
  const theirs: S[] = [];
  for (const [stream, of] of map) {
    if (of !== credential) continue;
    map.delete(stream);
    theirs.push(stream);
  }
  return theirs;
}

/** How many streams each credential has (a leave asks its own count, never scanning the others). */
class CredentialCounts extends Map<string, number> {
  add(credential: string): void {
    this.set(credential, (this.get(credential) ?? 0) + 1);
  }

  /** One stream of `credential` fewer; says how many are left. */
  remove(credential: string): number {
    const left = (this.get(credential) ?? 1) - 1;
    if (left > 0) this.set(credential, left);
    else this.delete(credential);
    return left;
  }
}

export class Subscribers<V, O extends Member> {
  /** Members' streams, with their credential. */
  private readonly streams = new Map<SubscriberStream<V>, string>();
  /** Streams whose credential's own read has not answered yet. */
  private readonly waiting = new Map<SubscriberStream<V>, string>();
  /** Admitted credentials, in order of admission: the first leads. */
  private readonly members = new Map<string, O>();
  /** Streams (member or waiting) per credential: a leave asks this, not a scan of every stream. */
  private readonly perCredential = new CredentialCounts();
  /** Admission reads in flight, by credential. */
  private readonly admitting = new Map<string, AbortController>();
  private last: { readonly value: V; readonly fingerprint: string } | null = null;
  /** How a stream leaves: one function for all of them (not a closure per follower). */
  private readonly leaveOf = (stream: SubscriberStream<V>): void => this.leave(stream);
  constructor(
    private readonly kind: string,
    private readonly metrics: Pick<PollerMetrics, 'subscriberJoined' | 'subscriberLeft'>,
    private readonly hooks: SubscriberHooks<V, O>,
  ) {}

  /** Subscribers, members and waiting ones. */
  get count(): number {
    return this.streams.size + this.waiting.size;
  }

  /** The latest value handed out, null before the first. */
  get latest(): { readonly value: V } | null {
    return this.last;
  }

  /** The credential to poll with: the first admitted one still here; undefined while none is. */
  get lead(): O | undefined {
    return this.members.values().next().value;
  }

  /** A credential the poller itself polls with from the start: its first poll is its own read. */
  trust(owner: O): void {
    this.members.set(owner.credential, owner);
  }

  /**
   * `owner`'s credential was just answered by a poll the poller made with it (its own read): its
   * waiting streams are served now, and its admission read, if any, is dropped.
   */
  accept(owner: O): void {
    // Not a member yet, so every stream of its credential is waiting.
    if (this.members.has(owner.credential) || !this.perCredential.has(owner.credential)) return;
    this.admitting.get(owner.credential)?.abort();
    this.admitting.delete(owner.credential);
    this.members.set(owner.credential, owner);
    for (const stream of takeOf(this.waiting, owner.credential)) this.serve(stream, owner.credential);
  }

  join(owner: O, signal?: CancelSignal): PollStream<V> {
    const stream = new SubscriberStream<V>(this.leaveOf, signal);
    this.metrics.subscriberJoined(this.kind);
    this.perCredential.add(owner.credential);
    if (this.members.has(owner.credential)) {
      this.serve(stream, owner.credential);
      return stream;
    }
    this.waiting.set(stream, owner.credential);
    if (!this.admitting.has(owner.credential)) void this.check(owner);
    return stream;
  }

  /** Hands `value` to every member's stream unless it is the latest one again (same fingerprint); says whether it did. */
  deliver(value: V, fingerprint: string): boolean {
    if (this.last !== null && this.last.fingerprint === fingerprint) return false;
    this.last = { value, fingerprint };
    for (const stream of this.streams.keys()) stream.push(value);
    // A member that does not lead is served what the lead's token reads: hold it to its own
    // verdict's lifetime too (a revoked token is dropped once its verdict runs out).
    recheckMembers(this.members, (credential, error) => this.drop(credential, error));
    return true;
  }

  /** Ends the streams of `credential` with `error` and forgets it (the platform refused it); the others stay. */
  drop(credential: string, error: unknown): void {
    this.members.delete(credential);
    for (const stream of takeOf(this.streams, credential)) {
      this.perCredential.remove(credential);
      this.metrics.subscriberLeft(this.kind);
      stream.fail(error);
    }
  }

  /** Ends every subscriber, with `failure`'s error or done; the owner is stopping, so `lastLeft` is not called. */
  endAll(failure: { error: unknown } | null): void {
    for (const controller of this.admitting.values()) controller.abort();
    this.admitting.clear();
    this.members.clear();
    this.perCredential.clear();
    const streams = [...this.streams.keys(), ...this.waiting.keys()];
    this.streams.clear();
    this.waiting.clear();
    for (const stream of streams) {
      this.metrics.subscriberLeft(this.kind);
      if (failure) stream.fail(failure.error);
      else stream.end();
    }
  }

  private serve(stream: SubscriberStream<V>, credential: string): void {
    this.streams.set(stream, credential);
    if (this.last) stream.push(this.last.value);
  }

  private async check(owner: O): Promise<void> {
    const controller = new AbortController();
    this.admitting.set(owner.credential, controller);
    let outcome: { value: V } | { error: unknown };
    try {
      outcome = { value: await this.hooks.admit(owner, controller.signal) };
    } catch (error) {
      outcome = { error };
    }
    // Everyone with this credential left meanwhile, or the poller stopped: nobody to tell.
    if (controller.signal.aborted) return;
    this.admitting.delete(owner.credential);
    const theirs = takeOf(this.waiting, owner.credential);
    if ('error' in outcome) {
      for (const stream of theirs) {
        this.perCredential.remove(owner.credential);
        this.metrics.subscriberLeft(this.kind);
        stream.fail(outcome.error);
      }
      if (this.count === 0) this.hooks.lastLeft();
      return;
    }
    this.members.set(owner.credential, owner);
    for (const stream of theirs) this.serve(stream, owner.credential);
    this.hooks.admitted(outcome.value);
  }

  private leave(stream: SubscriberStream<V>): void {
    const credential = this.streams.get(stream) ?? this.waiting.get(stream);
    if (credential === undefined) return;
    this.streams.delete(stream);
    this.waiting.delete(stream);
    this.metrics.subscriberLeft(this.kind);
    // The last one of this credential left: its read has no reader, and the poller stops polling with it.
    if (this.perCredential.remove(credential) === 0) {
      this.admitting.get(credential)?.abort();
      this.admitting.delete(credential);
      this.members.delete(credential);
    }
    if (this.count === 0) this.hooks.lastLeft();
  }
}
