/**
 * rest/v1 changes (seed 001's operation table): one table says which kinds can be created,
 * redefined and destroyed, one says which member lists can be changed, and `createNetworkChanges`
 * turns them into requests. Rules that hold for every change (DESIGN.md "Changes"):
 *
 * - each request is sent once (the HTTP layer never retries POST/PUT/DELETE); when it may have
 *   been applied without an answer, the error says so (`outcomeUnknown`) and how to find out;
 * - a redefine (PUT) sends the full representation: the record as the upstream has it now (every
 *   attribute, including ones this gateway does not model) with the caller's changes applied;
 * - after any change the request's loaders forget what they cached (`afterChange`), so fields
 *   read after it in the same operation see the new state.
 */
import { UpstreamError } from '../../errors/codes';
import type { JsonObject } from '../parse';
import { businessKeyOf, entitiesOf, entityOf, idOf, type ChangeAnswer } from './change-answer';
import type { ChangeRequest, RestV1Client } from './client';
import { withoutHal } from './record-spec';
import { parseVirtualWanSite, type VirtualWanSiteRecord } from './records';
import { collectionPath, itemPath, resources, type RecordFor, type ResourceKind } from './resources';

/** How one kind is changed. */
export interface WriteDef {
  /** Key of the entity in a wrapped answer (`{ businessKey, appWan: {…} }`, PUBLIC-RECORD.md). */
  wrapper: string;
  /** The upstream has POST on the collection. */
  create: boolean;
  /** Collection path of the create when it differs from the list's (`/cas` vs the list's `/cas/`). */
  createCollection?: string;
  /** The upstream has PUT on the item. */
  redefine: boolean;
  /** The upstream has DELETE on the item. */
  destroy: boolean;
  /** Fields the service sets, sent as null in a redefine (seed 001 says so of templates). */
  serverSetOnRedefine?: readonly string[];
}

const all = { create: true, redefine: true, destroy: true } as const;

