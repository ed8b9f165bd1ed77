/**
 * What `topTalkers` and `v2Reach` must return, computed here from the sandbox's raw data (plain
 * hits of the search service, core/v2 lists) with code that shares nothing with the gateway's, so
 * the two check each other.
 */
import { request } from 'undici';
import { isObject, type JsonObject } from '../src/core/parse';
import { idOf, type UpstreamReader } from './upstream-reader';

/** The fixed window the topTalkers bench query asks for (6 hours: well under the 10,000-hit window on `large`). */
export const TOP_TALKER_WINDOW_MS = 6 * 3600_000;
export const TOP_TALKER_LIMIT = 10;

export interface TopTalkerFacts {
  from: string;
  to: string;
  /** Expected sources in order: id, transmitted sum, top addresses (address, received sum). */
  sources: Array<{ sourceId: string; transmitted: number; addresses: Array<{ address: string; received: number }> }>;
}

export interface V2Facts {
  networkId: string;
  /** Pages of the network's endpoint, service, AppWAN, policy and router lists. */
  listPages: number;
  /** endpoint id → ids of the services it may dial. */
  reach: Map<string, string[]>;
}

export interface SearchService {
  url: string;
  username: string;
  password: string;
}

function num(source: JsonObject, path: string): number {
  let v: unknown = source[path];
  if (v === undefined) {
    v = source;
    for (const key of path.split('.')) v = isObject(v) ? v[key] : undefined;
  }
  return typeof v === 'number' ? v : 0;
}

function str(source: JsonObject, path: string): string {
  let v: unknown = source[path];
  if (v === undefined) {
    v = source;
    for (const key of path.split('.')) v = isObject(v) ? v[key] : undefined;
  }
  return String(v);
}

/** Top entries by value (descending), ties by key (ascending), as the aggregation orders them. */
function top(sums: Map<string, number>, n: number): Array<[string, number]> {
  return [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, n);
}

export async function readTopTalkers(search: SearchService, now: number): Promise<TopTalkerFacts> {
  const from = new Date(now - TOP_TALKER_WINDOW_MS).toISOString();
  const to = new Date(now).toISOString();
  const body = JSON.stringify({ size: 10_000, query: { range: { '@timestamp': { gte: from, lte: to } } } });
  const auth = `Basic ${Buffer.from(`${search.username}:${search.password}`).toString('base64')}`;
  const res = await request(`${search.url}/zfw.events*/_search`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  const answer: unknown = await res.body.json();
  const hits = isObject(answer) && isObject(answer['hits']) && Array.isArray(answer['hits']['hits']) ? answer['hits']['hits'] : [];
  const tx = new Map<string, number>();
  const rx = new Map<string, Map<string, number>>();
  for (const hit of hits) {
    const source = isObject(hit) && isObject(hit['_source']) ? hit['_source'] : {};
    const id = str(source, 'zfw.source_id');
    tx.set(id, (tx.get(id) ?? 0) + num(source, 'zfw.usage.circuit.tx'));
    const byAddress = rx.get(id) ?? new Map<string, number>();
    const address = str(source, 'zfw.saddr');
    byAddress.set(address, (byAddress.get(address) ?? 0) + num(source, 'zfw.usage.circuit.rx'));
    rx.set(id, byAddress);
  }
  return {
    from,
    to,
    sources: top(tx, TOP_TALKER_LIMIT).map(([sourceId, transmitted]) => ({
      sourceId,
      transmitted,
      addresses: top(rx.get(sourceId) ?? new Map(), TOP_TALKER_LIMIT).map(([address, received]) => ({ address, received })),
    })),
  };
}

/** The management API v2's role-attribute matching, written again here on purpose: `#all`, `@name`, `#tag`. */
function selects(selectors: unknown, item: JsonObject): boolean {
  const list = Array.isArray(selectors) ? selectors.filter((s): s is string => typeof s === 'string') : [];
  const tags = Array.isArray(item['attributes']) ? item['attributes'] : [];
  return list.some((s) => s === '#all' || (s.startsWith('@') && s.slice(1) === item['name']) || (s.startsWith('#') && tags.includes(s)));
}

/** The first core/v2 network: its lists' pages and who can reach what (AppWAN + policy + allowed router). */
export async function readV2(reader: UpstreamReader): Promise<V2Facts | null> {
  const networks = await reader.list('/core/v2/networks');
  const network = networks.items[0];
  if (network === undefined) return null;
  const networkId = idOf(network, 'v2 network');
  const q = { networkId };
  const [endpoints, services, appWans, policies, routers] = await Promise.all(
    ['endpoints', 'services', 'app-wans', 'edge-router-policies', 'edge-routers'].map((p) => reader.list(`/core/v2/${p}`, q)),
  );
  if (!endpoints || !services || !appWans || !policies || !routers) return null;
  const reach = new Map<string, string[]>();
  for (const e of endpoints.items) {
    const ok = services.items.filter((s) => {
      if (!appWans.items.some((a) => selects(a['endpointAttributes'], e) && selects(a['serviceAttributes'], s))) return false;
      const model = isObject(s['model']) ? s['model'] : {};
      const hosts = Array.isArray(model['edgeRouterHosts']) ? model['edgeRouterHosts'].filter(isObject).map((h) => h['edgeRouterId']) : [];
      const allowed = routers.items.filter((r) => selects(model['edgeRouterAttributes'], r) || hosts.includes(r['id']));
      return policies.items.some((p) => selects(p['endpointAttributes'], e) && allowed.some((r) => selects(p['edgeRouterAttributes'], r)));
    });
    reach.set(idOf(e, 'v2 endpoint'), ok.map((s) => idOf(s, 'v2 service')));
  }
  return { networkId, listPages: [endpoints, services, appWans, policies, routers].reduce((n, l) => n + l.pages, 0), reach };
}
