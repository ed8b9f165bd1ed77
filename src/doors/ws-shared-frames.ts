/**
 * A subscription's `next` messages on a WebSocket, sent from a result's shared bytes
 * (serialized-once.ts) rather than serialized per socket. graphql-ws still builds each message:
 * `onNext` leaves the result's bytes with the socket and hands graphql-ws a stand-in payload,
 * which the `jsonMessageReplacer` writes as a marker string; the socket's send (ws-backpressure.ts)
 * then sends the message as one text message of three fragments: the socket's own
 * `{"id":…,"type":"next","payload":`, the shared bytes, `}`. ws writes a server's fragments
 * unmasked as they are, so two thousand sockets hold references to one Buffer, not copies.
 */
import type { FormattedExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';

/** What `onNext` answers graphql-ws with: a payload that only the replacer below ever sees. */
export const SHARED_PAYLOAD: FormattedExecutionResult = Object.freeze({ extensions: Object.freeze({ sharedPayload: true }) });
/** The marker string the stand-in is written as (a real payload is an object, never a string). */
const MARKER = '\u0000netgraph-shared-payload';
const NEXT_TAIL = `,"type":"next","payload":${JSON.stringify(MARKER)}}`;
const HEAD = '{"id":';
const CLOSE = Buffer.from('}');

/** graphql-ws's `jsonMessageReplacer`: the stand-in becomes the marker; everything else is left as it is. */
export function sharedPayloadReplacer(_key: string, value: unknown): unknown {
  return value === SHARED_PAYLOAD ? MARKER : value;
}

/** A `next` message with the stand-in payload, as graphql-ws writes it: for the door's own subscriptions (ws-subscriptions.ts). */
export function nextMessage(id: string): string {
  return JSON.stringify({ id, type: 'next', payload: SHARED_PAYLOAD }, sharedPayloadReplacer);
}

/** The bytes waiting for their `next` message, per socket and subscription id. */
export class SharedFrames {
  private readonly waiting = new WeakMap<WebSocket, Map<string, Buffer>>();

  /** Leaves `bytes` for subscription `id`'s next message on `socket`; returns the stand-in payload for graphql-ws. */
  hold(socket: WebSocket, id: string, bytes: Buffer): FormattedExecutionResult {
    let bySubscription = this.waiting.get(socket);
    if (bySubscription === undefined) {
      bySubscription = new Map();
      this.waiting.set(socket, bySubscription);
    }
    bySubscription.set(id, bytes);
    return SHARED_PAYLOAD;
  }

  /** The fragments of one message on `socket`, when `data` is a `next` with the stand-in; null otherwise. */
  fragmentsOf(socket: WebSocket, data: unknown): readonly Buffer[] | null {
    if (typeof data !== 'string' || !data.startsWith(HEAD) || !data.endsWith(NEXT_TAIL)) return null;
    const idJson = data.slice(HEAD.length, data.length - NEXT_TAIL.length);
    const id: unknown = JSON.parse(idJson);
    const bySubscription = this.waiting.get(socket);
    const bytes = typeof id === 'string' ? bySubscription?.get(id) : undefined;
    if (bytes === undefined || typeof id !== 'string') return null;
    bySubscription?.delete(id);
    // Nothing left waiting: the socket keeps no map between its events.
    if (bySubscription?.size === 0) this.waiting.delete(socket);
    return [Buffer.from(`${HEAD}${idJson},"type":"next","payload":`), bytes, CLOSE];
  }
}
