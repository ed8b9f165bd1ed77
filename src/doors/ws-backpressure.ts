/**
 * The door's sockets (`DoorSocket`: ws builds every accepted socket from this class, the
 * `WebSocketServer` option `WebSocket`). What every socket does beyond a plain one is a method
 * here, not closures made per socket (a follower's memory): its sends are bounded, and a close it
 * is given for a reason (a graphql-ws 44xx, 1009, 1013) is noted once.
 *
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
import { WebSocket } from 'ws';
import type { Peer } from './ws-connections';
import { closeRefusal, type EdgeRefusal } from './ws-refusals';

/** The close code: the server is overloaded by this client (RFC 6455 registry: "Try Again Later"). */
export const SLOW_READER_CLOSE_CODE = 1013;
export const SLOW_READER_REASON = 'the client reads slower than events come (WS_MAX_BUFFERED_BYTES)';

type SendCallback = (err?: Error) => void;
type SendOptions = Parameters<WebSocket['send']>[1] & object;

function byteLength(data: unknown): number {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength;
  return 0;
}

/** What the door gives its sockets: one object for all of them. */
export interface DoorSocketHooks {
  /** Bytes a socket may hold unsent (`WS_MAX_BUFFERED_BYTES`). */
  readonly maxBufferedBytes: number;
  /** A message the door sends as fragments (ws-shared-frames.ts), or null: sent as it is. */
  fragmentsOf(socket: WebSocket, data: unknown): readonly Buffer[] | null;
  /** `socket` passed its bound: it closes (1013), and its operations should end now. */
  slowReader(socket: DoorSocket): void;
  /** `socket` is closed for a reason (noted once per socket). */
  closing(socket: DoorSocket, refusal: EdgeRefusal): void;
}

export class DoorSocket extends WebSocket {
  /** Set by the door when ws hands the socket over; until then it is a plain socket. */
  hooks: DoorSocketHooks | null = null;
  /** Its upgrade's peer (ws-connections.ts), set with the hooks: a caller for what is noted before `connection_init`. */
  peer: Peer | null = null;
  /** Past its bound: nothing more is sent. */
  private over = false;
  private noted = false;

  override send(data: Parameters<WebSocket['send']>[0], optionsOrCb?: SendOptions | SendCallback, maybeCb?: SendCallback): void {
    const cb = typeof optionsOrCb === 'function' ? optionsOrCb : maybeCb;
    const options = typeof optionsOrCb === 'function' || optionsOrCb === undefined ? {} : optionsOrCb;
    const hooks = this.hooks;
    if (hooks === null) return super.send(data, options, cb);
    if (this.over) return cb?.();
    const held = this.bufferedAmount;
    const fragments = hooks.fragmentsOf(this, data);
    const size = fragments === null ? byteLength(data) : fragments.reduce((sum, f) => sum + f.byteLength, 0);
    // A lone message larger than the bound still goes when nothing is held (a large network's
    // first event with a small bound): the socket then holds that one message, no more.
    if (held > 0 && held + size > hooks.maxBufferedBytes) {
      this.over = true;
      hooks.slowReader(this);
      // The close frame queues behind what the socket holds; ws destroys the socket if the client
      // never reads it (its close timeout), so the held bytes go either way.
      this.close(SLOW_READER_CLOSE_CODE, SLOW_READER_REASON);
      return cb?.();
    }
    if (fragments === null) super.send(data, options);
    // One text message: the first fragment says text, the last ends it (fin); nothing comes between.
    else fragments.forEach((fragment, i) => super.send(fragment, { binary: false, fin: i === fragments.length - 1 }));
    // Queued: the bound above, not the kernel, paces the next send (a failed write closes the socket).
    cb?.();
  }

  override close(code?: number, reason?: string | Buffer): void {
    const refusal = code === undefined || this.noted || this.hooks === null ? undefined : closeRefusal(code, reason === undefined ? '' : reason.toString());
    if (refusal) {
      this.noted = true;
      this.hooks?.closing(this, refusal);
    }
    super.close(code, reason);
  }
}
