/**
 * rest/v1 changes: one table says which kinds can be created, redefined and destroyed (the
 * platform has POST on a kind's collection, PUT and DELETE on its items), one says which member
 * lists can be changed, and `createNetworkChanges` turns them into requests for the one sender
 * (../writes.ts: sent once, how to check an unknown outcome, the loaders forget what it touched).
 * A redefine (PUT) sends the full representation: the record as the upstream has it now (every
 * attribute, including ones this gateway does not model) with the caller's changes applied.
 */
import type { JsonObject } from '../../core/parse';
import type { WriteAnswer, WriteRequest, Writer } from '../writes';
import { businessKeyOf, entitiesOf, entityOf, idOf } from './change-answer';
import type { RestV1Client } from './client';
import { withoutHal } from './record-spec';
import { parseVirtualWanSite, type VirtualWanSiteRecord } from './records';
import { collectionPath, itemPath, resources, type RecordFor, type ResourceKind } from './resources';
import { segment } from '../path-segment';

/** How one kind is changed. */
export interface WriteDef {
  /** Key of the entity in a wrapped answer (`{ businessKey, appWan: {…} }`, as bulk changes answer). */
  wrapper: string;
  /** The upstream has POST on the collection. */
  create: boolean;
  /** Collection path of the create when it differs from the list's (`/cas` vs the list's `/cas/`). */
  createCollection?: string;
  /** The upstream has PUT on the item. */
  redefine: boolean;
  /** The upstream has DELETE on the item. */
  destroy: boolean;
  /** Fields the service sets, sent as null in a redefine (the platform says so of templates). */
  serverSetOnRedefine?: readonly string[];
  /**
   * What a change of this kind makes stale in the request's caches: `graph`, everything read from
   * rest/v1 (a network, endpoint, service, AppWAN, group or cluster shows in other kinds' lists,
   * member lists, membership indexes and counts); `own`, the kind's own records and lists and
   * what is read from them alone.
   */
  forgets: 'graph' | 'own';
}

const all = { create: true, redefine: true, destroy: true } as const;

/** The platform's changes per kind (statuses in the comments are its success statuses). */
export const writes = {
  network: { wrapper: 'network', ...all, forgets: 'graph' }, // POST 202, PUT 200, DELETE 202
  networkGroup: { wrapper: 'organization', create: false, redefine: true, destroy: false, forgets: 'graph' }, // PUT /organizations/{id} 202
  endpoint: { wrapper: 'endpoint', ...all, forgets: 'graph' }, // 202 each
  service: { wrapper: 'service', ...all, forgets: 'graph' }, // 202 each
  appWan: { wrapper: 'appWan', ...all, forgets: 'graph' }, // POST 202, PUT 200, DELETE 202
  endpointGroup: { wrapper: 'endpointGroup', ...all, forgets: 'graph' }, // POST 201, PUT 200, DELETE 202
  gatewayCluster: { wrapper: 'gatewayCluster', ...all, forgets: 'graph' }, // POST 202, PUT 202, DELETE 202
  certificateAuthority: { wrapper: 'ca', createCollection: '/cas', ...all, forgets: 'own' }, // POST 201, PUT 201, DELETE 200
  networkConfigMetadata: {
    wrapper: 'networkConfigMetadata',
    ...all,
    serverSetOnRedefine: ['id', 'organizationId', 'ownerIdentityId', 'createdAt', 'updatedAt'],
    forgets: 'own',
  }, // 202 each
  // Virtual WAN sites live under a subscription: their changes forget the subscription's reads.
  cloudSubscription: { wrapper: 'azureSubscription', ...all, forgets: 'own' }, // POST 200, PUT 202, DELETE 202
} as const satisfies Partial<Record<ResourceKind, WriteDef>>;
export type WritableKind = keyof typeof writes;

/** Member lists that can be changed, by parent kind: POST adds, DELETE removes, body `{ ids: [...] }`. */
export const memberChanges = {
  appWan: { endpoints: '/endpoints', services: '/services', endpointGroups: '/endpointGroups' },
  endpointGroup: { endpoints: '/endpoints' },
} as const satisfies Partial<Record<WritableKind, Record<string, string>>>;
export type MemberParentKind = keyof typeof memberChanges;

/** What a change answered, read into the gateway's terms (the payload types' mapper). */
export interface ChangeResult<R> {
  httpStatus: number;
  /** 202: the change goes on asynchronously. */
  accepted: boolean;
  businessKey: string | null;
  /** Id of the resource the change is about (null for bulk changes). */
  id: string | null;
  /** Network of a network-scoped resource. */
  networkId: string | null;
  /** The resource as the answer held it; null when it held none we could read. */
  record: R | null;
  /** Every resource of a bulk answer (imports). */
  records: R[];
  /** The change removed the resource: it is not read back by id. */
  removed: boolean;
}

