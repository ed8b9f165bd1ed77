/**
 * A subscription's `subscribe` message run by the WebSocket door itself, not by graphql-ws's
 * per-operation loop: a follower waits for minutes between events, and that loop held, all that
 * time, the parsed message (its query text and variables), its emit closures and a suspended
 * `for await`. Here a follower is one small record (socket, id, the pipeline's event stream) that
 * the stream pushes its events to (src/core/listen.ts): nothing pending between events.
 *
 * Every rule is the pipeline's, as on any door: the message goes to `pipeline.handle` in the tick
 * it arrived (its slots are taken before the first await). The protocol is graphql-ws's: the record
 * sits in graphql-ws's own table of the socket's operations (`ctx.subscriptions`), so a duplicate
 * id closes the socket 4409 whichever side runs it, a `complete` and the socket's close end it
 * through graphql-ws (`return()`), and the messages are the ones graphql-ws would send: `next`
 * per event (the shared bytes, ws-shared-frames.ts), an `error` for a refused document, `complete`
 * when the stream ends. Only a subscription given as text on an acknowledged socket is taken here;
 * anything else (a persisted query, a query, a mutation, a malformed message) is graphql-ws's.
 */
import { CloseCode, MessageType, parseMessage, type Context, type SubscribeMessage } from 'graphql-ws';
import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import type { WebSocket } from 'ws';
import { Cancellation } from '../core/cancellation';
import { isListenable, type StreamListener } from '../core/listen';
import { isStream, type Answer, type AnswerStream, type Caller, type Connection, type Pipeline } from '../pipeline';

/** A socket's operations in flight (from their message to the pipeline's answer): a set exists only while there are some. */
export class InFlight {
  private set: Set<Cancellation> | null = null;

  get size(): number {
    return this.set?.size ?? 0;
  }

  add(cancellation: Cancellation): void {
    (this.set ??= new Set()).add(cancellation);
  }

  delete(cancellation: Cancellation): void {
    this.set?.delete(cancellation);
    if (this.set?.size === 0) this.set = null;
  }

  /** Every one in flight stops. */
  abortAll(): void {
    const set = this.set;
    this.set = null;
    for (const cancellation of set ?? []) cancellation.abort();
  }
}

/** What the door keeps for an acknowledged socket, as this module needs it. */
export interface FollowedSocket {
  readonly caller: Caller;
  readonly connection: Connection;
  /** Operations in flight on it (from `subscribe` to the pipeline's answer): aborted when the socket closes. */
  readonly running: InFlight;
  /** graphql-ws's context of the socket: whether it is acknowledged, its operations by id. */
  readonly ctx: Context<Record<string, unknown> | undefined, unknown>;
}

export interface DoorSubscriptionsDeps {
  pipeline: Pipeline;
  /** The socket's state once its `connection_init` was accepted. */
  stateOf(socket: WebSocket): FollowedSocket | undefined;
  /** Sends `result` as subscription `id`'s `next` message on `socket` (its shared bytes). */
  sendNext(socket: WebSocket, id: string, result: FormattedExecutionResult): void;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

function send(socket: WebSocket, message: string): void {
  if (socket.readyState === socket.OPEN) socket.send(message);
}

/** One subscription run by the door: graphql-ws sees it as an async generator in `ctx.subscriptions`. */
class DoorSubscription implements AsyncGenerator<never, undefined>, StreamListener<FormattedExecutionResult> {
  private stream: AnswerStream | null = null;
  /** Completed by the client or its socket closed (graphql-ws called `return`). */
  private left = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly state: FollowedSocket,
    private readonly id: string,
    private readonly deps: DoorSubscriptionsDeps,
  ) {}

