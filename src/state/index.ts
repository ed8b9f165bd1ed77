/**
 * The gateway's shared state, chosen at start-up: in this process (no `REDIS_URL`: nothing else
 * to install, today's behaviour) or in Redis (every replica shares it). One small interface per
 * kind of state; the server builds them here and the rest of the gateway never knows which it has.
 */
import { readFileSync } from 'node:fs';
import type { Registry } from 'prom-client';
import type { FleetSettings } from '../config';
import { createPollerRegistry, type PollerMetrics, type PollerRegistry, type PollerSettings } from '../pollers';
import type { ProvisioningJobs, ProvisioningLimits, ProvisioningOwner, ProvisioningRun } from '../provisioning/jobs';
import type { VerdictStore } from '../core/verify';
import type { IdempotencyStore } from '../idempotency/store';
import type { ClosureBoard } from '../upstream/health';
import { createCallQuota, type CallQuota } from './call-quota';
import { MemoryMinuteCounter } from './memory/call-quota';
import { MemoryPersistedQueries, type PersistedQueryLimits, type PersistedQueryStore } from './memory/persisted-queries';
import { createProvisioningJobs } from './memory/provisionings';
import { MemoryIdempotencyStore } from './memory/idempotency';
import { MemoryClosureBoard } from './memory/upstream-closures';
import { RedisMinuteCounter } from './redis/call-quota';
import { RedisLink } from './redis/link';
import { RedisIdempotencyStore } from './redis/idempotency';
import { createFleetMetrics } from './redis/metrics';
import { RedisPersistedQueries } from './redis/persisted-queries';
import { createFleetPollers } from './redis/pollers';
import { createFleetProvisionings } from './redis/provisionings';
import { RedisClosureBoard } from './redis/upstream-closures';
import { createUntrustedCounter } from './redis/untrusted';
import { RedisVerdicts } from './redis/verdicts';

/** What `/readyz` shows of the shared state. */
export interface StateCheck {
  /** `memory`: nothing to reach. `ready`: Redis answers. `starting`: Redis not reached yet (not ready). `degraded`: Redis lost while running (still serving). */
  status: 'memory' | 'ready' | 'starting' | 'degraded';
  detail?: string;
}

export interface FleetState {
  readonly mode: 'memory' | 'redis';
  pollers<S>(settings: PollerSettings, metrics: PollerMetrics): PollerRegistry<S>;
  provisionings<O extends ProvisioningOwner>(limits: ProvisioningLimits, run: ProvisioningRun<O>, ownerFor: (authorization: string, ownerKey: string) => O): ProvisioningJobs<O>;
  persistedQueries(limits: PersistedQueryLimits): PersistedQueryStore;
  /** Where idempotency keys are kept (src/idempotency): this process's memory, or Redis (results sealed with `FLEET_TOKEN_KEY`). */
  idempotency(): IdempotencyStore;
  /** The `CALLER_UPSTREAM_CALLS_PER_MINUTE` counter; null when no quota is set. */
  readonly quota: CallQuota | null;
  /**
   * Verdicts on bearer tokens shared by the fleet (src/core/verify.ts); null in memory mode, and in
   * a fleet without `FLEET_TOKEN_KEY` (the hash key must be the fleet's for replicas to agree).
   */
  readonly verdicts: VerdictStore | null;
  /** Openings of platform APIs (breaker, Retry-After window) the replicas share (redis/upstream-closures.ts). */
  readonly upstreamClosures: ClosureBoard;
  check(): StateCheck;
  close(): Promise<void>;
}

export interface FleetStateOptions {
  config: FleetSettings;
  /** `CALLER_UPSTREAM_CALLS_PER_MINUTE`: null, no quota. */
  callerUpstreamCallsPerMinute: number | null;
  /** The quota's clock (its windows are the clock's minutes). @default Date.now */
  quotaClock?: () => number;
  /** Where the fleet's metrics go (leases held, takeovers, fleet polls). */
  registry: Registry;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export function createFleetState(options: FleetStateOptions): FleetState {
  const { config, callerUpstreamCallsPerMinute: perMinute, quotaClock } = options;
  if (config.redisUrl === null) return createMemoryState(perMinute, quotaClock);
  const link = new RedisLink(config.redisUrl, options.warn, config.redisTlsCaFile === null ? null : { ca: readCa(config.redisTlsCaFile) });
  const fleet = createFleetMetrics(options.registry);
  // What was read back from Redis and failed its check (a MAC, a document's hash): ignored and counted.
  const untrusted = createUntrustedCounter(options.registry);
  return {
    mode: 'redis',
    pollers: (settings, metrics) => createFleetPollers(link, settings, metrics, fleet, config.tokenKey),
    provisionings: (limits, run, ownerFor) => createFleetProvisionings({ link, limits, run, ownerFor, tokenKey: config.tokenKey, metrics: fleet, warn: options.warn, untrusted }),
    persistedQueries: (limits) => new RedisPersistedQueries(link, limits, untrusted),
    idempotency: () => new RedisIdempotencyStore({ link, tokenKey: config.tokenKey }),
    quota: perMinute === null ? null : createCallQuota(new RedisMinuteCounter(link), perMinute, quotaClock),
    verdicts: config.tokenKey === null ? null : new RedisVerdicts(link, config.tokenKey, untrusted),
    upstreamClosures: new RedisClosureBoard(link, config.tokenKey),
    check: () => link.check(),
    close: () => link.close(),
  };
}

/** The authorities of `REDIS_TLS_CA_FILE`; unreadable stops the start, saying which setting. */
function readCa(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`REDIS_TLS_CA_FILE could not be read (${error instanceof Error && 'code' in error ? String(error.code) : 'error'})`);
  }
}

function createMemoryState(perMinute: number | null, quotaClock: (() => number) | undefined): FleetState {
  return {
    mode: 'memory',
    pollers: (settings, metrics) => createPollerRegistry(settings, metrics),
    provisionings: (limits, run) => createProvisioningJobs(limits, run),
    persistedQueries: (limits) => new MemoryPersistedQueries(limits),
    idempotency: () => new MemoryIdempotencyStore(),
    quota: perMinute === null ? null : createCallQuota(new MemoryMinuteCounter(), perMinute, quotaClock),
    verdicts: null,
    upstreamClosures: new MemoryClosureBoard(),
    check: () => ({ status: 'memory' }),
    close: () => Promise.resolve(),
  };
}
