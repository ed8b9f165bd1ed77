/**
 * A minimal GraphQL-over-HTTP client for the load generator: one undici Pool per gateway with
 * enough keep-alive connections for the throughput phase, so connection set-up is not measured.
 */
import { Pool } from 'undici';
import { isObject, type JsonObject } from '../src/core/parse';

export class BenchRequestError extends Error {}

export interface GraphQLHttpClient {
  /** Runs the operation and returns its `data`; throws on a non-200 status or any GraphQL error. */
  execute(document: string, variables: Record<string, unknown>): Promise<JsonObject>;
  /**
   * Same request, cheaper check for timed loops: status 200 and no top-level `errors` key,
   * without building the response object in this process (it shares the CPU with the sandbox).
   */
  executeUnchecked(document: string, variables: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export function createGraphQLClient(url: string, token: string, connections: number): GraphQLHttpClient {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
    authorization: `Bearer ${token}`,
  };

  const send = async (document: string, variables: Record<string, unknown>): Promise<string> => {
    const res = await pool.request({
      method: 'POST',
      path: target.pathname + target.search,
      headers,
      body: JSON.stringify({ query: document, variables }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new BenchRequestError(`gateway answered ${res.statusCode}: ${text.slice(0, 500)}`);
    return text;
  };

  return {
    async execute(document, variables) {
      const text = await send(document, variables);
      const parsed: unknown = JSON.parse(text);
      if (!isObject(parsed)) throw new BenchRequestError('gateway response is not a JSON object');
      if (parsed['errors'] !== undefined) {
        throw new BenchRequestError(`GraphQL errors: ${JSON.stringify(parsed['errors']).slice(0, 1000)}`);
      }
      const data = parsed['data'];
      if (!isObject(data)) throw new BenchRequestError('gateway response has no data');
      return data;
    },
    async executeUnchecked(document, variables) {
      const text = await send(document, variables);
      // A key is the only place an unescaped `"errors":` can appear in the JSON text.
      if (text.includes('"errors":')) throw new BenchRequestError(`GraphQL errors: ${text.slice(0, 1000)}`);
    },
    close: () => pool.close(),
  };
}
