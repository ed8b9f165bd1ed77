/**
 * Global ids (`Node.nodeId`): the one module that encodes and decodes them, and the one table of
 * the types that have one. A row says the type's code in ids, the keys its REST path needs (read
 * off a record) and the loader that reads it by those keys: adding a type is one row here and
 * `implements Node` in its SDL.
 *
 * Wire form: base64url (no padding) of `1:<code>:<key>[:<key>]`, each key percent-encoded; an
 * optional key that is null (a public grant's identity) is left out, never written empty. The
 * leading `1` is the form's version and the codes never change once released, so an id stays
 * valid across requests, releases and replicas (it holds no secret and no per-process state).
 */
import { BadInputError } from '../../errors/codes';
import { ShapeError } from '../../errors/shape-error';
import type { ResolversParentTypes } from '../../generated/graphql';
import type { GatewayContext } from '../../context';
import type { NetworkScopedKind, RecordFor, ResourceKind } from '../../upstream/network/resources';
import type { V2Kind, V2RecordFor } from '../../upstream/core-v2/resources';
import type { AuthLoaders } from '../../upstream/auth/loaders';
import type { GrantRecord, GrantTypeName } from '../../upstream/auth/types';
import { fieldNames, type Selection } from '../lookahead';
import { readById } from '../network/queries';
import { readV2Network } from '../core-v2';

/** What a read by global id knows besides the keys: the request, and what is selected below the object. */
export interface NodeRead {
  ctx: GatewayContext;
  /** The selection below the object, as its type sees it (lookahead.ts `selectionOf(info, as)`). */
  selection(): Selection;
}

interface NodeRow<R> {
  /** The type's code in ids: short, and never changed or reused once released. */
  code: string;
  /** Names of the keys, in order (what the REST path needs). */
  keys: readonly string[];
  /** Names of keys after those that may be null, and are then absent from the id (none by default). */
  optionalKeys?: readonly string[];
  /** The record's keys: every one of `keys`, then the optional ones up to the last that is not null. */
  keysOf: (record: R) => readonly string[];
  load: (read: NodeRead, keys: readonly string[]) => Promise<R>;
}

/** A row whose typed lookup also starts the selected lists alongside (resolvers/network/queries.ts `readById`, core-v2's `readV2Network`). */
const withLookAhead = <R>(row: NodeRow<R>, load: NodeRow<R>['load']): NodeRow<R> => ({ ...row, load });

/** The key at `i`, present by construction: `decodeNodeId` checks the count against the row. */
const at = (keys: readonly string[], i: number): string => keys[i] ?? '';

/** A rest/v1 kind read at `/<collection>/{id}`. */
function restRoot<K extends ResourceKind>(code: string, kind: K): NodeRow<RecordFor<K>> {
  return { code, keys: ['id'], keysOf: (r) => [r.id], load: ({ ctx }, k) => ctx.loaders.network.byId(kind, at(k, 0)) };
}

/** A rest/v1 kind read at `/networks/{networkId}/<collection>/{id}`. */
function restInNetwork<K extends NetworkScopedKind>(code: string, kind: K): NodeRow<RecordFor<K>> {
  return { code, keys: ['networkId', 'id'], keysOf: (r) => networkKeys(r), load: ({ ctx }, k) => ctx.loaders.network.byId(kind, at(k, 1), at(k, 0)) };
}

function networkKeys(record: { id: string; networkId: string | null }): readonly string[] {
  if (record.networkId === null) throw new ShapeError(`record ${record.id}: networkId missing`);
  return [record.networkId, record.id];
}

/** An authorization API record read at `/<collection>/{id}`. */
function auth<R extends { id: string }>(code: string, loader: (loaders: AuthLoaders) => { load(id: string): Promise<R> }): NodeRow<R> {
  return { code, keys: ['id'], keysOf: (r) => [r.id], load: ({ ctx }, k) => loader(ctx.loaders.auth).load(at(k, 0)) };
}

