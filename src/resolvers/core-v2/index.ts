/**
 * The core/v2 area's resolvers (schema/core-v2.graphql): root reads, typed links, the explainer
 * fields (reach.ts), creates and their payloads. Thin: arguments → loaders (and the pure rules).
 */
import type { GatewayContext } from '../../context';
import type { Resolvers } from '../../generated/graphql';
import type { V2ChangeResult } from '../../upstream/core-v2/loaders';
import { executionState, lastSegment } from '../../upstream/core-v2/executions';
import type { V2EndpointRecord, V2ServiceRecord } from '../../upstream/core-v2/records';
import type { V2Kind, V2RecordFor } from '../../upstream/core-v2/resources';
import { arrayConnection, connectionFromArray, type ConnectionArgs } from '../connection';
import { listConnection } from '../network/lists';
import { nestedFieldNames } from '../lookahead';
import { edgeRouterBody, edgeRouterPolicyBody, v2AppWanBody, v2EndpointBody, v2NetworkBody, v2ServiceBody } from './inputs';
import { serviceModel } from './model';
import { matches, reachableBy, reachableServices, type NetworkFacts } from './reach';

type Ctx = GatewayContext;

const v2 = (ctx: Ctx) => ctx.loaders.coreV2;

/** Resolves to null without a call when the referenced id is absent. */
function maybe<T>(id: string | null, load: (id: string) => Promise<T>): Promise<T> | null {
  return id === null || id === '' ? null : load(id);
}

/** Every record of a kind in the record's network, as a connection (in memory after one list). */
function ofNetwork<K extends V2Kind>(ctx: Ctx, kind: K, networkId: string | null, args: ConnectionArgs, keep: (r: V2RecordFor<K>) => boolean = () => true) {
  return arrayConnection(args, async () => (networkId === null ? [] : (await v2(ctx).all(kind, networkId)).filter(keep)));
}

async function facts(ctx: Ctx, networkId: string): Promise<NetworkFacts> {
  const [appWans, policies, routers] = await Promise.all([v2(ctx).all('appWan', networkId), v2(ctx).all('edgeRouterPolicy', networkId), v2(ctx).all('edgeRouter', networkId)]);
  return { appWans, policies, routers };
}

/** A root list: filters by network and name (also applied in memory: an upstream may ignore them). */
function rootList<K extends V2Kind>(kind: K) {
  return (_root: unknown, args: { networkId?: string | null; name?: string | null; first?: number | null; after?: string | null }, ctx: Ctx) => {
    const query: Record<string, string> = {};
    if (args.networkId != null) query['networkId'] = args.networkId;
    if (args.name != null) query['name'] = args.name;
    return listConnection(args, (w) => v2(ctx).list(kind, w, query));
  };
}

/** The network's lists the fields below a network need (the explainer needs four or five). */
const LISTS_OF_FIELD: Readonly<Record<string, readonly V2Kind[]>> = {
  endpoints: ['endpoint'],
  services: ['service'],
  appWans: ['appWan'],
  edgeRouters: ['edgeRouter'],
  edgeRouterPolicies: ['edgeRouterPolicy'],
  reachableServices: ['service', 'appWan', 'edgeRouterPolicy', 'edgeRouter'],
  reachableBy: ['endpoint', 'appWan', 'edgeRouterPolicy', 'edgeRouter'],
};

export function listsBelow(fields: ReadonlySet<string>): Set<V2Kind> {
  const kinds = new Set<V2Kind>();
  for (const field of fields) for (const kind of LISTS_OF_FIELD[field] ?? []) kinds.add(kind);
  return kinds;
}

const scopedFields = {
  network: (r: { networkId: string | null }, _a: unknown, ctx: Ctx) => maybe(r.networkId, (id) => v2(ctx).byId('network', id)),
};

/** The created resource: as answered, else read by id. */
function created<K extends V2Kind>(kind: K) {
  return (p: V2ChangeResult<V2RecordFor<K>>, _a: unknown, ctx: Ctx): V2RecordFor<K> | Promise<V2RecordFor<K>> | null =>
    p.record ?? (p.id === null ? null : v2(ctx).byId(kind, p.id));
}

const payloadFields = {
  executionId: (p: V2ChangeResult<unknown>) => (p.executionHref === null ? null : lastSegment(p.executionHref)),
  execution: (p: V2ChangeResult<unknown>, _a: unknown, ctx: Ctx) => (p.executionHref === null ? null : v2(ctx).execution(p.executionHref)),
};

const routeFields = {
  appWans: (r: { appWans: readonly V2RecordFor<'appWan'>[] }, args: ConnectionArgs) => connectionFromArray(r.appWans, args),
  edgeRouterPolicies: (r: { policies: readonly V2RecordFor<'edgeRouterPolicy'>[] }, args: ConnectionArgs) => connectionFromArray(r.policies, args),
  edgeRouters: (r: { routers: readonly V2RecordFor<'edgeRouter'>[] }, args: ConnectionArgs) => connectionFromArray(r.routers, args),
};

/** A network by id, its selected lists started alongside: `v2Network(id:)` and `node(nodeId:)` (resolvers/node) alike. */
export function readV2Network(ctx: Ctx, id: string, fieldsBelow: ReadonlySet<string>): Promise<V2RecordFor<'network'>> {
  v2(ctx).prefetch(id, listsBelow(fieldsBelow));
  return v2(ctx).byId('network', id);
}

