/**
 * The search area: an Elasticsearch-compatible `_search` over firewall usage (`zfw.events*`),
 * alerts (`svc.alert*`) and per-organization network events (`ncentityevent-<orgId>`), behind
 * basic credentials (checked by the core's router). `searchService` is the same engine for the
 * rest/v1 proxy, which calls `search('ncentityevent-' + orgId, body)`.
 */
import type { AreaContext, SandboxArea, SandboxRequest, SandboxResponse, SandboxRoute, SeedSize } from '../core/types';
import { DocStore } from './doc-store';
import { SearchEngine, type SearchResult } from './engine';
import { EsError, parsingError } from './es-error';
import { NETWORK_EVENT_INDEX_PREFIX, NetworkEvents, type NetworkFacts } from './network-events';
import { seedDocuments } from './seed';

export { NETWORK_EVENT_INDEX_PREFIX, type NetworkFacts } from './network-events';
export { ALERT_INDEX_PREFIX, USAGE_INDEX_PREFIX, SEARCH_SIZES } from './seed';
export type { SearchResult } from './engine';

export const SEARCH_PREFIX = '/search';

export interface SearchService {
  /** One `_search` on an index expression (names, `*` patterns, comma-separated). */
  search(index: string, body: unknown): SearchResult;
}

export interface SearchArea extends SandboxArea {
  searchService: SearchService;
  /** Tells the area which organizations and networks rest/v1 seeded (for network events). */
  bindNetworkFacts(facts: () => NetworkFacts | null): void;
  /** The current documents, for tests and benchmarks. */
  documents(): DocStore;
}

/** The JSON body of a search request: parsed by the core when typed as JSON, else by us. */
function bodyOf(req: SandboxRequest): unknown {
  if (req.json !== undefined) return req.json;
  if (req.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(req.rawBody) as unknown;
  } catch {
    throw parsingError('request body is not valid JSON');
  }
}

export function createSearchArea(ctx: AreaContext): SearchArea {
  let store = new DocStore();
  let size: SeedSize = 'demo';
  let seededAt = ctx.clock.now();
  const events = new NetworkEvents(
    () => size,
    () => seededAt,
  );
  const engine = new SearchEngine(
    () => store,
    () => ctx.clock.now(),
    { lenientPrefixes: [NETWORK_EVENT_INDEX_PREFIX], beforeResolve: (expression) => events.ensure(store, expression) },
  );
  const searchService: SearchService = { search: (index, body) => engine.search(index, body) };

  const handle = (req: SandboxRequest): SandboxResponse => {
    // `?pretty` and other URL options are accepted and ignored: bodies are always compact JSON.
    let body: unknown;
    try {
      body = bodyOf(req);
    } catch (err) {
      if (err instanceof EsError) return { status: err.status, json: err.body() };
      throw err;
    }
    const result = searchService.search(req.params['index'] ?? '', body);
    return { status: result.status, json: result.json };
  };
  const routes: SandboxRoute[] = (['GET', 'POST'] as const).map((method) => ({ method, template: `${SEARCH_PREFIX}/{index}/_search`, auth: 'basic', handle }));

  return {
    name: 'search',
    routes,
    seed(next) {
      size = next;
      seededAt = ctx.clock.now();
      store = seedDocuments(ctx, next, seededAt);
      events.reset();
    },
    searchService,
    bindNetworkFacts: (facts) => events.bind(facts),
    documents: () => store,
  };
}
