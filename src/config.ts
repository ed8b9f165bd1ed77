/**
 * The gateway's configuration: the only module that reads `process.env`. Each setting is declared
 * once in src/settings, in its area's table (its variable, check, default and documentation; how
 * to add one is at the top of src/settings/index.ts). The `Config` is those tables' values, one
 * slice per area (`config.transports.wsMaxConnections`), its types derived from the declarations.
 * A bad value throws ConfigError with a one-line message naming it.
 */
import { ConfigError, readSettings, refuseMisspelt, type Settings } from './settings';

export { ConfigError };
export { isLoopback, type ServerSettings } from './settings/server';
export { searchCredentialsOf, type UpstreamSettings } from './settings/upstream';
export { resilienceOf, type ResilienceSettings } from './settings/resilience';
export type { CacheSettings } from './settings/cache';
export type { CallerSettings } from './settings/callers';
export type { DocumentSettings } from './settings/documents';
export type { LimitSettings } from './settings/limits';
export type { TransportSettings } from './settings/transports';
export type { SubscriptionSettings } from './settings/subscriptions';
export type { ProvisioningSettings } from './settings/provisioning';
export { idempotencyOf, type IdempotencySettings } from './settings/idempotency';
export type { FleetSettings } from './settings/fleet';
export type { McpSettings } from './settings/mcp';
export { tracingOf, type TelemetrySettings } from './settings/telemetry';

/** Every setting's value, by area: `server`, `upstream`, `resilience`, `cache`, … (src/settings/index.ts). */
export type Config = Settings;

type Env = Readonly<Record<string, string | undefined>>;

/** Read and validate the configuration (from `process.env` unless given another map). */
export function loadConfig(env: Env = process.env): Config {
  let config: Config;
  try {
    config = readSettings(env);
  } catch (error) {
    // A misspelling explains a later error best (UPSTREAM_BASE_URL must be set…), but only a near
    // miss is sure to be one.
    refuseMisspelt(Object.keys(env), { nearOnly: true });
    throw error;
  }
  refuseMisspelt(Object.keys(env), { nearOnly: false });
  return config;
}
