/**
 * What a change makes stale, in URL terms: a change sent to `service` at `path` touches a cached
 * read when the rule below says so. The rules follow what the platform's resources share:
 *
 * - `network-tree` (rest/v1), inside a network (`/networks/{id}/…`): everything read under that
 *   network (its records, lists, member lists and relations all show the changed resource), the
 *   network lists (`/networks`, a group's `/organizations/{id}/networks`, `/networkgroups/{id}/…`)
 *   and the process lists (a change may start a process).
 * - `network-tree`, a network created, or a network group changed (or given a network from a
 *   blueprint): the network lists, group lists and process lists; a group's change also
 *   identity/v1's `/organization`.
 * - `network-tree` and `kind` (core/v2), any other kind: every read whose path names the kind's
 *   collection (`/networkConfigMetadata`, `/networks/{id}/networkConfigMetadata`, `/endpoints?networkId=…`).
 * - `whole-api` (auth/v1): everything read from the API (grants cut across domains, types and actions).
 * - `none` (identity/v1, search): nothing (identity/v1 takes no change, search's POSTs are queries).
 *
 * Paths are relative to the service's base (`/networks/…`, not `/rest/v1/networks/…`), query left out.
 * Which rule an API follows is its row's `changes` column (src/core/upstream-apis.ts).
 */
import { perService, type ChangeScoping, type UpstreamService } from '../../core/upstream-apis';

/** A change as every replica hears of it: where it was sent. */
export interface ChangeNotice {
  readonly service: UpstreamService;
  /** The changed path below the service's base, without the query. */
  readonly path: string;
  /** Seen by a poll rather than sent through the gateway: it makes the cache forget, but wakes no follower. */
  readonly seen?: true;
}

/** Where each service's paths start below `{base_url}` (null: at its own address's root). */
const SERVICE_MARKERS = perService((api) => api.path);
const SCOPING = perService((api): ChangeScoping => api.changes);

/** `pathname` (as sent, the base's prefix included) below its service's base. */
export function servicePath(service: UpstreamService, pathname: string): string {
  const marker = SERVICE_MARKERS[service];
  if (marker === null) return pathname;
  const at = pathname.indexOf(`${marker}/`);
  return at < 0 ? pathname : pathname.slice(at + marker.length);
}

export function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** rest/v1 lists that show networks or what runs on them. */
const NETWORK_LISTS: readonly string[] = ['organizations', 'network-groups', 'networkgroups', 'workflow-status', 'network-processes'];

/** A test of cached reads (service, path segments) against one change. */
export type StaleTest = (service: UpstreamService, segments: readonly string[]) => boolean;

/*
 * The rules above as scopes, so that a change finds what it touched without looking at anything
 * else: every cached read is filed under the scopes `scopesOf` names, a change reaches the scopes
 * `reachOf` names, and a read is stale when the two meet. `staleTest` is derived from the same two,
 * so the cache's index and the in-flight sharing's test cannot disagree. Scopes, per service `s`:
 *
 * - `s`: every read of the service;
 * - `s#x`: reads whose path names the segment `x` (APIs scoped by kind or network tree: rest/v1, core/v2);
 * - `s^x`, `s^x/y`, `s=x`: reads whose path starts with `x`, with `x/y`, or is `x` alone (network tree: rest/v1).
 */

/** The scopes a read of `service` at `segments` is filed under (each once). */
export function scopesOf(service: UpstreamService, segments: readonly string[]): string[] {
  const scopes: string[] = [service];
  const scoping = SCOPING[service];
  if (scoping !== 'kind' && scoping !== 'network-tree') return scopes;
  for (const segment of segments) {
    const scope = `${service}#${segment}`;
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  const [first, second] = segments;
  if (scoping === 'network-tree' && first !== undefined) {
    scopes.push(`${service}^${first}`);
    scopes.push(second === undefined ? `${service}=${first}` : `${service}^${first}/${second}`);
  }
  return scopes;
}

/** The identity check's API: a group's change reaches its `/organization`. */
const IDENTITY: UpstreamService = 'identity-v1';

/** What a change reaches, per scoping rule (a rule without its entry does not compile). */
const REACH: Readonly<Record<ChangeScoping, (service: UpstreamService, kind: string | undefined, id: string | undefined) => string[]>> = {
  none: () => [],
  'whole-api': (service) => [service],
  kind: namesKind,
  'network-tree': (service, kind, id) => {
    if (kind === 'networks' || kind === 'organizations') {
      const group = kind === 'organizations';
      const reach = [`${service}=networks`, ...NETWORK_LISTS.map((list) => `${service}^${list}`)];
      // A group's change shows in the caller's organization (identity/v1's `/organization`).
      if (group) reach.push(IDENTITY);
      else if (id !== undefined) reach.push(`${service}^networks/${id}`);
      return reach;
    }
    return namesKind(service, kind);
  },
};

/** The scopes a change reaches: what it makes stale is every read filed under one of them. */
export function reachOf(change: ChangeNotice): string[] {
  const [kind, id] = segmentsOf(change.path);
  return REACH[SCOPING[change.service]](change.service, kind, id);
}

export function staleTest(change: ChangeNotice): StaleTest {
  return staleTestOf(reachOf(change));
}

/** The test of reads against a change that reaches `scopes`. */
export function staleTestOf(scopes: readonly string[]): StaleTest {
  const reach = new Set(scopes);
  if (reach.size === 0) return () => false;
  return (service, segments) => scopesOf(service, segments).some((scope) => reach.has(scope));
}

/** Every read of `service` whose path names the collection `kind` (anything of the service when there is none). */
function namesKind(service: UpstreamService, kind: string | undefined): string[] {
  return [kind === undefined ? service : `${service}#${kind}`];
}

/**
 * The resource kind a read is of, for operator TTLs: the collection the path ends in
 * (`/dataCenters/{id}` → `dataCenters`, `/networks/{id}/endpoints` → `endpoints`).
 */
export function kindOf(segments: readonly string[]): string | undefined {
  if (segments.length === 0) return undefined;
  return segments[segments.length % 2 === 0 ? segments.length - 2 : segments.length - 1];
}
