/**
 * What the sandbox's data looks like through its REST interfaces: the expected answers of the
 * bench queries and the page counts their lower bounds are computed from. Read once per run at
 * per-call latency 0, before any measurement (the call log is reset afterwards).
 */
import type { JsonObject } from '../src/core/parse';
import { idOf, mapLimit, stringField, UpstreamReader } from './upstream-reader';
import { readTopTalkers, readV2, type SearchService, type TopTalkerFacts, type V2Facts } from './search-facts';

export interface AppWanFacts {
  id: string;
  /**
   * Every endpoint the AppWAN reaches: direct members and members of its endpoint groups (the
   * sandbox's `/endpoints/{id}/appWans` counts both, so an answer built from member lists must too).
   */
  endpointIds: string[];
  /** Pages of the direct member list. */
  endpointPages: number;
  /** Endpoint groups in the AppWAN, and the pages of that list. */
  endpointGroupIds: string[];
  endpointGroupPages: number;
  serviceIds: string[];
  servicePages: number;
}

export interface NetworkFacts {
  id: string;
  name: string | null;
  organizationId: string | null;
  endpointIds: string[];
  endpointPages: number;
  appWans: AppWanFacts[];
  appWanPages: number;
  /** The network's own endpoint groups (`/networks/{id}/endpointGroups`), and the pages of that list. */
  endpointGroupIds: string[];
  endpointGroupPages: number;
  /** Pages of each member list of the network's endpoint groups and of those some AppWAN holds. */
  groupMemberPages: Map<string, number>;
}

export interface EndpointFacts {
  networkId: string;
  id: string;
  name: string | null;
  geoRegionId: string | null;
  dataCenterId: string | null;
  appWanIds: string[];
  appWanPages: number;
  serviceIds: string[];
  servicePages: number;
}

export interface AuthFacts {
  domainIds: string[];
  domainPages: number;
  resourceTypes: { id: string; domainId: string | null; parentId: string | null }[];
  resourceTypePages: number;
  actions: { id: string; resourceTypeId: string | null }[];
  actionPages: number;
}

export interface UpstreamFacts {
  groupIds: string[];
  groupPages: number;
  /**
   * Pages of `/networkgroups/{id}/endpoints` per group (a group-wide alternative to the
   * per-network endpoint lists), or null when the sandbox does not serve it.
   */
  groupEndpointPages: number[] | null;
  networks: NetworkFacts[];
  networkPages: number;
  /** An endpoint that belongs to at least one AppWAN (with services when one exists), for endpointDetail. */
  sampleEndpoint: EndpointFacts | null;
  /** Null when the sandbox has no auth/v1 area yet. */
  auth: AuthFacts | null;
  /** Null when no search service was given. */
  topTalkers: TopTalkerFacts | null;
  /** Null when the sandbox has no core/v2 network. */
  v2: V2Facts | null;
}

const REST = '/rest/v1';
const PARALLEL = 16;

export async function readFacts(baseUrl: string, token: string, search?: SearchService): Promise<UpstreamFacts> {
  const reader = new UpstreamReader(baseUrl, token);
  const groups = await reader.list(`${REST}/network-groups/`);
  const networkList = await reader.list(`${REST}/networks`);
  const networks = await mapLimit(networkList.items, 4, (n) => readNetwork(reader, n));
  const groupIds = groups.items.map((g) => idOf(g, 'network group'));
  return {
    groupIds,
    groupPages: groups.pages,
    groupEndpointPages: await readGroupEndpointPages(reader, groupIds),
    networks,
    networkPages: networkList.pages,
    sampleEndpoint: await readSampleEndpoint(reader, networks),
    auth: await readAuth(reader),
    topTalkers: search === undefined ? null : await readTopTalkers(search, Date.now()),
    v2: await readV2(reader),
  };
}

