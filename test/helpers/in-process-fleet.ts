/**
 * Gateways in this process sharing one real redis-server and one sandbox, for fleet tests that
 * need to look inside a replica (its verifier, its stats) or lay state in Redis themselves.
 */
import { Redis } from 'ioredis';
import type { FleetSettings } from '../../src/config';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startGateway, type RunningGateway } from '../../src/server';
import { startRedis, type TestRedis } from './redis-server';
import { testConfig } from './stack';
import { waitUntil } from './wait';

export interface InProcessFleet {
  redis: TestRedis;
  /** A client of the same Redis, to read or lay keys. */
  client: Redis;
  sandbox: RunningSandbox;
  gateways: RunningGateway[];
  close(): Promise<void>;
}

export async function startInProcessFleet(count: number, fleet: Partial<FleetSettings>): Promise<InProcessFleet> {
  const redis = await startRedis();
  const client = new Redis(redis.url);
  const sandbox = await startSandbox({ port: 0, seed: 'tiny' });
  const config = testConfig({ upstream: { baseUrl: null } });
  const gateways: RunningGateway[] = [];
  for (let i = 0; i < count; i++) {
    const gateway = await startGateway({ ...config, fleet: { ...config.fleet, redisUrl: redis.url, ...fleet } }, { log: null, sandbox });
    gateways.push(gateway);
    // Ready once it has reached Redis (/readyz), as an orchestrator waits for a replica: before
    // that, a replica keeps what it shares to itself, and a test reading Redis would miss it.
    const readyz = new URL('/readyz', gateway.url).href;
    await waitUntil(async () => (await fetch(readyz)).status === 200, `replica ${i} ready`, { intervalMs: 20 });
  }
  return {
    redis,
    client,
    sandbox,
    gateways,
    async close() {
      for (const gateway of gateways) await gateway.close();
      client.disconnect();
      await sandbox.close();
      await redis.close();
    },
  };
}
