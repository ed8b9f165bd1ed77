/**
 * rest/v1 client: paths (from the resource table), HAL parsing and pagination; returns typed
 * records. Every body goes through a parser: one that does not fit the contract becomes
 * UPSTREAM_BAD_RESPONSE on the field that needed it.
 */
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../http-types';
import { asObject, type JsonObject } from '../../core/parse';
import { readBody } from '../read-body';
import { fetchAll, fetchWindow, streamWindow, type PagedResult, type PageWindow, type UpstreamPage } from '../paging';
import { hrefTarget, parseHalList } from './hal';
import { parseProcessList, type ProcessRecord } from './processes';
import { parseNetworkConfigMetadata, parseNetworkGroup, type NetworkConfigMetadataRecord, type NetworkGroupRecord } from './records';
import {
  collectionPath,
  itemPath,
  resources,
  type RecordFor,
  type RelationDef,
  type ResourceKind,
} from './resources';
import { segment } from '../path-segment';

export interface SortSpec {
  field: string;
  direction: 'ASC' | 'DESC';
}

/** A list request: where (a built path or a followed HAL href), how sorted, which filters. */
export interface ListTarget {
  path: string;
  query?: Record<string, string>;
  sort?: readonly SortSpec[];
}

/** The parent of a member list: its ids and HAL links. */
export interface RelationParent {
  id: string;
  networkId: string;
  links: Readonly<Record<string, string>>;
}

/** Where a relation's members are read: the parent's HAL href when it has one, the built path otherwise. */
export function relationTarget(rel: RelationDef<ResourceKind>, parent: RelationParent): ListTarget {
  const href = parent.links[rel.rel];
  return href !== undefined ? hrefTarget(href) : { path: `${itemPath(rel.parent, parent.id, parent.networkId)}${rel.suffix}` };
}

export class RestV1Client {
  constructor(private readonly http: HttpClient) {}

  async get<K extends ResourceKind>(kind: K, id: string, networkId?: string): Promise<RecordFor<K>> {
    const parse = resources[kind].parse;
    return this.read({ service: 'rest-v1', method: 'GET', path: itemPath(kind, id, networkId) }, (res) => parse(res.body));
  }

  /**
   * A record exactly as the upstream sent it (HAL included): the base of a full-representation
   * PUT, which must carry every attribute, including ones this gateway does not model.
   */
  raw(kind: ResourceKind, id: string, networkId?: string): Promise<JsonObject> {
    const what = resources[kind].what;
    // `no-cache`: revalidated with the upstream even when a cached copy is fresh — a PUT built on a stale record would undo others' changes.
    return this.read({ service: 'rest-v1', method: 'GET', path: itemPath(kind, id, networkId), headers: { 'cache-control': 'no-cache' } }, (res) => asObject(res.body, what));
  }

  /** A window of a resource list (`networkId` for network-scoped kinds). */
  listWindow<K extends ResourceKind>(
    kind: K,
    window: PageWindow,
    opts: { networkId?: string; sort?: readonly SortSpec[]; query?: Record<string, string> } = {},
  ): Promise<PagedResult<RecordFor<K>>> {
    const target: ListTarget = { path: collectionPath(kind, opts.networkId) };
    if (opts.query !== undefined) target.query = opts.query;
    if (opts.sort !== undefined) target.sort = opts.sort;
    const parse = resources[kind].parse;
    return fetchWindow((page, size) => this.listPage(target, resources[kind].embedded, parse, page, size), window);
  }

  /** `listWindow` page by page, each later page fetched only when asked for (`@stream`, paging.ts `streamWindow`). */
  listWindowPages<K extends ResourceKind>(
    kind: K,
    window: PageWindow,
    opts: { networkId?: string; sort?: readonly SortSpec[]; query?: Record<string, string> } = {},
  ): AsyncGenerator<PagedResult<RecordFor<K>>, void, undefined> {
    const target: ListTarget = { path: collectionPath(kind, opts.networkId) };
    if (opts.query !== undefined) target.query = opts.query;
    if (opts.sort !== undefined) target.sort = opts.sort;
    const parse = resources[kind].parse;
    return streamWindow((page, size) => this.listPage(target, resources[kind].embedded, parse, page, size), window);
  }

  /** A window of any HAL list (a followed href or a built path), parsed with `parse`. */
  listWindowAt<R>(target: ListTarget, embedded: string, parse: (value: unknown) => R, window: PageWindow): Promise<PagedResult<R>> {
    return fetchWindow((page, size) => this.listPage(target, embedded, parse, page, size), window);
  }

  /** Every member of a relation: the parent's HAL href when it has one, the built path otherwise. */
  relationAll<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent): Promise<RecordFor<C>[]> {
    const child = resources[rel.child];
    const target = relationTarget(rel, parent);
    const parse = child.parse;
    return fetchAll((page, size) => this.listPage(target, child.embedded, parse, page, size));
  }

  networkGroupByBillingAccount(billingAccountId: string): Promise<NetworkGroupRecord> {
    const path = `/organizations/billing-accounts/${segment(billingAccountId)}`;
    return this.read({ service: 'rest-v1', method: 'GET', path }, (res) => parseNetworkGroup(res.body));
  }

  /** `/networks/{id}/networkConfigMetadata`: the sizing template of one network. */
  networkConfigMetadataOf(networkId: string): Promise<NetworkConfigMetadataRecord> {
    const path = `/networks/${segment(networkId)}/networkConfigMetadata`;
    return this.read({ service: 'rest-v1', method: 'GET', path }, (res) => parseNetworkConfigMetadata(res.body));
  }

  /** A text download (blueprint YAML, registration token): the body as sent, never reformatted. */
  text(path: string): Promise<string> {
    return this.read({ service: 'rest-v1', method: 'GET', path }, (res) => res.text);
  }

  /** A process list (`/workflow-status…`, `/network-processes…`, `/networks/{id}/appWan-processes…`). */
  processes(path: string): Promise<ProcessRecord[]> {
    return this.read({ service: 'rest-v1', method: 'GET', path }, (res) => parseProcessList(res.body));
  }

  private listPage<R>(target: ListTarget, embedded: string, parse: (value: unknown) => R, page: number, size: number): Promise<UpstreamPage<R>> {
    const query: Record<string, string | number | readonly string[]> = { ...target.query, page, size };
    if (target.sort !== undefined && target.sort.length > 0) query['sort'] = target.sort.map((s) => `${s.field},${s.direction}`);
    return this.read({ service: 'rest-v1', method: 'GET', path: target.path, query }, (res) => parseHalList(res.body, embedded, parse));
  }

  private read<T>(request: UpstreamRequest, parse: (res: UpstreamResponse) => T): Promise<T> {
    return readBody(this.http, request, 'rest/v1', parse);
  }
}