async function readNetwork(reader: UpstreamReader, network: JsonObject): Promise<NetworkFacts> {
  const id = idOf(network, 'network');
  const base = `${REST}/networks/${id}`;
  const [endpoints, appWans, networkGroups] = await Promise.all([
    reader.list(`${base}/endpoints`),
    reader.list(`${base}/appWans`),
    reader.list(`${base}/endpointGroups`),
  ]);
  const networkGroupIds = networkGroups.items.map((g) => idOf(g, 'endpoint group'));
  const appWanFacts = await mapLimit(appWans.items, PARALLEL, async (a): Promise<AppWanFacts> => {
    const appWanId = idOf(a, 'AppWAN');
    const [members, groups, services] = await Promise.all([
      reader.list(`${base}/appWans/${appWanId}/endpoints`),
      reader.list(`${base}/appWans/${appWanId}/endpointGroups`),
      reader.list(`${base}/appWans/${appWanId}/services`),
    ]);
    return {
      id: appWanId,
      endpointIds: members.items.map((e) => idOf(e, 'AppWAN endpoint')),
      endpointPages: members.pages,
      endpointGroupIds: groups.items.map((g) => idOf(g, 'AppWAN endpoint group')),
      endpointGroupPages: groups.pages,
      serviceIds: services.items.map((s) => idOf(s, 'AppWAN service')),
      servicePages: services.pages,
    };
  });
  // Members of the network's groups and of those the AppWANs hold, then each AppWAN's reach = direct ∪ group members.
  const groupIds = [...new Set([...networkGroupIds, ...appWanFacts.flatMap((a) => a.endpointGroupIds)])];
  const groupLists = await mapLimit(groupIds, PARALLEL, (g) => reader.list(`${base}/endpointGroups/${g}/endpoints`));
  const groupMembers = new Map(groupIds.map((g, i) => [g, (groupLists[i]?.items ?? []).map((e) => idOf(e, 'group endpoint'))]));
  for (const a of appWanFacts) {
    a.endpointIds = [...new Set([...a.endpointIds, ...a.endpointGroupIds.flatMap((g) => groupMembers.get(g) ?? [])])];
  }
  return {
    id,
    name: stringField(network, 'name'),
    organizationId: stringField(network, 'organizationId'),
    endpointIds: endpoints.items.map((e) => idOf(e, 'endpoint')),
    endpointPages: endpoints.pages,
    appWans: appWanFacts,
    appWanPages: appWans.pages,
    endpointGroupIds: networkGroupIds,
    endpointGroupPages: networkGroups.pages,
    groupMemberPages: new Map(groupIds.map((g, i) => [g, groupLists[i]?.pages ?? 1])),
  };
}

async function readGroupEndpointPages(reader: UpstreamReader, groupIds: string[]): Promise<number[] | null> {
  try {
    return await mapLimit(groupIds, 4, async (id) => (await reader.list(`${REST}/networkgroups/${id}/endpoints`)).pages);
  } catch {
    return null;
  }
}

/** First endpoint (in list order) that is in an AppWAN with services: endpointDetail then exercises every link. */
async function readSampleEndpoint(reader: UpstreamReader, networks: NetworkFacts[]): Promise<EndpointFacts | null> {
  let pick: { networkId: string; endpointId: string } | null = null;
  for (const n of networks) {
    const inAppWanWithServices = new Set(n.appWans.filter((a) => a.serviceIds.length > 0).flatMap((a) => a.endpointIds));
    const endpointId = n.endpointIds.find((e) => inAppWanWithServices.has(e)) ?? n.endpointIds[0];
    if (endpointId !== undefined) {
      pick = { networkId: n.id, endpointId };
      if (inAppWanWithServices.has(endpointId)) break;
    }
  }
  if (pick === null) return null;
  const base = `${REST}/networks/${pick.networkId}/endpoints/${pick.endpointId}`;
  const [record, appWans, services] = await Promise.all([
    reader.getObject(base),
    reader.list(`${base}/appWans`),
    reader.list(`${base}/services`),
  ]);
  return {
    networkId: pick.networkId,
    id: pick.endpointId,
    name: stringField(record, 'name'),
    geoRegionId: stringField(record, 'geoRegionId'),
    dataCenterId: stringField(record, 'dataCenterId'),
    appWanIds: appWans.items.map((a) => idOf(a, 'endpoint AppWAN')),
    appWanPages: appWans.pages,
    serviceIds: services.items.map((s) => idOf(s, 'endpoint service')),
    servicePages: services.pages,
  };
}

async function readAuth(reader: UpstreamReader): Promise<AuthFacts | null> {
  let domains;
  try {
    domains = await reader.list('/auth/v1/domains');
  } catch {
    return null; // no auth/v1 area in this sandbox
  }
  const [types, actions] = await Promise.all([reader.list('/auth/v1/resource-types'), reader.list('/auth/v1/resource-actions')]);
  return {
    domainIds: domains.items.map((d) => idOf(d, 'domain')),
    domainPages: domains.pages,
    resourceTypes: types.items.map((t) => ({
      id: idOf(t, 'resource type'),
      domainId: stringField(t, 'domainId'),
      parentId: stringField(t, 'parentId'),
    })),
    resourceTypePages: types.pages,
    actions: actions.items.map((a) => ({ id: idOf(a, 'resource action'), resourceTypeId: stringField(a, 'resourceTypeId') })),
    actionPages: actions.pages,
  };
}
