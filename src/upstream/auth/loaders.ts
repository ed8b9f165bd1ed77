/**
 * Per-request DataLoaders of the auth area (created by the context, one set per GraphQL request,
 * never shared between callers).
 *
 * - by-id loaders per resource (by-id.ts; `domain` takes an id or a code, like `GET /domains/{idOrCode}`);
 * - list loaders keyed by the canonical filter (lists.ts): the same list asked twice costs one call,
 *   and every list primes the by-id loaders (a domain under both its id and its code);
 * - `grant` (grant.ts): one grant by the keys that find it, one list call per distinct filter;
 * - `children` and `actions` of resource types (relations.ts) follow the plan rule in plan.ts;
 * - `write`: a change through the one sender (../writes.ts); afterwards the loaders of what it
 *   touches (AUTH_WRITES in resources.ts) forget what they cached, so later fields see the new state.
 *
 * This file puts them together; what a request's loaders share is request.ts.
 */
import type DataLoader from 'dataloader';
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';
import { Writer } from '../writes';
import { byIdLoader } from './by-id';
import { AuthClient } from './client';
import { grantLoader, type GrantKey } from './grant';
import { listLoader } from './lists';
import { actionsLoader, childrenLoader } from './relations';
import { authRequest } from './request';
import { AUTH_RESOURCES, type AuthResourceName, type ListFilter } from './resources';
import type {
  DomainRecord,
  GrantRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SuperUserRecord,
} from './types';

export type { GrantKey } from './grant';

export interface AuthLoaders {
  /** One change (AUTH_WRITES): sent once, how to check an unknown outcome, what it touched forgotten. */
  write: AuthClient['write'];
  /** By id or by code. */
  domain: DataLoader<string, DomainRecord>;
  resourceType: DataLoader<string, ResourceTypeRecord>;
  resourceAction: DataLoader<string, ResourceActionRecord>;
  superUser: DataLoader<string, SuperUserRecord>;
  publicGrant: DataLoader<string, PublicGrantRecord>;
  /** A grant found in `/grants?grantType=&identityId=` by its `grantId`; NOT_FOUND when the list lacks it. */
  grant: DataLoader<GrantKey, GrantRecord, string>;
  domains: DataLoader<ListFilter, DomainRecord[], string>;
  resourceTypes: DataLoader<ListFilter, ResourceTypeRecord[], string>;
  resourceActions: DataLoader<ListFilter, ResourceActionRecord[], string>;
  grants: DataLoader<ListFilter, GrantRecord[], string>;
  superUsers: DataLoader<ListFilter, SuperUserRecord[], string>;
  publicGrants: DataLoader<ListFilter, PublicGrantRecord[], string>;
  /** Direct children of a type, in `childrenIds` order when known. */
  children: DataLoader<ResourceTypeRecord, ResourceTypeRecord[], string>;
  /** Actions defined on a type. */
  actions: DataLoader<ResourceTypeRecord, ResourceActionRecord[], string>;
  /**
   * Starts the unfiltered type and/or action lists now, for a `domains` query whose nested fields
   * will need them (the plan rule then answers every domain's types and every type's actions from
   * them): the whole tree costs one round trip instead of one per level. A failure surfaces on
   * the fields that use the list. No-op with batching off.
   */
  prefetch(lists: { resourceTypes: boolean; resourceActions: boolean }): void;
}

export function createAuthLoaders(http: HttpClient, options: LoaderOptions): AuthLoaders {
  const client = new AuthClient(http, new Writer(http, 'auth-v1', (touched) => forget(touched)));
  const req = authRequest(client, options);

  const R = AUTH_RESOURCES;
  // A domain fetched by code is primed under its id too, and the other way round.
  // Lists are declared below; the closures run only once a batch is dispatched.
  const domain: DataLoader<string, DomainRecord> = byIdLoader(
    req,
    R.domain,
    () => domains.load({}),
    (d) => [d.id, d.code],
    (d) => primeDomain(d),
  );
  const resourceType = byIdLoader(req, R.resourceType, () => resourceTypes.load({}));
  const resourceAction = byIdLoader(req, R.resourceAction, () => resourceActions.load({}));
  const superUser = byIdLoader(req, R.superUser, () => superUsers.load({}));
  const publicGrant = byIdLoader(req, R.publicGrant, () => publicGrants.load({}));

  function primeDomain(d: DomainRecord): void {
    domain.prime(d.id, d);
    if (d.code !== null) domain.prime(d.code, d);
  }
  const domains = listLoader(req, R.domain, primeDomain);
  const resourceTypes = listLoader(req, R.resourceType, (t) => resourceType.prime(t.id, t), (t) => t.domainId);
  const resourceActions = listLoader(req, R.resourceAction, (a) => resourceAction.prime(a.id, a));
  const grants = listLoader(req, R.grant, (g) => {
    if (g.grantId !== null) grant.prime({ grantType: g.grantType, grantId: g.grantId, identityId: g.identityId }, g);
  });
  const superUsers = listLoader(req, R.superUser, (s) => superUser.prime(s.id, s));
  const publicGrants = listLoader(req, R.publicGrant, (p) => publicGrant.prime(p.id, p));
  const grant = grantLoader(req, grants);
  const children = childrenLoader(req, resourceTypes);
  const actions = actionsLoader(req, resourceActions);

  /** The loaders holding each resource's records and lists (and the relations read from those lists). */
  const cachesOf: Readonly<Record<AuthResourceName, ReadonlyArray<{ clearAll(): unknown }>>> = {
    domain: [domain, domains],
    resourceType: [resourceType, resourceTypes, children],
    resourceAction: [resourceAction, resourceActions, actions],
    grant: [grant, grants],
    superUser: [superUser, superUsers],
    publicGrant: [publicGrant, publicGrants],
  };

  /** After a change: forget the touched resources' records and lists, and that their lists were asked. */
  function forget(touched: readonly AuthResourceName[]): void {
    for (const name of touched) {
      for (const loader of cachesOf[name]) loader.clearAll();
      const prefix = `${R[name].path}?`;
      for (const key of req.requested) if (key.startsWith(prefix)) req.requested.delete(key);
    }
  }

  return {
    write: (name, input) => client.write(name, input),
    domain,
    resourceType,
    resourceAction,
    superUser,
    publicGrant,
    grant,
    domains,
    resourceTypes,
    resourceActions,
    grants,
    superUsers,
    publicGrants,
    children,
    actions,
    prefetch(lists) {
      if (!options.batching) return;
      // Handled here so an early failure is not an unhandled rejection; the loaders keep it.
      if (lists.resourceTypes) resourceTypes.load({}).catch(() => undefined);
      if (lists.resourceActions) resourceActions.load({}).catch(() => undefined);
    },
  };
}