/** Where a resource sits: its id and, for network-scoped kinds, its network. */
export interface ChangeTarget {
  id: string;
  networkId?: string;
}

export interface NetworkChanges {
  create<K extends WritableKind>(kind: K, body: JsonObject, networkId?: string): Promise<ChangeResult<RecordFor<K>>>;
  /**
   * Reads the record (fresh, never from the cache), lets `apply` turn it into the body to send
   * (it may throw, e.g. CONFLICT, and then nothing is sent), and PUTs that.
   */
  redefine<K extends WritableKind>(kind: K, target: ChangeTarget, apply: (current: JsonObject) => JsonObject): Promise<ChangeResult<RecordFor<K>>>;
  destroy<K extends WritableKind>(kind: K, target: ChangeTarget): Promise<ChangeResult<RecordFor<K>>>;
  members<P extends MemberParentKind>(
    parentKind: P,
    list: keyof (typeof memberChanges)[P] & string,
    op: 'add' | 'remove',
    parent: ChangeTarget,
    ids: readonly string[],
  ): Promise<ChangeResult<RecordFor<P>>>;
  /** CSV upload to a network's endpoints or services. */
  importCsv<K extends 'endpoint' | 'service'>(kind: K, networkId: string, csv: string): Promise<ChangeResult<RecordFor<K>>>;
  /** A network from a YAML blueprint, in a network group. */
  createFromBlueprint(networkGroupId: string, yaml: string): Promise<ChangeResult<RecordFor<'network'>>>;
  verifyCertificateAuthority(target: ChangeTarget): Promise<ChangeResult<RecordFor<'certificateAuthority'>>>;
  createVirtualWanSite(subscriptionId: string, body: JsonObject): Promise<ChangeResult<VirtualWanSiteRecord>>;
  destroyVirtualWanSite(subscriptionId: string, siteId: string): Promise<ChangeResult<VirtualWanSiteRecord>>;
}

/** What the caller already knows about the changed resource (ids from the arguments). */
interface Known {
  id?: string;
  networkId?: string;
  removed?: boolean;
}

/** An answer in the gateway's terms; `wrapper` and `parse` say where and what the entity is. */
function readAnswer<R extends { id: string }>(answer: WriteAnswer, wrapper: string, parse: (value: unknown) => R, known: Known): ChangeResult<R> {
  const record = entityOf(answer, wrapper, parse);
  return {
    httpStatus: answer.status,
    accepted: answer.status === 202,
    businessKey: businessKeyOf(answer),
    id: known.id ?? record?.id ?? idOf(answer),
    networkId: known.networkId ?? null,
    record,
    records: record === null ? [] : [record],
    removed: known.removed ?? false,
  };
}

/** Media types of uploads ("not shown" in the contract): the registered CSV type and the common YAML one. */
const CSV_TYPE = 'text/csv';
const YAML_TYPE = 'application/x-yaml';

/** ` named "…"` when the body has a name, for the hints. */
const named = (body: JsonObject): string => (typeof body['name'] === 'string' ? ` named ${JSON.stringify(body['name'])}` : '');

/** How to find out whether each change was applied, said after an unknown outcome. */
const hints = {
  create: (what: string, name: string) => `Before creating it again, look for the ${what}${name}: it may exist now`,
  redefine: (what: string) => `Read the ${what} again to see whether the change was applied`,
  destroy: (what: string) => `Read the ${what}: NOT_FOUND or a DELETING status means it is being deleted`,
  members: (what: string, list: string) => `Read the ${what}'s ${list} to see whether the change was applied`,
  importCsv: (plural: string) => `List the network's ${plural} by name before uploading again`,
  blueprint: () => "List the group's networks by name before uploading again",
  verify: () => 'Read the certificate authority to see whether it is verified',
  createSite: (name: string) => `List the subscription's virtual WAN sites for one${name} before creating it again`,
  destroySite: () => "List the subscription's virtual WAN sites to see whether it is gone",
} as const;

/**
 * @param writer the one sender; its loaders forget what each kind's change touches (`forgets`).
 * @param prime hands the records a change answered to the loaders, so the payload reads them without a call.
 */