export const coreV2Resolvers: Resolvers = {
  Query: {
    v2Networks: rootList('network'),
    v2Network: (_r, { id }, ctx, info) => readV2Network(ctx, id, nestedFieldNames(info)),
    edgeRouters: rootList('edgeRouter'),
    edgeRouter: (_r, { id }, ctx) => v2(ctx).byId('edgeRouter', id),
    edgeRouterPolicies: rootList('edgeRouterPolicy'),
    edgeRouterPolicy: (_r, { id }, ctx) => v2(ctx).byId('edgeRouterPolicy', id),
    v2Services: rootList('service'),
    v2Service: (_r, { id }, ctx) => v2(ctx).byId('service', id),
    v2AppWans: rootList('appWan'),
    v2AppWan: (_r, { id }, ctx) => v2(ctx).byId('appWan', id),
    v2Endpoints: rootList('endpoint'),
    v2Endpoint: (_r, { id }, ctx) => v2(ctx).byId('endpoint', id),
  },

  V2Network: {
    edgeRouters: (n, args, ctx) => ofNetwork(ctx, 'edgeRouter', n.id, args),
    edgeRouterPolicies: (n, args, ctx) => ofNetwork(ctx, 'edgeRouterPolicy', n.id, args),
    services: (n, args, ctx) => ofNetwork(ctx, 'service', n.id, args),
    appWans: (n, args, ctx) => ofNetwork(ctx, 'appWan', n.id, args),
    endpoints: (n, args, ctx) => ofNetwork(ctx, 'endpoint', n.id, args),
  },
  EdgeRouter: { ...scopedFields },
  EdgeRouterPolicy: {
    ...scopedFields,
    edgeRouters: (p, args, ctx) => ofNetwork(ctx, 'edgeRouter', p.networkId, args, (r) => matches(p.edgeRouterAttributes, r)),
  },
  V2Service: {
    ...scopedFields,
    modelType: (s) => (s.modelType === 'TunnelerToEndpoint' || s.modelType === 'TunnelerToEdgeRouter' ? s.modelType : null),
    upstreamModelType: (s) => s.modelType,
    model: (s) => serviceModel(s.model),
    reachableBy: (s: V2ServiceRecord, args, ctx) =>
      arrayConnection(args, async () => {
        if (s.networkId === null) return [];
        const [endpoints, f] = await Promise.all([v2(ctx).all('endpoint', s.networkId), facts(ctx, s.networkId)]);
        return reachableBy(s, endpoints, f);
      }),
  },
  V2EdgeRouterHost: {
    edgeRouter: (h, _a, ctx) => maybe(h.edgeRouterId, (id) => v2(ctx).byId('edgeRouter', id)),
  },
  V2AppWan: {
    ...scopedFields,
    services: (a, args, ctx) => ofNetwork(ctx, 'service', a.networkId, args, (s) => matches(a.serviceAttributes, s)),
    endpoints: (a, args, ctx) => ofNetwork(ctx, 'endpoint', a.networkId, args, (e) => matches(a.endpointAttributes, e)),
  },
  V2Endpoint: {
    ...scopedFields,
    enrollmentMethod: (e) => {
      const m = e.enrollmentMethod;
      return typeof m === 'object' && m !== null && 'ott' in m && typeof m.ott === 'boolean' ? { ott: m.ott } : null;
    },
    reachableServices: (e: V2EndpointRecord, args, ctx) =>
      arrayConnection(args, async () => {
        if (e.networkId === null) return [];
        const [services, f] = await Promise.all([v2(ctx).all('service', e.networkId), facts(ctx, e.networkId)]);
        return reachableServices(e, services, f);
      }),
  },
  V2ServiceReach: routeFields,
  V2EndpointReach: routeFields,
  V2Execution: {
    state: (x) => executionState(x.status),
    done: (x) => executionState(x.status) !== 'RUNNING',
  },

  CreateV2NetworkPayload: { ...payloadFields, v2Network: created('network') },
  CreateEdgeRouterPayload: { ...payloadFields, edgeRouter: created('edgeRouter') },
  CreateEdgeRouterPolicyPayload: { ...payloadFields, edgeRouterPolicy: created('edgeRouterPolicy') },
  CreateV2ServicePayload: { ...payloadFields, v2Service: created('service') },
  CreateV2AppWanPayload: { ...payloadFields, v2AppWan: created('appWan') },
  CreateV2EndpointPayload: { ...payloadFields, v2Endpoint: created('endpoint') },

  Mutation: {
    createV2Network: (_r, { input }, ctx) => v2(ctx).create('network', v2NetworkBody(input)),
    createEdgeRouter: (_r, { input }, ctx) => v2(ctx).create('edgeRouter', edgeRouterBody(input)),
    createEdgeRouterPolicy: (_r, { input }, ctx) => v2(ctx).create('edgeRouterPolicy', edgeRouterPolicyBody(input)),
    createV2Service: (_r, { input }, ctx) => v2(ctx).create('service', v2ServiceBody(input)),
    createV2AppWan: (_r, { input }, ctx) => v2(ctx).create('appWan', v2AppWanBody(input)),
    createV2Endpoint: (_r, { input }, ctx) => v2(ctx).create('endpoint', v2EndpointBody(input)),
  },
};

