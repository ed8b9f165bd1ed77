/**
 * The platform's APIs the gateway calls, one row each. Every union, map and wire format that names
 * an upstream API is derived from this table: `extensions.upstream.service` (src/errors), the HTTP
 * layer's bases and credentials, the breakers' gates, the cache's change scopes, the one sender of
 * changes, and the fleet's Redis messages (src/state/redis), which refuse a name not in it.
 *
 * Adding an API = a row here + its schema file + its client, loaders and resolvers + its sandbox
 * area. A map keyed by `UpstreamService` (a `Record`) fails to compile until it has the new row.
 *
 * A leaf: imports nothing, so src/errors may name the services too.
 */

/** How a change sent to an API is scoped: which cached reads it makes stale (src/upstream/cache/change-scope.ts). */
export type ChangeScoping =
  /** Nothing: its calls change nothing the gateway reads (read-only, or POSTs that are queries). */
  | 'none'
  /** Every read of the API (its records cut across each other, as auth/v1's grants do). */
  | 'whole-api'
  /** Reads whose path names the changed kind's collection. */
  | 'kind'
  /** As `kind`, plus the network's own tree and the lists that show networks (rest/v1's resources live inside networks). */
  | 'network-tree';

export interface UpstreamApiRow {
  /** The service's name: `extensions.upstream.service`, the `service` label of metrics, the fleet's change messages. */
  readonly name: string;
  /** Where it lives below the platform's `{base_url}` (also what a link on the platform's public host holds); null: at its own address. */
  readonly path: string | null;
  /** Its gate: one breaker, `Retry-After` window and retry budget (src/upstream/health), the `api` label, the fleet's closure messages. */
  readonly gate: string;
  /** Takes changes (POST, PUT, DELETE) through the one sender (src/upstream/writes.ts). */
  readonly writable: boolean;
  readonly changes: ChangeScoping;
  /** The caller's token goes to it verbatim; false: the gateway's own credentials for it go instead. */
  readonly forwardsToken: boolean;
  /** Its reads may be answered from the shared upstream cache; false: every read goes to it (the identity check, which must see a revoked token). */
  readonly cached: boolean;
}

export const UPSTREAM_APIS = [
  { name: 'auth-v1', path: '/auth/v1', gate: 'auth/v1', writable: true, changes: 'whole-api', forwardsToken: true, cached: true },
  { name: 'rest-v1', path: '/rest/v1', gate: 'rest/v1', writable: true, changes: 'network-tree', forwardsToken: true, cached: true },
  // Its own gate: refused or rate-limited tokens never close rest/v1, nor rest/v1's trouble the identity checks.
  { name: 'identity-v1', path: '/identity/v1', gate: 'identity/v1', writable: false, changes: 'none', forwardsToken: true, cached: false },
  { name: 'core-v2', path: '/core/v2', gate: 'core/v2', writable: true, changes: 'kind', forwardsToken: true, cached: true },
  // At SEARCH_URL, with the gateway's basic credentials; its POSTs are queries.
  { name: 'search', path: null, gate: 'search', writable: false, changes: 'none', forwardsToken: false, cached: true },
] as const satisfies readonly UpstreamApiRow[];

type Row = (typeof UPSTREAM_APIS)[number];

/** An upstream service by name (`auth-v1`, `rest-v1`, …). */
export type UpstreamService = Row['name'];
/** An API as its gate names it (`auth/v1`, …): what the resilience policies and their metrics see. */
export type UpstreamApi = Row['gate'];
/** The services that take changes. */
export type WriteService = Extract<Row, { writable: true }>['name'];
/** The services at the platform's `{base_url}`, and those at an address of their own. */
export type PlatformService = Extract<Row, { path: string }>['name'];
export type OwnAddressService = Exclude<UpstreamService, PlatformService>;
/** The services that get the caller's token, and those that get the gateway's own credentials. */
export type TokenService = Extract<Row, { forwardsToken: true }>['name'];
export type OwnCredentialService = Exclude<UpstreamService, TokenService>;

/** The service names, in table order. */
export const UPSTREAM_SERVICES: readonly UpstreamService[] = UPSTREAM_APIS.map((api) => api.name);
/** The gates, in table order (each once). */
export const API_GATES: readonly UpstreamApi[] = [...new Set(UPSTREAM_APIS.map((api) => api.gate))];

/** A map with an entry for every service, derived from the rows: built once, read per call. */
export function perService<T>(value: (api: Row) => T): Readonly<Record<UpstreamService, T>> {
  // Each row sets its own name's entry, and the rows are the union's members: the record is whole.
  return Object.fromEntries(UPSTREAM_APIS.map((api) => [api.name, value(api)])) as Record<UpstreamService, T>;
}

const ROW_OF = perService((api): Row => api);
const FORWARDS_TOKEN = perService((api) => api.forwardsToken);

/** `service`'s row. */
export function upstreamApi(service: UpstreamService): Row {
  return ROW_OF[service];
}

/** Whether `value` names a service of the table: what a wire format read from outside the process checks. */
export function isUpstreamService(value: unknown): value is UpstreamService {
  return typeof value === 'string' && UPSTREAM_SERVICES.some((name) => name === value);
}

/** Whether `service` gets the caller's token (else the gateway's own credentials for it). */
export function forwardsToken(service: UpstreamService): service is TokenService {
  return FORWARDS_TOKEN[service];
}