export function createNetworkChanges(
  rest: RestV1Client,
  writer: Writer<WritableKind>,
  prime: <K extends ResourceKind>(kind: K, records: readonly RecordFor<K>[]) => void,
): NetworkChanges {
  const enc = segment;
  const send = (kind: WritableKind, request: WriteRequest, hint: string): Promise<WriteAnswer> => writer.send(request, { hint, touches: kind });

  function result<K extends WritableKind>(kind: K, answer: WriteAnswer, known: Known): ChangeResult<RecordFor<K>> {
    const read = readAnswer(answer, writes[kind].wrapper, resources[kind].parse, known);
    prime(kind, read.records);
    return read;
  }

  const what = (kind: ResourceKind): string => resources[kind].what;

  return {
    async create(kind, body, networkId) {
      const def: WriteDef = writes[kind];
      const list = collectionPath(kind, networkId);
      const path = def.createCollection === undefined ? list : `${list.slice(0, -resources[kind].collection.length)}${def.createCollection}`;
      const answer = await send(kind, { method: 'POST', path, json: body }, hints.create(what(kind), named(body)));
      return result(kind, answer, networkId === undefined ? {} : { networkId });
    },

    async redefine(kind, target, apply) {
      const path = itemPath(kind, target.id, target.networkId);
      const current = await rest.raw(kind, target.id, target.networkId);
      const body = apply(withoutHal(current));
      const def: WriteDef = writes[kind];
      for (const field of def.serverSetOnRedefine ?? []) body[field] = null;
      const answer = await send(kind, { method: 'PUT', path, json: body }, hints.redefine(what(kind)));
      return result(kind, answer, target);
    },

    async destroy(kind, target) {
      const path = itemPath(kind, target.id, target.networkId);
      const answer = await send(kind, { method: 'DELETE', path }, hints.destroy(what(kind)));
      return result(kind, answer, { ...target, removed: true });
    },

    async members(parentKind, list, op, parent, ids) {
      const suffixes: Readonly<Record<string, string>> = memberChanges[parentKind];
      const path = `${itemPath(parentKind, parent.id, parent.networkId)}${suffixes[list] ?? `/${list}`}`;
      const answer = await send(parentKind, { method: op === 'add' ? 'POST' : 'DELETE', path, json: { ids } }, hints.members(what(parentKind), list));
      return result(parentKind, answer, parent);
    },

    async importCsv(kind, networkId, csv) {
      const { embedded, parse } = resources[kind];
      const answer = await send(kind, { method: 'POST', path: collectionPath(kind, networkId), raw: { contentType: CSV_TYPE, data: csv } }, hints.importCsv(embedded));
      const records = entitiesOf(answer, embedded, parse);
      prime(kind, records);
      return { ...readAnswer(answer, embedded, parse, { networkId }), id: null, record: null, records };
    },

    async createFromBlueprint(networkGroupId, yaml) {
      const path = `/organizations/${enc(networkGroupId)}/networks`;
      const answer = await send('network', { method: 'POST', path, raw: { contentType: YAML_TYPE, data: yaml } }, hints.blueprint());
      return result('network', answer, {});
    },

    async verifyCertificateAuthority(target) {
      const path = `${itemPath('certificateAuthority', target.id, target.networkId)}/verify`;
      const answer = await send('certificateAuthority', { method: 'POST', path }, hints.verify());
      return result('certificateAuthority', answer, target);
    },

    async createVirtualWanSite(subscriptionId, body) {
      const path = `/azureSubscriptions/${enc(subscriptionId)}/virtualWanSites`;
      const answer = await send('cloudSubscription', { method: 'POST', path, json: body }, hints.createSite(named(body)));
      return readAnswer(answer, 'virtualWanSite', parseVirtualWanSite, {});
    },

    async destroyVirtualWanSite(subscriptionId, siteId) {
      const path = `/azureSubscriptions/${enc(subscriptionId)}/virtualWanSites/${enc(siteId)}`;
      const answer = await send('cloudSubscription', { method: 'DELETE', path }, hints.destroySite());
      return readAnswer(answer, 'virtualWanSite', parseVirtualWanSite, { id: siteId, removed: true });
    },
  };
}

/** The payload types' mappers (codegen.yml): one per changed kind. */
export type NetworkChange = ChangeResult<RecordFor<'network'>>;
export type NetworkGroupChange = ChangeResult<RecordFor<'networkGroup'>>;
export type EndpointChange = ChangeResult<RecordFor<'endpoint'>>;
export type ServiceChange = ChangeResult<RecordFor<'service'>>;
export type AppWanChange = ChangeResult<RecordFor<'appWan'>>;
export type EndpointGroupChange = ChangeResult<RecordFor<'endpointGroup'>>;
export type GatewayClusterChange = ChangeResult<RecordFor<'gatewayCluster'>>;
export type CertificateAuthorityChange = ChangeResult<RecordFor<'certificateAuthority'>>;
export type NetworkConfigMetadataChange = ChangeResult<RecordFor<'networkConfigMetadata'>>;
export type CloudSubscriptionChange = ChangeResult<RecordFor<'cloudSubscription'>>;
export type VirtualWanSiteChange = ChangeResult<VirtualWanSiteRecord>;
/** Any change (the `ChangePayload` interface). */
export type AnyChange = ChangeResult<{ id: string }>;
