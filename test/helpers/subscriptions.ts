/**
 * Subscription clients for integration tests: graphql-ws over the gateway's WebSocket, graphql-sse
 * over its `/graphql/stream`, both read into an `EventLog`; and direct rest/v1 calls to the
 * sandbox, to start asynchronous changes without GraphQL mutations.
 */
import type { FormattedExecutionResult } from 'graphql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { isObject } from '../../src/core/parse';
import type { Stack } from './stack';
import { waitUntil, WAIT_TIMEOUT_MS } from './wait';

export type Result = FormattedExecutionResult<Record<string, unknown>, unknown>;

/** What both clients offer: graphql-ws's and graphql-sse's `subscribe(payload, sink)`. */
interface Subscriber {
  subscribe(payload: { query: string; variables?: Record<string, unknown> }, sink: { next(value: Result): void; error(error: unknown): void; complete(): void }): () => void;
}

/** Events of one subscription as they arrive, and how it ended. */
export class EventLog {
  readonly results: Result[] = [];
  status: 'open' | 'complete' | 'error' = 'open';
  error: unknown = null;
  private readonly stop: () => void;

  constructor(client: Subscriber, readonly query: string, variables?: Record<string, unknown>) {
    this.stop = client.subscribe(
      { query, ...(variables ? { variables } : {}) },
      {
        next: (value) => this.results.push(value),
        error: (error) => {
          this.status = 'error';
          this.error = error;
        },
        complete: () => {
          this.status = 'complete';
        },
      },
    );
  }

  /** `data[field]` of every event so far (failing, with the events, on an event with errors). */
  values(field: string): unknown[] {
    return this.results.map((r) => {
      if (r.errors?.length || !isObject(r.data)) throw new Error(`event with errors:\n${this.describe()}`);
      return r.data[field];
    });
  }

  /** Waits until `count` events have arrived. */
  async events(count: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    await waitUntil(() => this.results.length >= count, () => `${count} events\n${this.describe()}`, timeoutMs);
  }

  /** Waits until the subscription has ended (complete or error). */
  async ended(timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    await waitUntil(() => this.status !== 'open', () => `the subscription to end\n${this.describe()}`, timeoutMs);
  }

  unsubscribe(): void {
    this.stop();
  }

  describe(): string {
    const error = this.error === null ? '' : `\nclient error: ${this.error instanceof Error ? this.error.message : JSON.stringify(this.error)}`;
    return `subscription:\n${this.query.trim()}\nstatus: ${this.status}${error}\nevents:\n${this.results.map((r) => JSON.stringify(r)).join('\n')}`;
  }
}

/** Where the clients connect: a Stack, or any gateway with a token to use by default. */
export type SubscriptionTarget = Pick<Stack, 'wsUrl' | 'streamUrl'> & { tokens: { admin: string } };

/** Disposes every client it made. */
export class Clients {
  private readonly disposers: Array<() => void | Promise<void>> = [];

  constructor(private readonly stack: () => SubscriptionTarget) {}

  /** A graphql-ws client; `token: null` connects without one. */
  ws(token: string | null = this.stack().tokens.admin): WsClient {
    const client = createWsClient({
      url: this.stack().wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      ...(token ? { connectionParams: { authorization: `Bearer ${token}` } } : {}),
    });
    this.disposers.push(() => client.dispose());
    return client;
  }

  /** A graphql-sse client (distinct connections mode unless `singleConnection`). */
  sse(token: string | null = this.stack().tokens.admin, singleConnection = false): SseClient<boolean> {
    const client = createSseClient<boolean>({
      url: this.stack().streamUrl,
      singleConnection,
      retryAttempts: 0,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
    this.disposers.push(() => client.dispose());
    return client;
  }

  follow(client: Subscriber, query: string, variables?: Record<string, unknown>): EventLog {
    const log = new EventLog(client, query, variables);
    this.disposers.push(() => log.unsubscribe());
    return log;
  }

  async disposeAll(): Promise<void> {
    for (const dispose of this.disposers.splice(0).reverse()) await dispose();
  }
}

/** A rest/v1 call straight to the sandbox (admin token unless told): status and JSON body. */
export async function sandboxRest(stack: Stack, method: string, path: string, body?: unknown, token = stack.tokens.admin): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.sandbox.baseUrl}/rest/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const parsed: unknown = text === '' ? {} : JSON.parse(text);
  if (!isObject(parsed)) throw new Error(`${method} ${path} answered ${res.status} with a body that is not an object: ${text}`);
  return { status: res.status, body: parsed };
}

/** The number of sandbox calls of one route template (e.g. `GET /rest/v1/networks/{networkId}`). */
export function routeCalls(stack: Stack, route: string): number {
  return stack.sandbox.control.calls().byRoute[route] ?? 0;
}

/**
 * One operation over a raw graphql-transport-ws socket (no client library: the test sees the
 * protocol): connects with `token`, subscribes with `payload`, and gives the errors' extensions
 * of the `error` message or of the first `next`.
 */
export async function firstAnswerErrors(wsUrl: string, token: string, payload: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  try {
    const answer = new Promise<unknown>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { type: string; payload?: unknown };
        if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
        if (message.type === 'error' || message.type === 'next') resolve(message.payload);
      });
    });
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    const got = await answer;
    const errors = Array.isArray(got) ? got : isObject(got) && Array.isArray(got['errors']) ? got['errors'] : [];
    return errors.map((e: unknown) => (isObject(e) && isObject(e['extensions']) ? e['extensions'] : {}));
  } finally {
    socket.close();
  }
}
