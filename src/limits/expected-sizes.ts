/**
 * Expected sizes and upstream-call plans per field, declared beside the schema (in the spirit of
 * the IBM cost spec's `@listSize` and Apollo demand control's `@listSize`/`@cost`). The cost model
 * (cost.ts) reads only this table and the schema.
 *
 * Why expected sizes and not `first` alone: `first` is a maximum the client
 * asks for, not what the platform holds. The whole-network graph asks `first: 1000` on every level
 * and gets 2,400 endpoints; the re-entrant cycle endpoints → AppWANs → endpoints asks the same and
 * multiplies the same records millions of times. A field is priced at the smaller of its `first`
 * and the size declared here, which says how many items one parent usually has: an endpoint sits
 * in a few AppWANs, an AppWAN holds many endpoints, a network group a few networks.
 */

/** How one field's values are fetched, as the loaders' plans would fetch them (upstream/network/plan.ts). */
export type CallPlan =
  /** One call (per page) however many parents: root fields. */
  | { kind: 'once' }
  /**
   * One call (per page) per distinct parent: relation lists and by-id links. Loaders key by id, so
   * parents beyond the distinct records of their type cost nothing more.
   */
  | { kind: 'perParent' }
  /**
   * `Endpoint.appWans`/`Service.appWans`: the membership index, `perNetwork` calls per network in
   * scope, or one call per parent when that is fewer (plan.ts picks the cheaper).
   */
  | { kind: 'membershipIndex'; perNetwork: number }
  /**
   * One unfiltered list per level, inverted in memory, however many parents (auth/v1's plan rule,
   * upstream/auth/plan.ts: `all-list`/`domain-list`); a single parent takes its own filtered list.
   */
  | { kind: 'wholeList' }
  /** Answered from the parent's record or an already-loaded list (lookahead): no call of its own. */
  | { kind: 'free' }
  /** One typed lookup per item, at most (`Query.nodes`: by-id loaders may batch some into one list call). */
  | { kind: 'perItem' };

export interface FieldCost {
  /** Items one parent is expected to have (lists and connections); `first` lowers it, never raises it. */
  size?: number;
  calls?: CallPlan;
  /** The size is the length of this list argument (at most `size`), as `first` is for connections. */
  listArgument?: string;
}

/** Connection page size when the client gives no `first` (schema: default 100). */
export const DEFAULT_FIRST = 100;
/** Expected size of a list field not in the table. */
export const DEFAULT_LIST_SIZE = 20;
/** Upstream page size the loaders ask for (upstream/paging.ts `WHOLE_LIST_PAGE_SIZE`). */
export const UPSTREAM_PAGE_SIZE = 1000;

/** Networks the platform expects per organization: the bound on distinct networks in one operation. */
const NETWORKS = 50;
const ENDPOINTS_PER_NETWORK = 1000;
const APPWANS_PER_NETWORK = 20;
const SERVICES_PER_NETWORK = 1000;
const ENDPOINT_GROUPS_PER_NETWORK = 20;

/**
 * Distinct records of a type per network in scope (dedup by the by-id loaders): a relation field on
 * `AppWan` costs at most one call per AppWAN of the networks the operation reaches.
 */
export const PER_NETWORK: Readonly<Record<string, number>> = {
  Network: 1,
  Endpoint: ENDPOINTS_PER_NETWORK,
  AppWan: APPWANS_PER_NETWORK,
  Service: SERVICES_PER_NETWORK,
  EndpointGroup: ENDPOINT_GROUPS_PER_NETWORK,
};

/** Distinct records of shared reference types in one organization (dedup by the by-id loaders). */
export const GLOBAL_DISTINCT: Readonly<Record<string, number>> = {
  NetworkGroup: 10,
  DataCenter: 200,
  GeoRegion: 50,
  NetworkConfigMetadata: 20,
  // core/v2 links by id: the loaders read each network and edge router once.
  V2Network: 20,
  EdgeRouter: 200,
};

const BY_ID: FieldCost = { calls: { kind: 'perParent' } };

