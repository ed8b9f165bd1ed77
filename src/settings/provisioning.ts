/** `provisionAppWan` runs: how long a step may take, how many run and how many are kept. */
import { defaultShare } from '../core/shares';
import { area, int, type SettingsOf } from './setting';

export const PROVISIONING_STEP_TIMEOUT_MS = int({
  name: 'PROVISIONING_STEP_TIMEOUT_MS',
  meaning: "longest wait for one `provisionAppWan` step's status or workflow",
  min: 1,
  max: 3_600_000,
  fallback: 600_000,
});
export const MAX_PROVISIONINGS = int({ name: 'MAX_PROVISIONINGS', meaning: '`provisionAppWan` runs in progress at once, all callers together (past it: `RATE_LIMITED`)', min: 1, max: 10_000, fallback: 100 });
export const MAX_PROVISIONINGS_PER_CALLER = int({
  name: 'MAX_PROVISIONINGS_PER_CALLER',
  meaning: 'runs one token may have in progress at once, its share of `MAX_PROVISIONINGS` (past it: `RATE_LIMITED`, `scope: caller`)',
  min: 1,
  max: (env) => env.get(MAX_PROVISIONINGS),
  fallback: (env) => defaultShare(env.get(MAX_PROVISIONINGS)),
  defaultText: 'a quarter of `MAX_PROVISIONINGS`',
  rangeText: '1–`MAX_PROVISIONINGS`',
});
export const PROVISIONINGS_RETAINED = int({
  name: 'PROVISIONINGS_RETAINED',
  meaning: "provisioning records kept, running and finished; one token keeps a quarter at most. A new one pushes out the oldest finished (the token's own first); with none finished, `RATE_LIMITED`",
  min: (env) => env.get(MAX_PROVISIONINGS),
  max: 1_000_000,
  fallback: (env) => Math.max(1000, env.get(MAX_PROVISIONINGS)),
  defaultText: '`1000`',
  rangeText: '`MAX_PROVISIONINGS`–1000000',
});

export const PROVISIONING = area({
  title: 'Provisioning',
  settings: {
    stepTimeoutMs: PROVISIONING_STEP_TIMEOUT_MS,
    maxProvisionings: MAX_PROVISIONINGS,
    maxProvisioningsPerCaller: MAX_PROVISIONINGS_PER_CALLER,
    provisioningsRetained: PROVISIONINGS_RETAINED,
  },
});

export type ProvisioningSettings = SettingsOf<typeof PROVISIONING>;
