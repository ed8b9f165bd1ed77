/**
 * A subscription's `next` events on an event stream, written from a result's shared bytes
 * (serialized-once.ts) rather than serialized per stream. graphql-sse still prints each event:
 * `onNext` leaves the result's bytes with the stream and hands graphql-sse a stand-in whose JSON
 * is a marker string; the door's writer then writes the event as the text before the marker, the
 * shared bytes, and the text after it. A stream's bytes wait in its own `StreamFrames`, so they go
 * with the stream.
 */
import type { ExecutionResult } from 'graphql';

const MARKER = 'netgraph-shared-payload:';
/** A printed `next` event whose payload is a stand-in: `data: "<marker>N"` or `data: {"id":…,"payload":"<marker>N"}`. */
const STAND_IN_EVENT = new RegExp(`^(event: next\\ndata: .*)"${MARKER}(\\d+)"(\\}?\\n\\n)$`, 's');

/** What graphql-sse prints in place of a result: its JSON is the marker of the bytes waiting for it. */
class StandIn implements ExecutionResult {
  /** Never printed (toJSON is): there so the stand-in has the shape of a result. */
  readonly data = null;
  constructor(private readonly marker: string) {}
  toJSON(): string {
    return this.marker;
  }
}

/** One stream's bytes waiting for their events. */
export class StreamFrames {
  private readonly waiting = new Map<string, Buffer>();
  private next = 0;

  /** Leaves `bytes` for the event graphql-sse prints next from the returned stand-in. */
  hold(bytes: Buffer): ExecutionResult {
    const number = String(this.next++);
    this.waiting.set(number, bytes);
    return new StandIn(`${MARKER}${number}`);
  }

  /** The parts of one printed event: as it is, or around the shared bytes when it holds a stand-in. */
  partsOf(chunk: string): ReadonlyArray<string | Buffer> {
    const match = chunk.endsWith('\n\n') ? STAND_IN_EVENT.exec(chunk) : null;
    const bytes = match ? this.waiting.get(match[2] ?? '') : undefined;
    if (!match || bytes === undefined) return [chunk];
    this.waiting.delete(match[2] ?? '');
    return [match[1] ?? '', bytes, match[3] ?? ''];
  }
}
