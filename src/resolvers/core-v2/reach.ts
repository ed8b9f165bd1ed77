/**
 * Who can reach what in a v2 network, from role attributes alone, by the
 * management API v2's authorization rule. Pure: no I/O, the caller hands in the network's records.
 *
 * Matching a selector list against a resource (`matches`):
 * - `#all` matches every resource of the kind;
 * - `@name` matches the resource with that name;
 * - `#tag` matches a resource whose `attributes` hold `#tag` (an attribute stored without its `#`
 *   counts too: the API shows tags with it, an upstream may store them bare);
 * - anything else, and an empty list, matches nothing.
 *
 * An endpoint E may dial a service S when
 * 1. some AppWAN's `endpointAttributes` match E and its `serviceAttributes` match S, and
 * 2. some edge router policy's `endpointAttributes` match E and its `edgeRouterAttributes` match
 *    a router R that S allows. S allows the routers its `model.edgeRouterAttributes` match, and
 *    (`TunnelerToEdgeRouter`) the routers that host it (`model.edgeRouterHosts`): traffic to a
 *    router-hosted service ends at its hosting router. This last part is our reading where the
 *    API's documentation is silent; it is written down in the README.
 * The explanation lists every AppWAN of (1), every policy of (2) that yields a router, and the
 * routers themselves.
 */
import type { EdgeRouterPolicyRecord, EdgeRouterRecord, V2AppWanRecord, V2EndpointRecord, V2ServiceRecord } from '../../upstream/core-v2/records';
import { serviceModel } from './model';

/** What a selector can match: a name and the resource's own tags (routers, endpoints, services). */
export interface Selectable {
  name: string | null;
  attributes: readonly string[];
}

export const ALL = '#all';

export function matches(selectors: readonly string[], target: Selectable): boolean {
  return selectors.some((selector) => {
    if (selector === ALL) return true;
    if (selector.startsWith('@')) return selector.length > 1 && target.name === selector.slice(1);
    if (selector.startsWith('#') && selector.length > 1) return target.attributes.some((a) => a === selector || `#${a}` === selector);
    return false;
  });
}

/** The records of one v2 network the rules look at. */
export interface NetworkFacts {
  appWans: readonly V2AppWanRecord[];
  policies: readonly EdgeRouterPolicyRecord[];
  routers: readonly EdgeRouterRecord[];
}

/** Why a pair may talk: the granting AppWANs, the policies giving a router, and those routers. */
export interface Route {
  appWans: V2AppWanRecord[];
  policies: EdgeRouterPolicyRecord[];
  routers: EdgeRouterRecord[];
}
export interface ServiceReach extends Route {
  service: V2ServiceRecord;
}
export interface EndpointReach extends Route {
  endpoint: V2EndpointRecord;
}

/**
 * `fn`, remembered per pair of records. Records and the lists a request loads are never changed,
 * and every endpoint is checked against every service: what depends on one side is worked out once.
 */
function memoPair<A extends object, B extends object, V>(fn: (a: A, b: B) => V): (a: A, b: B) => V {
  const byA = new WeakMap<A, WeakMap<B, { value: V }>>();
  return (a, b) => {
    let byB = byA.get(a);
    if (byB === undefined) byA.set(a, (byB = new WeakMap()));
    let known = byB.get(b);
    if (known === undefined) byB.set(b, (known = { value: fn(a, b) }));
    return known.value;
  };
}

/** The routers a service allows: matched by `model.edgeRouterAttributes`, or hosting it. */
export function routersAllowedFor(service: V2ServiceRecord, routers: readonly EdgeRouterRecord[]): EdgeRouterRecord[] {
  const model = serviceModel(service.model);
  const hosts = new Set(model.edgeRouterHosts.map((h) => h.edgeRouterId));
  return routers.filter((r) => matches(model.edgeRouterAttributes, r) || hosts.has(r.id));
}

const allowedRouters = memoPair((routers: readonly EdgeRouterRecord[], service: V2ServiceRecord) => routersAllowedFor(service, routers));
const appWansOfEndpoint = memoPair((appWans: readonly V2AppWanRecord[], endpoint: V2EndpointRecord) => appWans.filter((a) => matches(a.endpointAttributes, endpoint)));
const policiesOfEndpoint = memoPair((policies: readonly EdgeRouterPolicyRecord[], endpoint: V2EndpointRecord) =>
  policies.filter((p) => matches(p.endpointAttributes, endpoint)),
);
const usableRouters = memoPair((allowed: readonly EdgeRouterRecord[], policy: EdgeRouterPolicyRecord) => allowed.filter((r) => matches(policy.edgeRouterAttributes, r)));

/** The route from an endpoint to a service, or null when the rules give none. */
export function routeBetween(endpoint: V2EndpointRecord, service: V2ServiceRecord, facts: NetworkFacts): Route | null {
  const appWans = appWansOfEndpoint(facts.appWans, endpoint).filter((a) => matches(a.serviceAttributes, service));
  if (appWans.length === 0) return null;
  const allowed = allowedRouters(facts.routers, service);
  if (allowed.length === 0) return null;
  const policies: EdgeRouterPolicyRecord[] = [];
  const routers = new Map<string, EdgeRouterRecord>();
  for (const policy of policiesOfEndpoint(facts.policies, endpoint)) {
    const usable = usableRouters(allowed, policy);
    if (usable.length === 0) continue;
    policies.push(policy);
    for (const r of usable) routers.set(r.id, r);
  }
  if (routers.size === 0) return null;
  return { appWans, policies, routers: [...routers.values()] };
}

/** Every service of the network the endpoint may dial, in the services' order. */
export function reachableServices(endpoint: V2EndpointRecord, services: readonly V2ServiceRecord[], facts: NetworkFacts): ServiceReach[] {
  return services.flatMap((service) => {
    const route = routeBetween(endpoint, service, facts);
    return route === null ? [] : [{ service, ...route }];
  });
}

/** Every endpoint of the network that may dial the service, in the endpoints' order. */
export function reachableBy(service: V2ServiceRecord, endpoints: readonly V2EndpointRecord[], facts: NetworkFacts): EndpointReach[] {
  return endpoints.flatMap((endpoint) => {
    const route = routeBetween(endpoint, service, facts);
    return route === null ? [] : [{ endpoint, ...route }];
  });
}
