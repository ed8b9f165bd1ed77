/** Subscriptions and the shared pollers behind them. */
import { defaultShare } from '../core/shares';
import { MAX_MS, area, int, type SettingsOf } from './setting';

export const POLL_INTERVAL_MS = int({
  name: 'POLL_INTERVAL_MS',
  meaning: 'pause between two polls of a `workflow` or `resourceStatus` poller after a change (and before its second poll)',
  min: 1,
  max: MAX_MS,
  fallback: 2000,
});
export const POLL_MAX_INTERVAL_MS = int({
  name: 'POLL_MAX_INTERVAL_MS',
  meaning: 'ceiling of that pause, which grows 1.5× per poll without change and 2× per transient error',
  min: 1,
  max: MAX_MS,
  fallback: (env) => Math.max(15_000, env.get(POLL_INTERVAL_MS)),
  atLeast: POLL_INTERVAL_MS,
  defaultText: '`15000`, or `POLL_INTERVAL_MS` if larger',
});
export const NETWORK_POLL_INTERVAL_MS = int({
  name: 'NETWORK_POLL_INTERVAL_MS',
  meaning: 'pause between two polls of a `networkChanges` poller after a change, and while a resource of the network is in progress (a status that is not final)',
  min: 1,
  max: MAX_MS,
  fallback: 2000,
});
export const NETWORK_POLL_MAX_INTERVAL_MS = int({
  name: 'NETWORK_POLL_MAX_INTERVAL_MS',
  meaning: 'ceiling of that pause while the network is quiet (it grows 1.5× per poll without change)',
  min: 1,
  max: MAX_MS,
  fallback: (env) => Math.max(30_000, env.get(NETWORK_POLL_INTERVAL_MS)),
  atLeast: NETWORK_POLL_INTERVAL_MS,
  defaultText: '`30000`, or `NETWORK_POLL_INTERVAL_MS` if larger',
});
export const POLL_MAX_ERRORS = int({
  name: 'POLL_MAX_ERRORS',
  meaning: 'transient poll failures in a row (5xx, timeout, unreachable, 429) after which a subscription ends with that error',
  min: 1,
  max: 100,
  fallback: 5,
});
export const POLL_NOT_FOUND_GRACE_MS = int({
  name: 'POLL_NOT_FOUND_GRACE_MS',
  meaning: 'how long a `workflow` subscription waits for a business key the upstream does not know yet, before `NOT_FOUND`',
  min: 0,
  max: MAX_MS,
  fallback: 10_000,
});
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = int({
  name: 'MAX_SUBSCRIPTIONS_PER_CONNECTION',
  meaning: 'subscriptions one WebSocket, or one SSE stream, may run at once (past it: `RATE_LIMITED`)',
  min: 1,
  max: 10_000,
  fallback: 20,
});
export const MAX_POLLERS = int({ name: 'MAX_POLLERS', meaning: 'shared pollers running at once, all callers together (a new target past it: `RATE_LIMITED`)', min: 1, max: 1_000_000, fallback: 1000 });
export const MAX_POLLERS_PER_CALLER = int({
  name: 'MAX_POLLERS_PER_CALLER',
  meaning: 'shared pollers one token may start, its share of `MAX_POLLERS` (past it: `RATE_LIMITED`, `scope: caller`)',
  min: 1,
  max: (env) => env.get(MAX_POLLERS),
  fallback: (env) => defaultShare(env.get(MAX_POLLERS)),
  defaultText: 'a quarter of `MAX_POLLERS`',
  rangeText: '1–`MAX_POLLERS`',
});

export const SUBSCRIPTIONS = area({
  title: 'Subscriptions and pollers',
  settings: {
    pollIntervalMs: POLL_INTERVAL_MS,
    pollMaxIntervalMs: POLL_MAX_INTERVAL_MS,
    networkPollIntervalMs: NETWORK_POLL_INTERVAL_MS,
    networkPollMaxIntervalMs: NETWORK_POLL_MAX_INTERVAL_MS,
    pollMaxErrors: POLL_MAX_ERRORS,
    pollNotFoundGraceMs: POLL_NOT_FOUND_GRACE_MS,
    maxSubscriptionsPerConnection: MAX_SUBSCRIPTIONS_PER_CONNECTION,
    maxPollers: MAX_POLLERS,
    maxPollersPerCaller: MAX_POLLERS_PER_CALLER,
  },
});

export type SubscriptionSettings = SettingsOf<typeof SUBSCRIPTIONS>;