/** Seed 001's changes per kind (statuses in the comments are the table's success statuses). */
export const writes = {
  network: { wrapper: 'network', ...all }, // POST 202, PUT 200, DELETE 202
  networkGroup: { wrapper: 'organization', create: false, redefine: true, destroy: false }, // PUT /organizations/{id} 202
  endpoint: { wrapper: 'endpoint', ...all }, // 202 each
  service: { wrapper: 'service', ...all }, // 202 each
  appWan: { wrapper: 'appWan', ...all }, // POST 202, PUT 200, DELETE 202
  endpointGroup: { wrapper: 'endpointGroup', ...all }, // POST 201, PUT 200, DELETE 202
  gatewayCluster: { wrapper: 'gatewayCluster', ...all }, // POST 202, PUT 202, DELETE 202
  certificateAuthority: { wrapper: 'ca', createCollection: '/cas', ...all }, // POST 201, PUT 201, DELETE 200
  networkConfigMetadata: {
    wrapper: 'networkConfigMetadata',
    ...all,
    serverSetOnRedefine: ['id', 'organizationId', 'ownerIdentityId', 'createdAt', 'updatedAt'],
  }, // 202 each
  cloudSubscription: { wrapper: 'azureSubscription', ...all }, // POST 200, PUT 202, DELETE 202
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
function readAnswer<R extends { id: string }>(answer: ChangeAnswer, wrapper: string, parse: (value: unknown) => R, known: Known): ChangeResult<R> {
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

/**
 * @param afterChange called after every change that got an answer: the loaders forget their
 *   caches and take the answered records, so later fields see the new state.
 */
export function createNetworkChanges(rest: RestV1Client, afterChange: <K extends ResourceKind>(kind: K, records: readonly RecordFor<K>[]) => void): NetworkChanges {
  const enc = encodeURIComponent;

  /**
   * Sends one change; an unknown outcome gets the hint saying how to find out, and the caches are
   * forgotten then too (the change may have happened).
   */
  async function send(request: ChangeRequest, hint: string): Promise<ChangeAnswer> {
    try {
      return await rest.change(request);
    } catch (error) {
      if (!(error instanceof UpstreamError && error.outcomeUnknown)) throw error;
      afterChange('network', []);
      throw error.withHint(hint);
    }
  }

  function result<K extends ResourceKind>(kind: K, answer: ChangeAnswer, wrapper: string, known: Known): ChangeResult<RecordFor<K>> {
    const read = readAnswer(answer, wrapper, resources[kind].parse, known);
    afterChange(kind, read.records);
    return read;
  }

  const what = (kind: ResourceKind): string => resources[kind].what;

  return {
    async create(kind, body, networkId) {
      const def: WriteDef = writes[kind];
      const list = collectionPath(kind, networkId);
      const path = def.createCollection === undefined ? list : `${list.slice(0, -resources[kind].collection.length)}${def.createCollection}`;
      const name = typeof body['name'] === 'string' ? ` named ${JSON.stringify(body['name'])}` : '';
      const answer = await send({ method: 'POST', path, json: body }, `Before creating it again, look for the ${what(kind)}${name}: it may exist now`);
      return result(kind, answer, def.wrapper, networkId === undefined ? {} : { networkId });
    },

    async redefine(kind, target, apply) {
      const path = itemPath(kind, target.id, target.networkId);
      const current = await rest.raw(kind, target.id, target.networkId);
      const body = apply(withoutHal(current));
      const def: WriteDef = writes[kind];
      for (const field of def.serverSetOnRedefine ?? []) body[field] = null;
      const answer = await send({ method: 'PUT', path, json: body }, `Read the ${what(kind)} again to see whether the change was applied`);
      return result(kind, answer, writes[kind].wrapper, target);
    },

    async destroy(kind, target) {
      const path = itemPath(kind, target.id, target.networkId);
      const answer = await send({ method: 'DELETE', path }, `Read the ${what(kind)}: NOT_FOUND or a DELETING status means it is being deleted`);
      return result(kind, answer, writes[kind].wrapper, { ...target, removed: true });
    },

    async members(parentKind, list, op, parent, ids) {
      const suffixes: Readonly<Record<string, string>> = memberChanges[parentKind];
      const path = `${itemPath(parentKind, parent.id, parent.networkId)}${suffixes[list] ?? `/${list}`}`;
      const answer = await send(
        { method: op === 'add' ? 'POST' : 'DELETE', path, json: { ids } },
        `Read the ${what(parentKind)}'s ${list} to see whether the change was applied`,
      );
      return result(parentKind, answer, writes[parentKind].wrapper, parent);
    },

    async importCsv(kind, networkId, csv) {
      const answer = await send(
        { method: 'POST', path: collectionPath(kind, networkId), raw: { contentType: CSV_TYPE, data: csv } },
        `List the network's ${resources[kind].embedded} by name before uploading again`,
      );
      const records = entitiesOf(answer, resources[kind].embedded, resources[kind].parse);
      afterChange(kind, records);
      return { ...readAnswer(answer, resources[kind].embedded, resources[kind].parse, { networkId }), id: null, record: null, records };
    },

    async createFromBlueprint(networkGroupId, yaml) {
      const path = `/organizations/${enc(networkGroupId)}/networks`;
      const answer = await send({ method: 'POST', path, raw: { contentType: YAML_TYPE, data: yaml } }, "List the group's networks by name before uploading again");
      return result('network', answer, writes.network.wrapper, {});
    },

    async verifyCertificateAuthority(target) {
      const path = `${itemPath('certificateAuthority', target.id, target.networkId)}/verify`;
      const answer = await send({ method: 'POST', path }, 'Read the certificate authority to see whether it is verified');
      return result('certificateAuthority', answer, writes.certificateAuthority.wrapper, target);
    },

    async createVirtualWanSite(subscriptionId, body) {
      const path = `/azureSubscriptions/${enc(subscriptionId)}/virtualWanSites`;
      const name = typeof body['name'] === 'string' ? ` named ${JSON.stringify(body['name'])}` : '';
      const answer = await send({ method: 'POST', path, json: body }, `List the subscription's virtual WAN sites for one${name} before creating it again`);
      afterChange('cloudSubscription', []);
      return readAnswer(answer, 'virtualWanSite', parseVirtualWanSite, {});
    },

    async destroyVirtualWanSite(subscriptionId, siteId) {
      const path = `/azureSubscriptions/${enc(subscriptionId)}/virtualWanSites/${enc(siteId)}`;
      const answer = await send({ method: 'DELETE', path }, "List the subscription's virtual WAN sites to see whether it is gone");
      afterChange('cloudSubscription', []);
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
