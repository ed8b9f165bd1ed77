/**
 * The subscribers of one poller, whether it polls in this process (poller.ts) or follows the
 * fleet's holder (src/state/redis/pollers.ts): the latest value and its fingerprint; a newcomer
 * hears it at once; a value whose fingerprint differs goes to every subscriber; the owner hears
 * when the last one leaves.
 */
import type { PollerMetrics } from './metrics';
import { SubscriberStream } from './stream';
import type { PollStream } from './types';

export class Subscribers<V> {
  private readonly streams = new Set<SubscriberStream<V>>();
  private last: { readonly value: V; readonly fingerprint: string } | null = null;

  constructor(
    private readonly kind: string,
    private readonly metrics: Pick<PollerMetrics, 'subscriberJoined' | 'subscriberLeft'>,
    private readonly onLastLeft: () => void,
  ) {}

  get count(): number {
    return this.streams.size;
  }

  /** The latest value handed out, null before the first. */
  get latest(): { readonly value: V } | null {
    return this.last;
  }

  join(signal?: AbortSignal): PollStream<V> {
    const stream = new SubscriberStream<V>((s) => this.leave(s), signal);
    this.streams.add(stream);
    this.metrics.subscriberJoined(this.kind);
    if (this.last) stream.push(this.last.value);
    return stream;
  }

  /** Hands `value` to every subscriber unless it is the latest one again (same fingerprint); says whether it did. */
  deliver(value: V, fingerprint: string): boolean {
    if (this.last !== null && this.last.fingerprint === fingerprint) return false;
    this.last = { value, fingerprint };
    for (const stream of this.streams) stream.push(value);
    return true;
  }

  /** Ends every subscriber, with `failure`'s error or done; the owner is stopping, so `onLastLeft` is not called. */
  endAll(failure: { error: unknown } | null): void {
    const streams = [...this.streams];
    this.streams.clear();
    for (const stream of streams) {
      this.metrics.subscriberLeft(this.kind);
      if (failure) stream.fail(failure.error);
      else stream.end();
    }
  }

  private leave(stream: SubscriberStream<V>): void {
    if (!this.streams.delete(stream)) return;
    this.metrics.subscriberLeft(this.kind);
    if (this.streams.size === 0) this.onLastLeft();
  }
}
