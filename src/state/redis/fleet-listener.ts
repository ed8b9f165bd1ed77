/**
 * What a fleet entry (fleet-entry.ts) hears on its target's channel, and the order of the values
 * it publishes: a holder packs each value with its order (poll-values.ts); a listener takes only a
 * newer one, or, when it came without its secrets, reads the target itself.
 */
import { Fields } from '../../core/parse';
import type { PollKind, PollOwner } from '../../pollers';
import type { PollValueCodec } from './poll-values';

/** What the listener needs of its entry. */
export interface ListenerHost<V, S> {
  readonly listening: boolean;
  readonly stopped: boolean;
  readonly lead: PollOwner<S> | undefined;
  deliver(value: V): void;
  finish(failure: null): void;
  /** The holder gave the lease up: try to take it. */
  handover(): void;
}

export class FleetListener<T, V, S> {
  /** The authenticated order of the last value published or accepted (poll-values.ts): an older one is a replay. */
  private at = 0;
  /** A read of the target by this listener itself (a value came stripped): its signal, and whether another is due. */
  private reading: { controller: AbortController; again: boolean } | null = null;

  constructor(
    private readonly kind: PollKind<T, V, S>,
    private readonly target: T,
    private readonly values: PollValueCodec,
    /** Where this target's values belong (a sealed value opens here only). */
    private readonly place: string,
    private readonly host: ListenerHost<V, S>,
  ) {}

  /** A value as it crosses Redis: sealed with its order, or (no fleet key) only the news that it changed. */
  valueMessage(value: V): Record<string, unknown> {
    const wire = this.kind.wire;
    this.at = Math.max(Date.now(), this.at + 1);
    return { type: 'value', ...this.values.pack(wire === undefined ? null : wire.encode(value), this.place, this.at) };
  }

  /** A message on the target's channel (or the latest value, read when starting to listen). */
  message(text: string): void {
    const host = this.host;
    if (host.stopped) return;
    let f: Fields;
    try {
      f = Fields.of(JSON.parse(text), 'PollMessage');
    } catch {
      return;
    }
    const type = f.str('type');
    if (type === 'handover') {
      if (host.listening) host.handover();
      return;
    }
    // Only values count (Redis's own `seq` is anyone's to write: order comes from inside the seal).
    if (!host.listening || type !== 'value' || this.kind.wire === undefined) return;
    let value: V;
    try {
      const unpacked = this.values.unpack(f, this.place);
      if (unpacked === null) return void this.readItself();
      // A replay of an older value (or the same one again) is no news.
      if (unpacked.at <= this.at) return;
      value = this.kind.wire.decode(unpacked.json);
      this.at = unpacked.at;
    } catch {
      return; // written by a replica of another version: its next value may read
    }
    host.deliver(value);
    if (this.kind.isTerminal(value)) host.finish(null);
  }

  /** The entry stopped: a read of its own in flight is aborted. */
  stop(): void {
    this.reading?.controller.abort();
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
    const host = this.host;
    const reading = { controller: new AbortController(), again: true };
    this.reading = reading;
    try {
      while (reading.again && !host.stopped && host.listening) {
        reading.again = false;
        const { signal } = reading.controller;
        // The lead's credential: its data reach only admitted members. None yet: their own reads are on their way.
        const lead = host.lead;
        if (lead === undefined) return;
        const value = await this.kind.poll(this.target, lead.session(signal), signal);
        if (host.stopped || !host.listening) return;
        host.deliver(value);
        if (this.kind.isTerminal(value)) return host.finish(null);
      }
    } catch {
      // The holder's next value, or its failure, reaches the subscribers.
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }
}