/**
 * An authorization API grant of one kind. Grants have no read by id: the keys are what finds one in
 * the grant list (the loaders' `grant`: `/grants?grantType=&identityId=`, then its `grantId`), the
 * kind being the row's own.
 */
function grant(code: string, grantType: GrantTypeName): NodeRow<GrantRecord> {
  return {
    code,
    keys: ['grantId'],
    optionalKeys: ['identityId'],
    keysOf: (g) => {
      if (g.grantId === null) throw new ShapeError(`${grantType} grant: grantId missing`);
      return g.identityId === null ? [g.grantId] : [g.grantId, g.identityId];
    },
    load: ({ ctx }, k) => ctx.loaders.auth.grant.load({ grantType, grantId: at(k, 0), identityId: k[1] ?? null }),
  };
}

/** A management API v2 resource: read at `/core/v2/<collection>/{id}` whatever its network. */
function v2<K extends V2Kind>(code: string, kind: K): NodeRow<V2RecordFor<K>> {
  return { code, keys: ['id'], keysOf: (r) => [r.id], load: ({ ctx }, k) => ctx.loaders.coreV2.byId(kind, at(k, 0)) };
}

/** Every type that implements `Node` (a unit test checks this against the schema). */
export type NodeTypeName =
  | 'NetworkGroup' | 'Network' | 'Endpoint' | 'Service' | 'AppWan' | 'EndpointGroup' | 'GatewayCluster'
  | 'CertificateAuthority' | 'ServiceGroup' | 'TransferNodePool' | 'Host' | 'DataCenter' | 'GeoRegion'
  | 'NetworkConfigMetadata' | 'CloudSubscription'
  | 'Domain' | 'ResourceType' | 'ResourceAction' | 'SuperUser' | 'PublicGrant'
  | 'CustomRoleGrant' | 'IdentityResourceActionGrant' | 'PublicGrantGrant' | 'SuperUserGrant'
  | 'V2Network' | 'EdgeRouter' | 'EdgeRouterPolicy' | 'V2Service' | 'V2AppWan' | 'V2Endpoint';

export const NODE_TYPES: { readonly [T in NodeTypeName]: NodeRow<ResolversParentTypes[T]> } = {
  // Network management (rest/v1)
  NetworkGroup: restRoot('ng', 'networkGroup'),
  Network: withLookAhead(restRoot('nw', 'network'), ({ ctx, selection }, k) => readById.network(ctx, k, selection())),
  Endpoint: withLookAhead(restInNetwork('ep', 'endpoint'), ({ ctx, selection }, k) => readById.endpoint(ctx, k, selection())),
  Service: withLookAhead(restInNetwork('sv', 'service'), ({ ctx, selection }, k) => readById.service(ctx, k, selection())),
  AppWan: withLookAhead(restInNetwork('aw', 'appWan'), ({ ctx, selection }, k) => readById.appWan(ctx, k, selection())),
  EndpointGroup: restInNetwork('eg', 'endpointGroup'),
  GatewayCluster: restInNetwork('gc', 'gatewayCluster'),
  CertificateAuthority: restInNetwork('ca', 'certificateAuthority'),
  ServiceGroup: restInNetwork('sg', 'serviceGroup'),
  TransferNodePool: restInNetwork('tp', 'transferNodePool'),
  Host: restRoot('ho', 'host'),
  DataCenter: restRoot('dc', 'dataCenter'),
  GeoRegion: restRoot('gr', 'geoRegion'),
  NetworkConfigMetadata: restRoot('nc', 'networkConfigMetadata'),
  CloudSubscription: restRoot('cs', 'cloudSubscription'),
  // Authorization (auth/v1)
  Domain: auth('do', (a) => a.domain),
  ResourceType: auth('rt', (a) => a.resourceType),
  ResourceAction: auth('ra', (a) => a.resourceAction),
  SuperUser: auth('su', (a) => a.superUser),
  PublicGrant: auth('pg', (a) => a.publicGrant),
  CustomRoleGrant: grant('gcr', 'CustomRole'),
  IdentityResourceActionGrant: grant('gir', 'IdentityResourceAction'),
  PublicGrantGrant: grant('gpg', 'PublicGrant'),
  SuperUserGrant: grant('gsu', 'SuperUser'),
  // Management (core/v2)
  V2Network: withLookAhead(v2('v2nw', 'network'), ({ ctx, selection }, k) => readV2Network(ctx, at(k, 0), fieldNames(selection()))),
  EdgeRouter: v2('v2er', 'edgeRouter'),
  EdgeRouterPolicy: v2('v2rp', 'edgeRouterPolicy'),
  V2Service: v2('v2sv', 'service'),
  V2AppWan: v2('v2aw', 'appWan'),
  V2Endpoint: v2('v2ep', 'endpoint'),
};