  /** The pipeline's answer to the subscribe message. */
  answered(answer: Answer | AnswerStream): void {
    if (isStream(answer)) {
      if (this.left) return void answer.return(undefined);
      this.stream = answer;
      // Its events are pushed here as they come: nothing waits on the stream between them.
      if (isListenable<FormattedExecutionResult>(answer)) return answer.listen(this);
      return this.pump();
    }
    if (this.left) return;
    // A document refused before anything ran is the protocol's `error` message; any other answer a `next`.
    if (answer.documentRefused) {
      this.forget();
      return send(this.socket, JSON.stringify({ id: this.id, type: MessageType.Error, payload: answer.result.errors ?? [] }));
    }
    this.deps.sendNext(this.socket, this.id, answer.result);
    this.complete();
  }

  /** The pipeline threw (graphql-ws closes the socket for an error of its handler). */
  failed(error: unknown): void {
    this.forget();
    console.error('Internal error occurred during message handling.', error);
    this.socket.close(CloseCode.InternalServerError, 'Internal server error');
  }

  onValue(result: FormattedExecutionResult): void {
    if (!this.left) this.deps.sendNext(this.socket, this.id, result);
  }

  onEnd(): void {
    if (!this.left) this.complete();
  }

  onError(error: unknown): void {
    if (this.left) return;
    this.forget();
    const message = error instanceof Error ? error.message : String(error);
    send(this.socket, JSON.stringify({ id: this.id, type: MessageType.Error, payload: [{ message }] satisfies GraphQLFormattedError[] }));
  }

  /** A stream that can only be read, read one event at a time. */
  private pump(): void {
    this.stream?.next().then(
      (step) => {
        if (step.done === true) return this.onEnd();
        this.onValue(step.value);
        if (!this.left) this.pump();
      },
      (error: unknown) => this.onError(error),
    );
  }

  /** Out of graphql-ws's table, if it is still there (a close replaces the table). */
  private forget(): void {
    const table = this.state.ctx.subscriptions;
    if (table[this.id] === this) delete table[this.id];
  }

  /** The stream ended by itself: `complete`, as graphql-ws sends it. */
  private complete(): void {
    this.forget();
    send(this.socket, JSON.stringify({ id: this.id, type: MessageType.Complete }));
  }

  // The generator face graphql-ws uses: `return` on `complete` and on the socket's close.
  async return(): Promise<IteratorReturnResult<undefined>> {
    if (this.left) return DONE;
    this.left = true;
    if (this.stream) await this.stream.return(undefined);
    return DONE;
  }

  next(): Promise<IteratorResult<never, undefined>> {
    return Promise.resolve(DONE);
  }

  throw(): Promise<IteratorReturnResult<undefined>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * The door's `take`: runs `text` when it is a subscription's `subscribe` on an acknowledged
 * socket and says so; false leaves the message to graphql-ws.
 */
export function doorSubscriptions(deps: DoorSubscriptionsDeps): (socket: WebSocket, text: string) => boolean {
  return (socket, text) => {
    // Most messages are pings, pongs and completes: a subscribe says so in its text.
    if (!text.includes(MessageType.Subscribe)) return false;
    const state = deps.stateOf(socket);
    if (!state?.ctx.acknowledged) return false;
    let message: SubscribeMessage;
    try {
      const parsed = parseMessage(text);
      if (parsed.type !== MessageType.Subscribe) return false;
      message = parsed;
    } catch {
      return false; // graphql-ws closes the socket for it (4400)
    }
    const { id, payload } = message;
    if (typeof payload.query !== 'string' || deps.pipeline.checkText(payload.query, payload).type !== 'subscription') return false;
    if (id in state.ctx.subscriptions) {
      socket.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
      return true;
    }
    const subscription = new DoorSubscription(socket, state, id, deps);
    state.ctx.subscriptions[id] = subscription;
    const cancellation = new Cancellation();
    state.running.add(cancellation);
    deps.pipeline
      .handle(payload, state.caller, { door: 'ws', cancellation, connection: state.connection, incremental: true })
      .finally(() => state.running.delete(cancellation))
      .then(
        (answer) => subscription.answered(answer),
        (error: unknown) => subscription.failed(error),
      );
    return true;
  };
}
