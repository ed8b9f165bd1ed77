/**
 * Backpressure on a WebSocket: every message sent on the socket (each `next`, `error`, `complete`
 * of every subscription on it) is checked against what the socket already holds unsent
 * (`bufferedAmount`). A message that would take it past the bound is not sent (unless the socket
 * holds nothing: one message larger than the bound alone still goes): the socket closes
 * with 1013 (try again later) instead, and its subscriptions end (graphql-ws completes them on
 * close, which lets their pollers go). So a client that stops reading costs at most the bound,
 * however many events its subscriptions produce.
 *
 * The check sits at the socket's `send`, not in graphql-ws's `onNext`: the check and the write are
 * then one synchronous step, so subscriptions of one socket sending at once cannot all pass it.
 * A message the door sends as fragments (`fragmentsOf`: ws-shared-frames.ts) is checked whole,
 * and its fragments are written in that same step.
 *
 * A send's callback is called once the message is queued on the socket, not once the kernel has
 * taken it: graphql-ws awaits each `next`'s callback before it takes a subscription's next event,
 * so a callback that waited for a client that does not read would leave that client's events
 * queued where no bound sees them (its poller's subscriber queue, growing with every change).
 * Answered at once, the events come here, count in `bufferedAmount`, and close the socket at the bound.
 */
import type { WebSocket } from 'ws';

/** The close code: the server is overloaded by this client (RFC 6455 registry: "Try Again Later"). */
export const SLOW_READER_CLOSE_CODE = 1013;
export const SLOW_READER_REASON = 'the client reads slower than events come (WS_MAX_BUFFERED_BYTES)';

type Send = WebSocket['send'];
type SendCallback = (err?: Error) => void;

function byteLength(data: unknown): number {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength;
  return 0;
}

/** The fragments one text message is to be sent as, or null to send it as it is. */
export type Fragments = (data: unknown) => readonly Buffer[] | null;

/**
 * Bounds what `socket` may hold unsent to `maxBytes`; `onOverflow` is told once, when the socket
 * closes for it. Returns the socket.
 */
export function boundSends(socket: WebSocket, maxBytes: number, onOverflow: () => void, fragmentsOf: Fragments = () => null): WebSocket {
  const send = socket.send.bind(socket) as (data: unknown, options: unknown, cb?: SendCallback) => void;
  let over = false;
  const bounded = (data: unknown, optionsOrCb?: unknown, maybeCb?: SendCallback): void => {
    const cb = typeof optionsOrCb === 'function' ? (optionsOrCb as SendCallback) : maybeCb;
    const options = typeof optionsOrCb === 'function' ? {} : (optionsOrCb ?? {});
    if (over) return cb?.();
    const held = socket.bufferedAmount;
    const fragments = fragmentsOf(data);
    const size = fragments === null ? byteLength(data) : fragments.reduce((sum, f) => sum + f.byteLength, 0);
    // A lone message larger than the bound still goes when nothing is held (a large network's
    // first event with a small bound): the socket then holds that one message, no more.
    if (held > 0 && held + size > maxBytes) {
      over = true;
      onOverflow();
      // The close frame queues behind what the socket holds; ws destroys the socket if the client
      // never reads it (its close timeout), so the held bytes go either way.
      socket.close(SLOW_READER_CLOSE_CODE, SLOW_READER_REASON);
      return cb?.();
    }
    if (fragments === null) send(data, options);
    // One text message: the first fragment says text, the last ends it (fin); nothing comes between.
    else fragments.forEach((fragment, i) => send(fragment, { binary: false, fin: i === fragments.length - 1 }));
    // Queued: the bound above, not the kernel, paces the next send (a failed write closes the socket).
    cb?.();
  };
  socket.send = bounded as Send;
  return socket;
}
