/**
 * A plain undici GET of one network record straight from the sandbox (admin token): the upstream's
 * own figure that the pass-through baseline and the floors compare the gateway with.
 */
import { Pool } from 'undici';
import type { RunningSandbox } from '../src/sandbox';
import type { Operation } from './load';

export interface DirectGet {
  get: Operation;
  close(): Promise<void>;
}

export function directGet(sandbox: RunningSandbox, networkId: string, connections: number): DirectGet {
  const pool = new Pool(new URL(sandbox.baseUrl).origin, { connections, pipelining: 1 });
  const path = `/rest/v1/networks/${networkId}`;
  const headers = { authorization: `Bearer ${sandbox.tokens.admin}`, accept: 'application/json' };
  return {
    get: async () => {
      const res = await pool.request({ method: 'GET', path, headers });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`direct GET: sandbox answered ${res.statusCode}`);
    },
    close: () => pool.close(),
  };
}
