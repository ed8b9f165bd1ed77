/**
 * The page's GraphQL client: urql over HTTP for queries and mutations, the graphql-ws client for
 * subscriptions (`connection_init` payload `{ authorization }`, as the gateway reads it). One
 * client per token: changing the token builds a new one and closes the old socket. Operations are
 * the typed documents of documents.ts: what each answers is known at compile time.
 */
import { Client, fetchExchange, subscriptionExchange, type AnyVariables, type CombinedError, type TypedDocumentNode } from '@urql/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { problemOf, type Problem } from './model';

export interface Api {
  query<R, V extends AnyVariables>(document: TypedDocumentNode<R, V>, variables: V): Promise<R>;
  mutate<R, V extends AnyVariables>(document: TypedDocumentNode<R, V>, variables: V): Promise<R>;
  /** Starts a subscription; returns its stop function. `onData` gets each event's `data`. */
  subscribe<R, V extends AnyVariables>(document: TypedDocumentNode<R, V>, variables: V, onData: (data: R) => void, onEnd: (error: ApiError | null) => void): () => void;
  close(): void;
}

/** A failed operation, with what it means for the person at the page. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly problem: Problem | 'gateway',
    readonly codes: string[],
  ) {
    super(message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function codesOf(errors: ReadonlyArray<{ extensions?: Record<string, unknown> | undefined }>): string[] {
  return errors.map((e) => e.extensions?.['code']).filter((c): c is string => typeof c === 'string');
}

function toApiError(error: CombinedError): ApiError {
  if (error.graphQLErrors.length === 0) {
    return new ApiError('The gateway is not reachable from this page (the request failed before any answer).', 'gateway', []);
  }
  const codes = codesOf(error.graphQLErrors);
  const { problem, message } = problemOf(codes);
  return new ApiError(problem === 'other' ? `${message} ${error.graphQLErrors[0]?.message ?? ''}` : message, problem, codes);
}

export function createApi(graphqlUrl: string, token: string): Api {
  const authorization = token ? `Bearer ${token}` : undefined;
  const wsUrl = new URL(graphqlUrl);
  wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws: WsClient = createWsClient({
    url: wsUrl.href,
    connectionParams: authorization ? { authorization } : {},
    lazy: true,
    // A gateway restart should not leave the page silent: reconnect a few times, then report.
    retryAttempts: 5,
  });
  const client = new Client({
    url: graphqlUrl,
    // POST with a JSON body: the gateway's CSRF prevention refuses simple GET requests.
    preferGetMethod: false,
    fetchOptions: (): RequestInit => ({ headers: authorization ? { authorization } : {} }),
    exchanges: [
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
      fetchExchange,
    ],
  });

  async function run<R, V extends AnyVariables>(kind: 'query' | 'mutation', document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
    const result = kind === 'query' ? await client.query(document, variables).toPromise() : await client.mutation(document, variables).toPromise();
    // Partial data with errors counts as a failure here: the map must not draw half a network.
    if (result.error) throw toApiError(result.error);
    if (result.data === undefined || result.data === null) throw new ApiError('The gateway answered without data.', 'other', []);
    return result.data;
  }

  return {
    query: (document, variables) => run('query', document, variables),
    mutate: (document, variables) => run('mutation', document, variables),
    subscribe(document, variables, onData, onEnd) {
      let ended = false;
      const end = (error: ApiError | null): void => {
        if (ended) return;
        ended = true;
        onEnd(error);
      };
      const { unsubscribe } = client.subscription(document, variables).subscribe((result) => {
        if (result.error) {
          end(toApiError(result.error));
          return;
        }
        if (result.data !== undefined && result.data !== null) onData(result.data);
        // urql does not report completion to this sink; the caller stops on a terminal event.
      });
      return () => {
        ended = true;
        unsubscribe();
      };
    },
    close() {
      void ws.dispose();
    },
  };
}