const VERSION = '1';
/** Longest id accepted: far above any real one (two UUIDs and a code), far below a request's size. */
const MAX_ID_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const TYPE_OF_CODE: ReadonlyMap<string, NodeTypeName> = new Map(
  (Object.keys(NODE_TYPES) as NodeTypeName[]).map((type) => [NODE_TYPES[type].code, type] as const),
);

export interface DecodedNodeId {
  type: NodeTypeName;
  /** The row's keys in order; optional keys that were null are absent (the array is shorter). */
  keys: readonly string[];
}

export function encodeNodeId(type: NodeTypeName, keys: readonly string[]): string {
  const text = [VERSION, NODE_TYPES[type].code, ...keys.map((k) => encodeURIComponent(k))].join(':');
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The global id of a record of `type`. */
export function nodeIdOf<T extends NodeTypeName>(type: T, record: ResolversParentTypes[T]): string {
  // Each row's keysOf takes its own type's record; TypeScript cannot correlate T across the table and the argument.
  const row = NODE_TYPES[type] as NodeRow<ResolversParentTypes[T]>;
  return encodeNodeId(type, row.keysOf(record));
}

/** Decodes a global id, or throws BadInputError naming `argument` (before any upstream call). */
export function decodeNodeId(nodeId: string, argument = 'nodeId'): DecodedNodeId {
  const refuse = (why: string): never => {
    throw new BadInputError(argument, `${argument}: not a global id issued by this gateway (${why}); use a \`nodeId\` read from the graph, not a REST \`id\`.`);
  };
  if (nodeId.length === 0 || nodeId.length > MAX_ID_LENGTH || !BASE64URL.test(nodeId)) return refuse('not base64url');
  const text = Buffer.from(nodeId, 'base64url').toString('utf8');
  // One spelling per id: anything that does not encode back to itself is not one of ours.
  if (Buffer.from(text, 'utf8').toString('base64url') !== nodeId) return refuse('not canonical');
  const [version, code, ...encoded] = text.split(':');
  if (version !== VERSION) return refuse('unknown form');
  const type = code === undefined ? undefined : TYPE_OF_CODE.get(code);
  if (type === undefined) return refuse('unknown type');
  const row = NODE_TYPES[type];
  const most = row.keys.length + (row.optionalKeys?.length ?? 0);
  if (encoded.length < row.keys.length || encoded.length > most) {
    return refuse(`a ${type} id has ${row.keys.length === most ? row.keys.length : `${row.keys.length} to ${most}`} key(s)`);
  }
  const keys: string[] = [];
  for (const part of encoded) {
    let key: string;
    try {
      key = decodeURIComponent(part);
    } catch {
      return refuse('bad key');
    }
    if (key.length === 0) return refuse('empty key');
    keys.push(key);
  }
  return { type, keys };
}

/** Reads a decoded id's object as its typed lookup reads it. */
export function loadNode(read: NodeRead, { type, keys }: DecodedNodeId): Promise<ResolversParentTypes[NodeTypeName]> {
  return NODE_TYPES[type].load(read, keys);
}
