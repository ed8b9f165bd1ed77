/**
 * What a change makes stale, in URL terms: a change sent to `service` at `path` touches a cached
 * read when the rule below says so. The rules follow what the platform's resources share:
 *
 * - rest/v1, inside a network (`/networks/{id}/…`): everything read under that network (its
 *   records, lists, member lists and relations all show the changed resource), the network lists
 *   (`/networks`, a group's `/organizations/{id}/networks`, `/networkgroups/{id}/…`) and the
 *   process lists (a change may start a process).
 * - rest/v1, a network created, or a network group changed (or given a network from a blueprint):
 *   the network lists, group lists and process lists; a group's change also identity/v1's `/organization`.
 * - rest/v1 and core/v2, any other kind: every read whose path names the kind's collection
 *   (`/networkConfigMetadata`, `/networks/{id}/networkConfigMetadata`, `/endpoints?networkId=…`).
 * - auth/v1: everything read from auth/v1 (grants cut across domains, types and actions).
 * - search: nothing (its POSTs are queries).
 *
 * Paths are relative to the service's base (`/networks/…`, not `/rest/v1/networks/…`), query left out.
 */
import type { UpstreamService } from '../../errors/codes';

/** A change as every replica hears of it: where it was sent. */
export interface ChangeNotice {
  readonly service: UpstreamService;
  /** The changed path below the service's base, without the query. */
  readonly path: string;
  /** Seen by a poll rather than sent through the gateway: it makes the cache forget, but wakes no follower. */
  readonly seen?: true;
}

/** Where each service's paths start below `{base_url}` (search: at its own root). */
const SERVICE_MARKERS: Readonly<Record<UpstreamService, string | null>> = {
  'auth-v1': '/auth/v1',
  'rest-v1': '/rest/v1',
  'identity-v1': '/identity/v1',
  'core-v2': '/core/v2',
  search: null,
};

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
const NETWORK_LISTS: ReadonlySet<string> = new Set(['organizations', 'network-groups', 'networkgroups', 'workflow-status', 'network-processes']);

/** A test of cached reads (service, path segments) against one change. */
export type StaleTest = (service: UpstreamService, segments: readonly string[]) => boolean;

export function staleTest(change: ChangeNotice): StaleTest {
  const c = segmentsOf(change.path);
  const [kind, id] = c;
  switch (change.service) {
    case 'search':
    case 'identity-v1':
      return () => false;
    case 'auth-v1':
      return (service) => service === 'auth-v1';
    case 'rest-v1':
      if (kind === 'networks' || kind === 'organizations') {
        const group = kind === 'organizations';
        return (service, e) => {
          if (service === 'identity-v1') return group;
          if (service !== 'rest-v1') return false;
          const [eKind, eId] = e;
          if (eKind === 'networks') return e.length === 1 || (!group && id !== undefined && eId === id);
          return eKind !== undefined && NETWORK_LISTS.has(eKind);
        };
      }
      return namesKind('rest-v1', kind);
    case 'core-v2':
      return namesKind('core-v2', kind);
  }
}

/** Every read of `service` whose path names the collection `kind` (anything of the service when there is none). */
function namesKind(service: UpstreamService, kind: string | undefined): StaleTest {
  return (s, e) => s === service && (kind === undefined || e.includes(kind));
}

/**
 * The resource kind a read is of, for operator TTLs: the collection the path ends in
 * (`/dataCenters/{id}` → `dataCenters`, `/networks/{id}/endpoints` → `endpoints`).
 */
export function kindOf(segments: readonly string[]): string | undefined {
  if (segments.length === 0) return undefined;
  return segments[segments.length % 2 === 0 ? segments.length - 2 : segments.length - 1];
}
