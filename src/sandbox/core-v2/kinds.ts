/**
 * The core/v2 resource table: one row per resource kind with its paths, HAL list key,
 * permission type code (network domain) and the reader of its create input. Routes, lists and
 * seeds are generated from this table.
 */
import { HttpError } from '../core/types';
import { type Input, invalid, type JsonMap } from '../auth/input';
import type { V2Store } from './store';

export type V2KindName = 'network' | 'edgeRouter' | 'edgeRouterPolicy' | 'service' | 'appWan' | 'endpoint';

export interface V2Kind {
  kind: V2KindName;
  /** Path segment under /core/v2. */
  plural: string;
  /** `_embedded` key of list responses (`<singular>List`). */
  listKey: string;
  /** Resource type code in the `network` domain: reads need `read`, creates `write`. */
  typeCode: string;
  label: string;
  /** Belongs to a network (has a required `networkId`). */
  scoped: boolean;
  /** Checks the create input and returns the fields to store and echo (400/404 on violations). */
  read(input: Input, store: V2Store): JsonMap;
}

const PORT_MAX = 65_535;
/** Service model types the sandbox implements; the others the platform knows answer 400. */
export const SERVICE_MODEL_TYPES = ['TunnelerToEndpoint', 'TunnelerToEdgeRouter'] as const;
const EGRESS_PROTOCOLS = ['tcp', 'udp'];

function networkId(input: Input, store: V2Store): string {
  const id = input.string('networkId', { nonEmpty: true });
  if (!store.get('network', id)) throw new HttpError(404, `networkId: network ${id} not found`);
  return id;
}

function egress(input: Input): JsonMap {
  const protocol = input.string('protocol', { nonEmpty: true });
  if (!EGRESS_PROTOCOLS.includes(protocol)) throw invalid(input.path('protocol'), `must be one of ${EGRESS_PROTOCOLS.join(', ')}`);
  return { protocol, host: input.string('host', { nonEmpty: true }), port: input.integer('port', 1, PORT_MAX) };
}

/** `modelType` decides between bind attributes + serverEgress and edgeRouterHosts. */
function serviceModel(body: Input, store: V2Store, network: string): { modelType: string; model: JsonMap } {
  const modelType = body.string('modelType', { nonEmpty: true });
  if (!(SERVICE_MODEL_TYPES as readonly string[]).includes(modelType)) throw invalid('modelType', `must be one of ${SERVICE_MODEL_TYPES.join(', ')}`);
  const model = body.child('model');
  const ingress = model.child('clientIngress');
  const out: JsonMap = {
    clientIngress: { host: ingress.string('host', { nonEmpty: true }), port: ingress.integer('port', 1, PORT_MAX) },
    edgeRouterAttributes: model.stringList('edgeRouterAttributes'),
  };
  if (modelType === 'TunnelerToEndpoint') {
    if (model.has('edgeRouterHosts')) throw invalid('model.edgeRouterHosts', 'must be absent for modelType TunnelerToEndpoint');
    out['bindEndpointAttributes'] = model.stringList('bindEndpointAttributes', { nonEmpty: true });
    out['serverEgress'] = egress(model.child('serverEgress'));
  } else {
    for (const key of ['bindEndpointAttributes', 'serverEgress']) {
      if (model.has(key)) throw invalid(`model.${key}`, 'must be absent for modelType TunnelerToEdgeRouter');
    }
    out['edgeRouterHosts'] = model.children('edgeRouterHosts', { nonEmpty: true }).map((host) => {
      const edgeRouterId = host.string('edgeRouterId', { nonEmpty: true });
      const router = store.get('edgeRouter', edgeRouterId);
      if (!router || router.data['networkId'] !== network) throw new HttpError(404, `${host.path('edgeRouterId')}: edge router ${edgeRouterId} not found in network ${network}`);
      return { edgeRouterId, serverEgress: egress(host.child('serverEgress')) };
    });
  }
  return { modelType, model: out };
}

export const V2_KINDS: readonly V2Kind[] = [
  {
    kind: 'network',
    plural: 'networks',
    listKey: 'networkList',
    typeCode: 'network',
    label: 'Network',
    scoped: false,
    read: (input) => ({
      name: input.string('name', { nonEmpty: true }),
      locationCode: input.optString('locationCode'),
      networkConfigMetadataId: input.optString('networkConfigMetadataId'),
      networkGroupId: input.optString('networkGroupId'),
    }),
  },
  {
    kind: 'edgeRouter',
    plural: 'edge-routers',
    listKey: 'edgeRouterList',
    typeCode: 'edge-router',
    label: 'Edge router',
    scoped: true,
    read: (input, store) => ({
      networkId: networkId(input, store),
      name: input.string('name', { nonEmpty: true }),
      attributes: input.stringList('attributes'),
      dataCenterId: input.optString('dataCenterId'),
      linkListener: input.optBoolean('linkListener') ?? false,
    }),
  },
  {
    kind: 'edgeRouterPolicy',
    plural: 'edge-router-policies',
    listKey: 'edgeRouterPolicyList',
    typeCode: 'edge-router-policy',
    label: 'Edge router policy',
    scoped: true,
    read: (input, store) => ({
      networkId: networkId(input, store),
      name: input.string('name', { nonEmpty: true }),
      endpointAttributes: input.stringList('endpointAttributes'),
      edgeRouterAttributes: input.stringList('edgeRouterAttributes'),
    }),
  },
  {
    kind: 'service',
    plural: 'services',
    listKey: 'serviceList',
    typeCode: 'service',
    label: 'Service',
    scoped: true,
    read: (input, store) => {
      const network = networkId(input, store);
      const name = input.string('name', { nonEmpty: true });
      const encryptionRequired = input.optBoolean('encryptionRequired') ?? true;
      const attributes = input.stringList('attributes');
      return { networkId: network, name, encryptionRequired, attributes, ...serviceModel(input, store, network) };
    },
  },
  {
    kind: 'appWan',
    plural: 'app-wans',
    listKey: 'appWanList',
    typeCode: 'app-wan',
    label: 'AppWAN',
    scoped: true,
    read: (input, store) => ({
      networkId: networkId(input, store),
      name: input.string('name', { nonEmpty: true }),
      serviceAttributes: input.stringList('serviceAttributes'),
      endpointAttributes: input.stringList('endpointAttributes'),
    }),
  },
  {
    kind: 'endpoint',
    plural: 'endpoints',
    listKey: 'endpointList',
    typeCode: 'endpoint',
    label: 'Endpoint',
    scoped: true,
    read: (input, store) => ({
      networkId: networkId(input, store),
      name: input.string('name', { nonEmpty: true }),
      attributes: input.stringList('attributes'),
      enrollmentMethod: { ott: input.optChild('enrollmentMethod')?.optBoolean('ott') ?? true },
    }),
  },
];

export function kindOf(name: V2KindName): V2Kind {
  const kind = V2_KINDS.find((k) => k.kind === name);
  if (!kind) throw new Error(`unknown core/v2 kind ${name}`);
  return kind;
}
