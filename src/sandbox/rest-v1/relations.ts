/**
 * Relation lists: one row per `GET <owner path>/<relation>` naming the owner, the listed kind
 * (whose permission code the route checks) and how to find the items. They are not paginated:
 * every item comes back with a `page` object covering all of them.
 */
import type { SandboxRoute } from '../core/types';
import { findEntity, render, route, type AreaState } from './area-state';
import type { Env } from './env';
import { sortableFields } from './fields';
import { collection } from './hal';
import { resource } from './resources';
import type { Entity, Store } from './store';

interface Relation {
  path: string;
  owner: string;
  target: string;
  items(store: Store, owner: Entity): Entity[];
}

function ids(store: Store, kind: string, set: Iterable<string>): Entity[] {
  const out: Entity[] = [];
  for (const id of set) {
    const e = store.get(kind, id);
    if (e !== undefined) out.push(e);
  }
  return out;
}

/** Groups containing an endpoint. */
function groupsOf(store: Store, endpointId: string): Set<string> {
  const groups = new Set<string>();
  for (const [groupId, members] of store.groupMembers) if (members.has(endpointId)) groups.add(groupId);
  return groups;
}

/** AppWANs an endpoint belongs to, directly or through one of its endpoint groups. */
export function appWansOfEndpoint(store: Store, endpoint: Entity): Entity[] {
  const groups = groupsOf(store, endpoint.id);
  return store
    .where('appWan', 'networkId', String(endpoint.data['networkId']))
    .filter((a) => {
      const m = store.members(a.id);
      return m.endpoints.has(endpoint.id) || [...m.endpointGroups].some((g) => groups.has(g));
    });
}

const inGroup = (store: Store, org: Entity, kind: string): Entity[] => {
  const networks = new Set(store.where('network', 'organizationId', org.id).map((n) => n.id));
  return store.all(kind).filter((e) => networks.has(String(e.data['networkId'])));
};

const RELATIONS: readonly Relation[] = [
  { path: '/networks/{networkId}/endpoints/{endpointId}/appWans', owner: 'endpoint', target: 'appWan', items: appWansOfEndpoint },
  { path: '/networks/{networkId}/endpoints/{endpointId}/endpointGroups', owner: 'endpoint', target: 'endpointGroup',
    items: (s, e) => ids(s, 'endpointGroup', groupsOf(s, e.id)) },
  { path: '/networks/{networkId}/endpoints/{endpointId}/services', owner: 'endpoint', target: 'service',
    items: (s, e) => ids(s, 'service', new Set(appWansOfEndpoint(s, e).flatMap((a) => [...s.members(a.id).services]))) },
  { path: '/networks/{networkId}/services/{serviceId}/appWans', owner: 'service', target: 'appWan',
    items: (s, v) => s.where('appWan', 'networkId', String(v.data['networkId'])).filter((a) => s.members(a.id).services.has(v.id)) },
  { path: '/networks/{networkId}/appWans/{appWanId}/endpoints', owner: 'appWan', target: 'endpoint', items: (s, a) => ids(s, 'endpoint', s.members(a.id).endpoints) },
  { path: '/networks/{networkId}/appWans/{appWanId}/services', owner: 'appWan', target: 'service', items: (s, a) => ids(s, 'service', s.members(a.id).services) },
  { path: '/networks/{networkId}/appWans/{appWanId}/endpointGroups', owner: 'appWan', target: 'endpointGroup',
    items: (s, a) => ids(s, 'endpointGroup', s.members(a.id).endpointGroups) },
  { path: '/networks/{networkId}/endpointGroups/{endpointGroupId}/endpoints', owner: 'endpointGroup', target: 'endpoint',
    items: (s, g) => ids(s, 'endpoint', s.groupEndpoints(g.id)) },
  { path: '/networks/{networkId}/gatewayClusters/{gatewayClusterId}/endpoints', owner: 'gatewayCluster', target: 'endpoint',
    items: (s, g) => s.where('endpoint', 'gatewayClusterId', g.id) },
  { path: '/networks/{networkId}/gatewayClusters/{gatewayClusterId}/services', owner: 'gatewayCluster', target: 'service',
    items: (s, g) => s.where('service', 'gatewayClusterId', g.id) },
  { path: '/networks/{networkId}/virtualWanSites', owner: 'network', target: 'virtualWanSite', items: (s, n) => s.where('virtualWanSite', 'networkId', n.id) },
  { path: '/networkgroups/{organizationId}/endpoints', owner: 'organization', target: 'endpoint', items: (s, o) => inGroup(s, o, 'endpoint') },
  { path: '/networkgroups/{organizationId}/services', owner: 'organization', target: 'service', items: (s, o) => inGroup(s, o, 'service') },
];

export function relationRoutes(state: AreaState): SandboxRoute[] {
  return RELATIONS.map((rel) => {
    const owner = resource(rel.owner);
    const target = resource(rel.target);
    return route(state, 'GET', rel.path, { code: target.code, action: 'read' }, (env: Env, req) => {
      const entity = findEntity(env, owner);
      const items = rel.items(env.store, entity);
      const path = rel.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(env.params[name] ?? ''));
      return { status: 200, json: collection(items, {
          origin: req.origin,
          path,
          plural: target.plural,
          query: req.query,
          sortable: sortableFields(target.fields),
          paginated: false,
          fields: (e) => e.data,
          render: (e) => render(target, e, req.origin),
        }) };
    });
  });
}