/** `Type.field` → expected size and plan. Fields not listed: see cost.ts (`defaultFieldCost`). */
export const FIELD_COSTS: Readonly<Record<string, FieldCost>> = {
  // Network management (rest/v1)
  'Query.networkGroups': { size: 5, calls: { kind: 'once' } },
  'Query.networks': { size: NETWORKS, calls: { kind: 'once' } },
  'NetworkGroup.networks': { size: 5, calls: { kind: 'perParent' } },
  'Network.endpoints': { size: ENDPOINTS_PER_NETWORK, calls: { kind: 'perParent' } },
  'Network.services': { size: SERVICES_PER_NETWORK, calls: { kind: 'perParent' } },
  'Network.appWans': { size: APPWANS_PER_NETWORK, calls: { kind: 'perParent' } },
  'Network.endpointGroups': { size: ENDPOINT_GROUPS_PER_NETWORK, calls: { kind: 'perParent' } },
  'Network.gatewayClusters': { size: 10, calls: { kind: 'perParent' } },
  // An endpoint (or service) belongs to a few AppWANs; the index reads the network's AppWANs and
  // their endpoint and endpoint-group lists once (1 + 2 × AppWANs + groups held).
  'Endpoint.appWans': { size: 3, calls: { kind: 'membershipIndex', perNetwork: 1 + 2 * APPWANS_PER_NETWORK + ENDPOINT_GROUPS_PER_NETWORK } },
  'Service.appWans': { size: 3, calls: { kind: 'membershipIndex', perNetwork: 1 + APPWANS_PER_NETWORK } },
  'Endpoint.services': { size: 10, calls: { kind: 'perParent' } },
  'Endpoint.endpointGroups': { size: 3, calls: { kind: 'perParent' } },
  // An AppWAN holds many endpoints (the sandbox's large seed: 30–60) and a few services.
  'AppWan.endpoints': { size: 200, calls: { kind: 'perParent' } },
  'AppWan.services': { size: 10, calls: { kind: 'perParent' } },
  'AppWan.endpointGroups': { size: 10, calls: { kind: 'perParent' } },
  'EndpointGroup.endpoints': { size: 100, calls: { kind: 'perParent' } },
  // Links fetched by id; other single objects and plain lists are parts of
  // their parent's record and cost no call of their own.
  'Network.networkGroup': BY_ID,
  'Network.networkConfigMetadata': BY_ID,
  'Endpoint.network': BY_ID,
  'Endpoint.geoRegion': BY_ID,
  'Endpoint.dataCenter': BY_ID,
  'Service.network': BY_ID,
  'Service.endpoint': BY_ID,
  'Service.gatewayCluster': BY_ID,
  'AppWan.network': BY_ID,
  'ResourceType.domain': BY_ID,
  'ResourceType.parent': BY_ID,
  'ResourceAction.resourceType': BY_ID,
  'SuperUser.domain': BY_ID,
  'PublicGrant.resourceAction': BY_ID,
  // Authorization (auth/v1): type and action lists are read whole and inverted (upstream/auth/plan.ts).
  'Query.domains': { size: 20, calls: { kind: 'once' } },
  'Domain.resourceTypes': { size: 50, calls: { kind: 'wholeList' } },
  'ResourceType.children': { size: 10, calls: { kind: 'wholeList' } },
  'ResourceType.actions': { size: 10, calls: { kind: 'wholeList' } },
  // Management (core/v2): a network's own lists, one call (per page) each; the lists computed from
  // role attributes (policy routers, AppWAN members, who can reach what) are answered from those
  // same network lists, read once however many parents ask (resolvers/core-v2).
  'Query.v2Networks': { size: 20, calls: { kind: 'once' } },
  'Query.edgeRouters': { size: 200, calls: { kind: 'once' } },
  'Query.edgeRouterPolicies': { size: 200, calls: { kind: 'once' } },
  'Query.v2Services': { size: 1000, calls: { kind: 'once' } },
  'Query.v2AppWans': { size: 100, calls: { kind: 'once' } },
  'Query.v2Endpoints': { size: 1000, calls: { kind: 'once' } },
  'V2Network.endpoints': { size: 1000, calls: { kind: 'perParent' } },
  'V2Network.services': { size: 200, calls: { kind: 'perParent' } },
  'V2Network.appWans': { size: 50, calls: { kind: 'perParent' } },
  'V2Network.edgeRouters': { size: 50, calls: { kind: 'perParent' } },
  'V2Network.edgeRouterPolicies': { size: 50, calls: { kind: 'perParent' } },
  'EdgeRouterPolicy.edgeRouters': { size: 10, calls: { kind: 'wholeList' } },
  'V2AppWan.services': { size: 20, calls: { kind: 'wholeList' } },
  'V2AppWan.endpoints': { size: 200, calls: { kind: 'wholeList' } },
  'V2Endpoint.reachableServices': { size: 50, calls: { kind: 'wholeList' } },
  'V2Service.reachableBy': { size: 500, calls: { kind: 'wholeList' } },
  // An explanation's AppWANs, policies and routers are part of the explanation already computed.
  'V2ServiceReach.appWans': { size: 3, calls: { kind: 'free' } },
  'V2ServiceReach.edgeRouterPolicies': { size: 3, calls: { kind: 'free' } },
  'V2ServiceReach.edgeRouters': { size: 5, calls: { kind: 'free' } },
  'V2EndpointReach.appWans': { size: 3, calls: { kind: 'free' } },
  'V2EndpointReach.edgeRouterPolicies': { size: 3, calls: { kind: 'free' } },
  'V2EndpointReach.edgeRouters': { size: 5, calls: { kind: 'free' } },
  'EdgeRouter.network': BY_ID,
  'EdgeRouterPolicy.network': BY_ID,
  'V2Service.network': BY_ID,
  'V2AppWan.network': BY_ID,
  'V2Endpoint.network': BY_ID,
  'V2EdgeRouterHost.edgeRouter': BY_ID,
  // Global ids (resolvers/node): one typed lookup per id, at most 100 ids (MAX_NODE_IDS there; a unit test keeps the two equal).
  'Query.nodes': { size: 100, listArgument: 'nodeIds', calls: { kind: 'perItem' } },
  // Event search: one search per field (plus the caller check, once per request).
  'Query.alerts': { size: 100, calls: { kind: 'once' } },
  'Query.networkEvents': { size: 100, calls: { kind: 'once' } },
};

/** Arguments whose values set a price (price.ts remembers estimates by the variables in them). */
export const SIZE_ARGUMENTS: ReadonlySet<string> = new Set(['first', ...Object.values(FIELD_COSTS).flatMap((c) => (c.listArgument === undefined ? [] : [c.listArgument]))]);
