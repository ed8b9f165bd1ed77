/** The doors' own limits: WebSocket connections and SSE streams. */
import { ConfigError, MAX_MS, area, custom, int, type SettingsOf } from './setting';

export const WS_MAX_CONNECTIONS = int({ name: 'WS_MAX_CONNECTIONS', meaning: 'WebSocket connections in all (429 past it)', min: 1, max: 1_000_000, fallback: 10_000 });
export const WS_CONNECTIONS_PER_CLIENT = int({
  name: 'WS_CONNECTIONS_PER_CLIENT',
  meaning: 'WebSocket connections per client address (429 past it)',
  min: 1,
  max: (env) => env.get(WS_MAX_CONNECTIONS),
  fallback: (env) => Math.max(1, Math.floor(env.get(WS_MAX_CONNECTIONS) / 4)),
  defaultText: 'a quarter of `WS_MAX_CONNECTIONS`',
  rangeText: '1–`WS_MAX_CONNECTIONS`',
});
export const WS_ALLOWED_ORIGINS = custom<ReadonlySet<string> | null>({
  name: 'WS_ALLOWED_ORIGINS',
  meaning: 'comma-separated origins a browser may open a WebSocket from (403 otherwise)',
  defaultText: 'unset: any',
  rangeText: 'origins such as `https://app.example.com` (scheme and host, no path)',
  read(env) {
    const origins = env.text('WS_ALLOWED_ORIGINS');
    if (origins === undefined) return null;
    const allowed = new Set(origins.split(',').map((o) => o.trim()).filter((o) => o !== ''));
    for (const origin of allowed) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`WS_ALLOWED_ORIGINS must list origins such as https://app.example.com (scheme and host, no path); got ${JSON.stringify(origin)}`);
    }
    return allowed;
  },
});
export const SSE_MAX_RESERVATIONS = int({ name: 'SSE_MAX_RESERVATIONS', meaning: 'reserved SSE streams (single connection mode) in all', min: 1, max: 1_000_000, fallback: 1000 });
export const SSE_RESERVATIONS_PER_CALLER = int({
  name: 'SSE_RESERVATIONS_PER_CALLER',
  meaning: 'reserved SSE streams per token',
  min: 1,
  max: (env) => env.get(SSE_MAX_RESERVATIONS),
  fallback: (env) => Math.min(10, env.get(SSE_MAX_RESERVATIONS)),
  defaultText: '`10` (at most `SSE_MAX_RESERVATIONS`)',
  rangeText: '1–`SSE_MAX_RESERVATIONS`',
});
export const SSE_RESERVATION_TTL_MS = int({ name: 'SSE_RESERVATION_TTL_MS', meaning: 'how long a reserved SSE stream may stay unopened', min: 100, max: MAX_MS, fallback: 10_000 });
export const SSE_MAX_BUFFERED_BYTES = int({
  name: 'SSE_MAX_BUFFERED_BYTES',
  meaning: 'event bytes one SSE stream may hold unread before its operations end',
  min: 1024,
  max: 1024 * 1024 * 1024,
  fallback: 4 * 1024 * 1024,
});

export const WS_MAX_BUFFERED_BYTES = int({
  name: 'WS_MAX_BUFFERED_BYTES',
  meaning: 'bytes one WebSocket may hold unsent: a message that would take it past them closes it (1013, try again later) and ends its subscriptions',
  min: 1024,
  max: 1024 * 1024 * 1024,
  fallback: 4 * 1024 * 1024,
});

export const WS_MAX_OPERATIONS_PER_CONNECTION = int({
  name: 'WS_MAX_OPERATIONS_PER_CONNECTION',
  meaning: 'operations one WebSocket may have in flight (from its `subscribe` message to its answer, or to its subscription started); past it one is refused with an `error` message (RATE_LIMITED, limit `operationsPerConnection`), the socket stays open',
  min: 1,
  max: 100_000,
  fallback: 100,
});

export const TRANSPORTS = area({
  title: 'Transports',
  settings: {
    wsMaxConnections: WS_MAX_CONNECTIONS,
    wsConnectionsPerClient: WS_CONNECTIONS_PER_CLIENT,
    wsAllowedOrigins: WS_ALLOWED_ORIGINS,
    wsMaxBufferedBytes: WS_MAX_BUFFERED_BYTES,
    wsMaxOperationsPerConnection: WS_MAX_OPERATIONS_PER_CONNECTION,
    sseMaxReservations: SSE_MAX_RESERVATIONS,
    sseReservationsPerCaller: SSE_RESERVATIONS_PER_CALLER,
    sseReservationTtlMs: SSE_RESERVATION_TTL_MS,
    sseMaxBufferedBytes: SSE_MAX_BUFFERED_BYTES,
  },
});

export type TransportSettings = SettingsOf<typeof TRANSPORTS>;
