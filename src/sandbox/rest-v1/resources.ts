/**
 * The resource table of rest/v1: one row per collection drives its routes (list, create, fetch,
 * redefine, delete), input checks, success statuses, permission code, HAL links and asynchronous
 * life cycle. Relations and special operations (CSV, blueprints, memberships, processes) live in
 * their own modules. Paths are relative to /rest/v1.
 */
import { HttpError } from '../core/types';
import type { Env } from './env';
import { f, type FieldSpec } from './fields';
import { CURRENT_STATE, STATUS, timestamp } from './format';
import type { JsonObject } from './json';
import type { ProcessDefinition } from './processes';
import type { Entity, Scheduled } from './store';
import { registrationKey } from './registration-key';

export type Op = 'list' | 'create' | 'get' | 'put' | 'delete';

export interface ResourceSpec {
  kind: string;
  /** `_embedded` key of its lists. */
  plural: string;
  /** Resource type code in the `network` domain for permission checks (read / write). */
  code: string;
  /** Collection path; the item path is `${path}/{${idParam}}`. */
  path: string;
  idParam: string;
  /** The path parameter naming the owner, and the field that holds it. */
  parent: { param: string; field: string; kind: string } | null;
  /** Lists the API documents as paginated honour page/size/sort; others answer every item. */
  paginated: boolean;
  /** Success status per supported operation. */
  ops: Partial<Record<Op, number>>;
  fields: readonly FieldSpec[];
  /** Accepted on input, never returned (secrets). */
  hidden?: readonly string[];
  /** Server-set fields on creation, given the fields read from the request. */
  initial?(env: Env, fields: JsonObject): JsonObject;
  /** Query parameters that filter its list by equality on the field of the same name. */
  filters?: readonly string[];
  /** Checks beyond field types (uniqueness, references); `existing` on a redefine. Must not mutate. */
  check?(env: Env, data: JsonObject, existing?: Entity): void;
  /** Status progress after creation. */
  progress?(env: Env, data: JsonObject): Scheduled[];
  /**
   * Changes whose 202 body carries a top-level `businessKey` (the platform may put one in
   * the 202 bodies of endpoint, service and AppWAN changes), with their process definition:
   * a redefine shows UPDATING (600) and a delete DELETING (800) until the process ends (changes.ts).
   */
  keyedChanges?: { put?: ProcessDefinition; delete?: ProcessDefinition };
  /** A delete without a key shows DELETING (800) and removes the entity after this many steps (else at once). */
  deleteSteps?: number;
  links(data: JsonObject): Array<readonly [string, string]>;
}

const YES_NO = ['YES', 'NO'] as const;
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;

function str(data: JsonObject, key: string): string {
  const v = data[key];
  return typeof v === 'string' ? v : '';
}

/** Steps of the clock after `env.now`. */
function after(env: Env, steps: number): number {
  return env.now + steps * env.ctx.clock.stepMs;
}

function requireIn(env: Env, kind: string, id: unknown, field: string, networkId?: string): void {
  if (id === null || id === undefined) return;
  const entity = typeof id === 'string' ? env.store.get(kind, id) : undefined;
  if (entity === undefined || (networkId !== undefined && entity.data['networkId'] !== networkId)) {
    throw new HttpError(400, `${field} ${String(id)} does not name an existing ${kind}${networkId ? ' of this network' : ''}`);
  }
}

function uniqueName(env: Env, kind: string, data: JsonObject, existing?: Entity): void {
  const clash = env.store
    .where(kind, 'networkId', str(data, 'networkId'))
    .find((e) => e.data['name'] === data['name'] && e.id !== existing?.id);
  if (clash !== undefined) throw new HttpError(400, `name ${str(data, 'name')} is already used in this network`);
}

function ports(data: JsonObject, first: string, last: string): void {
  const a = data[first];
  const b = data[last];
  for (const [k, v] of [[first, a], [last, b]] as const) {
    if (typeof v === 'number' && (v < 0 || v > 65535)) throw new HttpError(400, `${k} must be a port from 0 to 65535`);
  }
  if (typeof a === 'number' && typeof b === 'number' && a > b) throw new HttpError(400, `${first} must not exceed ${last}`);
}

const owner = (env: Env): JsonObject => ({ ownerIdentityId: env.caller.identityId });
const netLink = (d: JsonObject): readonly [string, string] => ['network', `/networks/${str(d, 'networkId')}`];
const optional = (rel: string, value: unknown, path: (id: string) => string): Array<readonly [string, string]> =>
  typeof value === 'string' && value !== '' ? [[rel, path(value)]] : [];

const NETWORK_FIELDS: readonly FieldSpec[] = [
  f('name', 'string', { required: true }),
  f('caName', 'string'),
  f('productFamily', 'string', { default: 'SVC_ENABLED' }),
  f('productVersion', 'string', { default: '7.3.1' }),
  f('provisionedAt', 'string', { server: true }),
  f('officeBreakoutCategory', 'string', { default: 'NONE' }),
  f('mfaClientId', 'string'),
  f('mfaIssuerId', 'string'),
  f('status', 'int', { server: true }),
  f('organizationId', 'string'),
  f('ownerIdentityId', 'string', { server: true }),
  f('networkConfigMetadataId', 'string'),
];

const ENDPOINT_FIELDS: readonly FieldSpec[] = [
  f('name', 'string', { required: true }),
  f('endpointType', 'string', { required: true, pattern: /^[A-Z0-9_]+$/, patternHint: 'must be uppercase without whitespace (e.g. GW, ZTCL)' }),
  f('geoRegionId', 'string'),
  f('dataCenterId', 'string'),
  f('gatewayClusterId', 'string'),
  f('clientMfaEnable', 'string', { default: 'NO', oneOf: YES_NO }),
  ...['clientType', 'clientVersion', 'componentId', 'countryId', 'endpointProtectionRole', 'haEndpointType',
    'officeBreakoutNextHopIp', 'sessionIdentityId', 'source', 'syncId'].map((n) => f(n, 'string')),
  ...['networkId', 'ownerIdentityId', 'registrationKey', 'stateLastUpdated'].map((n) => f(n, 'string', { server: true })),
  ...['registrationAttemptsLeft', 'currentState', 'status'].map((n) => f(n, 'int', { server: true })),
];

const SERVICE_FIELDS: readonly FieldSpec[] = [
  f('name', 'string', { required: true }),
  f('serviceClass', 'string', { required: true, oneOf: ['CS', 'GW', 'ICMP'] }),
  f('serviceInterceptType', 'string', { default: 'IP' }),
  f('serviceType', 'string', { default: 'TCP', oneOf: ['TCP', 'UDP', 'ALL', 'ICMP'] }),
  ...['lowLatency', 'dataInterleaving', 'transparency', 'icmpTunnel', 'permanentConnection', 'rateSmoothing'].map((n) =>
    f(n, 'string', { default: 'NO', oneOf: YES_NO }),
  ),
  f('multicast', 'string', { default: 'OFF' }),
  f('dnsOptions', 'string', { default: 'NONE' }),
  f('cryptoLevel', 'string', { default: 'STRONG' }),
  f('collectionLocation', 'string', { default: 'BOTH' }),
  f('pbrType', 'string', { default: 'WAN' }),
  f('networkIp', 'string', { pattern: IPV4, patternHint: 'must be a dotted quad or CIDR' }),
  f('networkNetmask', 'string'),
  f('networkFirstPort', 'int'),
  f('networkLastPort', 'int'),
  f('interceptIp', 'string', { pattern: IPV4, patternHint: 'must be a dotted quad or CIDR' }),
  f('interceptDnsHostname', 'string'),
  f('interceptDnsPort', 'int'),
  f('interceptFirstPort', 'int'),
  f('interceptLastPort', 'int'),
  f('interceptPorts', 'object', { default: { include: [], exclude: [] } }),
  ...['interceptIncludePorts', 'interceptExcludePorts', 'portInterceptMode', 'protectionGroupId', 'localNetworkGateway',
    'gatewayIp', 'gatewayNetmask', 'gatewayCidrBlock'].map((n) => f(n, 'string')),
  f('netflowIndex', 'int', { default: 0 }),
  f('profileIndex', 'int', { default: 0 }),
  f('officeConflict', 'bool', { default: false }),
  f('status', 'int', { server: true }),
  f('endpointId', 'string'),
  f('gatewayClusterId', 'string'),
  f('networkId', 'string', { server: true }),
  f('ownerIdentityId', 'string', { server: true }),
];

const SIZES = ['cloudaNetworkControllerSize', 'cloudaGatewaySize', 'cloudaTransferNodeSize', 'cloudbTransferNodeSize',
  'cloudcTransferNodeSize', 'clouddTransferNodeSize'];

/** Endpoint status progress: hosted gateways (GW) provision and register themselves; others wait for enrollment. */
function endpointProgress(env: Env, data: JsonObject): Scheduled[] {
  const steps: Scheduled[] = [
    { at: after(env, 1), set: { status: STATUS.PROVISIONING } },
    { at: after(env, 2), set: { status: STATUS.PROVISIONED } },
  ];
  if (data['endpointType'] === 'GW') {
    steps.push({
      at: after(env, 3),
      set: { status: STATUS.REGISTERED, currentState: CURRENT_STATE.ONLINE, registrationAttemptsLeft: 0, stateLastUpdated: timestamp(after(env, 3)) },
    });
  }
  return steps;
}

const provisioning = (env: Env): Scheduled[] => [
  { at: after(env, 1), set: { status: STATUS.PROVISIONING } },
  { at: after(env, 2), set: { status: STATUS.PROVISIONED } },
];

function networkScoped(
  kind: string,
  plural: string,
  code: string,
  segment: string,
  idParam: string,
  ops: ResourceSpec['ops'],
  fields: readonly FieldSpec[],
  extra: Partial<ResourceSpec> = {},
): ResourceSpec {
  return {
    kind,
    plural,
    code,
    path: `/networks/{networkId}/${segment}`,
    idParam,
    parent: { param: 'networkId', field: 'networkId', kind: 'network' },
    paginated: false,
    ops,
    fields: [...fields, f('networkId', 'string', { server: true })],
    links: (d) => [['self', `/networks/${str(d, 'networkId')}/${segment}/${str(d, 'id')}`], netLink(d)],
    ...extra,
  };
}

export const RESOURCES: readonly ResourceSpec[] = [
  {
    kind: 'organization',
    plural: 'organizations',
    code: 'network-group',
    path: '/organizations',
    idParam: 'organizationId',
    parent: null,
    paginated: false,
    ops: { list: 200, get: 200, put: 202 },
    fields: [
      f('name', 'string', { required: true }),
      f('organizationShortName', 'string'),
      f('mfaRequired', 'bool', { default: false }),
      f('svcEnabled', 'bool', { default: true }),
      f('cloudaAutoScalingGatewayEnabled', 'bool', { default: false }),
      f('defaultCloudbVirtualWanId', 'string'),
      f('billingAccountId', 'string'),
      f('ownerIdentityId', 'string', { server: true }),
    ],
    links: (d) => [
      ['self', `/organizations/${str(d, 'id')}`],
      ['networks', `/networks?organizationId=${str(d, 'id')}`],
      ['cloudbSubscription', `/azureSubscriptions?organizationId=${str(d, 'id')}`],
    ],
  },
  {
    kind: 'network',
    plural: 'networks',
    code: 'network',
    path: '/networks',
    idParam: 'networkId',
    parent: null,
    paginated: true,
    ops: { list: 200, create: 202, get: 200, put: 200, delete: 202 },
    fields: NETWORK_FIELDS,
    filters: ['organizationId'],
    initial: (env, fields) => ({
      ...owner(env),
      status: STATUS.NEW,
      provisionedAt: null,
      organizationId: fields['organizationId'] ?? env.store.callerOrganizationId(),
      networkConfigMetadataId: fields['networkConfigMetadataId'] ?? env.store.all('networkConfigMetadata')[0]?.id ?? null,
    }),
    check(env, data) {
      requireIn(env, 'organization', data['organizationId'], 'organizationId');
      requireIn(env, 'networkConfigMetadata', data['networkConfigMetadataId'], 'networkConfigMetadataId');
    },
    progress: (env) => [
      { at: after(env, 1), set: { status: STATUS.PROVISIONING } },
      { at: after(env, 2), set: { status: STATUS.PROVISIONED, provisionedAt: timestamp(after(env, 2)) } },
    ],
    deleteSteps: 2,
    links: (d) => {
      const self = `/networks/${str(d, 'id')}`;
      return [
        ['self', self],
        ['organization', `/organizations/${str(d, 'organizationId')}`],
        ...['networkControllerHosts', 'endpoints', 'endpointGroups', 'services', 'appWans', 'gatewayClusters', 'cas',
          'virtualWanSites'].map((rel) => [rel, `${self}/${rel}`] as const),
        ['networkConfigMetadata', `${self}/networkConfigMetadata`],
      ];
    },
  },
  {
    kind: 'endpoint',
    plural: 'endpoints',
    code: 'endpoint',
    path: '/networks/{networkId}/endpoints',
    idParam: 'endpointId',
    parent: { param: 'networkId', field: 'networkId', kind: 'network' },
    paginated: true,
    ops: { list: 200, create: 202, get: 200, put: 202, delete: 202 },
    fields: ENDPOINT_FIELDS,
    initial: (env) => ({
      ...owner(env),
      registrationKey: registrationKey(env.ctx),
      registrationAttemptsLeft: 5,
      currentState: CURRENT_STATE.REGISTERING,
      status: STATUS.NEW,
      stateLastUpdated: timestamp(env.now),
    }),
    check(env, data, existing) {
      uniqueName(env, 'endpoint', data, existing);
      requireIn(env, 'geoRegion', data['geoRegionId'], 'geoRegionId');
      requireIn(env, 'dataCenter', data['dataCenterId'], 'dataCenterId');
      requireIn(env, 'gatewayCluster', data['gatewayClusterId'], 'gatewayClusterId', str(data, 'networkId'));
    },
    progress: endpointProgress,
    keyedChanges: { put: 'UpdateEndpoint', delete: 'DeleteEndpoint' },
    links: (d) => {
      const self = `/networks/${str(d, 'networkId')}/endpoints/${str(d, 'id')}`;
      return [
        ['self', self],
        netLink(d),
        ['appWans', `${self}/appWans`],
        ['endpointGroups', `${self}/endpointGroups`],
        ['services', `${self}/services`],
        ...optional('geoRegion', d['geoRegionId'], (id) => `/geoRegions/${id}`),
        ...optional('dataCenter', d['dataCenterId'], (id) => `/dataCenters/${id}`),
      ];
    },
  },
  {
    kind: 'service',
    plural: 'services',
    code: 'service',
    path: '/networks/{networkId}/services',
    idParam: 'serviceId',
    parent: { param: 'networkId', field: 'networkId', kind: 'network' },
    paginated: true,
    ops: { list: 200, create: 202, get: 200, put: 202, delete: 202 },
    fields: SERVICE_FIELDS,
    initial: (env) => ({ ...owner(env), status: STATUS.NEW }),
    check(env, data, existing) {
      const viaEndpoint = typeof data['endpointId'] === 'string';
      const viaCluster = typeof data['gatewayClusterId'] === 'string';
      if (viaEndpoint === viaCluster) throw new HttpError(400, 'exactly one of endpointId or gatewayClusterId is required');
      uniqueName(env, 'service', data, existing);
      requireIn(env, 'endpoint', data['endpointId'], 'endpointId', str(data, 'networkId'));
      requireIn(env, 'gatewayCluster', data['gatewayClusterId'], 'gatewayClusterId', str(data, 'networkId'));
      ports(data, 'networkFirstPort', 'networkLastPort');
      ports(data, 'interceptFirstPort', 'interceptLastPort');
    },
    progress: provisioning,
    keyedChanges: { put: 'UpdateService', delete: 'DeleteService' },
    links: (d) => {
      const self = `/networks/${str(d, 'networkId')}/services/${str(d, 'id')}`;
      return [
        ['self', self],
        netLink(d),
        ['appWans', `${self}/appWans`],
        ...optional('endpoint', d['endpointId'], (id) => `/networks/${str(d, 'networkId')}/endpoints/${id}`),
        ...optional('gatewayCluster', d['gatewayClusterId'], (id) => `/networks/${str(d, 'networkId')}/gatewayClusters/${id}`),
      ];
    },
  },
  {
    kind: 'appWan',
    plural: 'appWans',
    code: 'app-wan',
    path: '/networks/{networkId}/appWans',
    idParam: 'appWanId',
    parent: { param: 'networkId', field: 'networkId', kind: 'network' },
    paginated: true,
    ops: { list: 200, create: 202, get: 200, put: 200, delete: 202 },
    fields: [f('name', 'string', { required: true }), f('networkId', 'string', { server: true }),
      f('ownerIdentityId', 'string', { server: true }), f('status', 'int', { server: true })],
    initial: (env) => ({ ...owner(env), status: STATUS.NEW }),
    check: (env, data, existing) => uniqueName(env, 'appWan', data, existing),
    // The API answers an AppWAN redefine 200 (done at once), so only its delete is keyed.
    keyedChanges: { delete: 'DeleteAppWan' },
    links: (d) => {
      const self = `/networks/${str(d, 'networkId')}/appWans/${str(d, 'id')}`;
      return [['self', self], netLink(d), ...['endpoints', 'endpointGroups', 'services'].map((r) => [r, `${self}/${r}`] as const)];
    },
  },
  {
    kind: 'networkConfigMetadata',
    plural: 'networkConfigMetadatas',
    code: 'network-config-metadata',
    path: '/networkConfigMetadata',
    idParam: 'networkConfigMetadataId',
    parent: null,
    paginated: false,
    ops: { list: 200, create: 202, get: 200, put: 202, delete: 202 },
    fields: [
      f('name', 'string', { required: true }),
      ...SIZES.map((n) => f(n, 'string')),
      ...['networkControllerVolumeSize', 'transferNodeVolumeSize', 'gatewayVolumeSize'].map((n) => f(n, 'int')),
      f('organizationId', 'string', { server: true }),
      f('ownerIdentityId', 'string', { server: true }),
    ],
    initial: (env) => ({ ...owner(env), organizationId: env.store.callerOrganizationId() }),
    links: (d) => [['self', `/networkConfigMetadata/${str(d, 'id')}`]],
  },
  {
    kind: 'cloudSubscription',
    plural: 'azureSubscriptions',
    code: 'cloud-subscription',
    path: '/azureSubscriptions',
    idParam: 'azureSubscriptionId',
    parent: null,
    paginated: false,
    ops: { list: 200, create: 200, get: 200, put: 202, delete: 202 },
    fields: [
      ...['name', 'subscriptionId', 'tenantId', 'applicationId', 'applicationKey'].map((n) => f(n, 'string', { required: true })),
      f('organizationId', 'string', { server: true }),
      f('ownerIdentityId', 'string', { server: true }),
    ],
    hidden: ['applicationKey'],
    filters: ['organizationId'],
    initial: (env) => ({ ...owner(env), organizationId: env.store.callerOrganizationId() }),
    links: (d) => [
      ['self', `/azureSubscriptions/${str(d, 'id')}`],
      ['virtualWanSites', `/azureSubscriptions/${str(d, 'id')}/virtualWanSites`],
    ],
  },
  {
    kind: 'virtualWanSite',
    plural: 'virtualWanSites',
    code: 'virtual-wan-site',
    path: '/azureSubscriptions/{azureSubscriptionId}/virtualWanSites',
    idParam: 'siteId',
    parent: { param: 'azureSubscriptionId', field: 'cloudbSubscriptionId', kind: 'cloudSubscription' },
    paginated: false,
    // GET one is not among the API's documented operations: added so that `_links.self` resolves.
    ops: { list: 200, create: 200, get: 200, delete: 202 },
    fields: [
      f('name', 'string', { required: true }),
      f('endpointId', 'string', { required: true }),
      f('dataCenterId', 'string'),
      f('cloudbSubscriptionId', 'string', { server: true }),
      f('cloudbResourceGroupName', 'string'),
      f('cloudbVirtualWanId', 'string'),
      f('publicIpAddress', 'string', { pattern: /^(\d{1,3})(\.\d{1,3}){3}$/, patternHint: 'must be an IPv4 address' }),
      f('bgp', 'object'),
      f('networkId', 'string', { server: true }),
    ],
    check(env, data) {
      requireIn(env, 'endpoint', data['endpointId'], 'endpointId');
      requireIn(env, 'dataCenter', data['dataCenterId'], 'dataCenterId');
    },
    initial: (env, input) => {
      const endpoint = typeof input['endpointId'] === 'string' ? env.store.get('endpoint', input['endpointId']) : undefined;
      return { networkId: endpoint?.data['networkId'] ?? null };
    },
    links: (d) => [
      ['self', `/azureSubscriptions/${str(d, 'cloudbSubscriptionId')}/virtualWanSites/${str(d, 'id')}`],
      ['endpoint', `/networks/${str(d, 'networkId')}/endpoints/${str(d, 'endpointId')}`],
    ],
  },
  {
    kind: 'dataCenter',
    plural: 'dataCenters',
    code: 'data-center',
    path: '/dataCenters',
    idParam: 'dataCenterId',
    parent: null,
    paginated: false,
    ops: { list: 200, get: 200 },
    fields: [f('locationCode', 'string'), f('locationName', 'string'), f('provider', 'string')],
    filters: ['locationCode', 'provider'],
    links: (d) => [['self', `/dataCenters/${str(d, 'id')}`]],
  },
  {
    kind: 'geoRegion',
    plural: 'geoRegions',
    code: 'geo-region',
    path: '/geoRegions',
    idParam: 'geoRegionId',
    parent: null,
    paginated: false,
    ops: { list: 200, get: 200 },
    fields: [f('name', 'string')],
    links: (d) => [['self', `/geoRegions/${str(d, 'id')}`]],
  },
  {
    kind: 'host',
    plural: 'hosts',
    code: 'host',
    path: '/hosts',
    idParam: 'hostId',
    parent: null,
    paginated: false,
    ops: { list: 200, get: 200 },
    fields: [f('name', 'string'), f('role', 'string'), f('ipAddress', 'string'), f('provider', 'string'),
      f('dataCenterId', 'string'), f('networkId', 'string'), f('instanceSize', 'string'), f('status', 'int')],
    links: (d) => [['self', `/hosts/${str(d, 'id')}`], ...optional('dataCenter', d['dataCenterId'], (id) => `/dataCenters/${id}`)],
  },
  networkScoped('networkControllerHost', 'networkControllerHosts', 'network-controller-host', 'networkControllerHosts',
    'networkControllerHostId', { list: 200 },
    [f('hostId', 'string'), f('name', 'string'), f('ipAddress', 'string'), f('domainName', 'string'), f('port', 'int')],
    { links: (d) => [['self', `/hosts/${str(d, 'hostId')}`], netLink(d)] }),
  networkScoped('transferNodePool', 'transferNodePools', 'transfer-node-pool', 'transferNodePools', 'transferNodePoolId',
    { list: 200, get: 200 }, [f('name', 'string'), f('dataCenterId', 'string'), f('nodeCount', 'int'), f('provider', 'string')]),
  networkScoped('serviceGroup', 'serviceGroups', 'service-group', 'serviceGroups', 'serviceGroupId', { list: 200, get: 200 },
    [f('name', 'string'), f('description', 'string'), f('serviceIds', 'stringList', { default: [] })]),
  networkScoped('ca', 'cas', 'certificate-authority', 'cas', 'caId',
    { list: 200, create: 201, get: 200, put: 201, delete: 200 },
    [f('name', 'string', { required: true }), f('certPem', 'string', { required: true }),
      f('isAutoEnrollmentEnabled', 'bool', { default: false }), f('isOttCaEnrollmentEnabled', 'bool', { default: true }),
      f('endpointAttributes', 'stringList', { default: [] }), f('isVerified', 'bool', { server: true }),
      f('ownerIdentityId', 'string', { server: true })],
    { initial: (env) => ({ ...owner(env), isVerified: false }), check: (env, d, e) => uniqueName(env, 'ca', d, e) }),
  networkScoped('endpointGroup', 'endpointGroups', 'endpoint-group', 'endpointGroups', 'endpointGroupId',
    { list: 200, create: 201, get: 200, put: 200, delete: 202 },
    [f('name', 'string', { required: true }), f('ownerIdentityId', 'string', { server: true })],
    {
      initial: owner,
      check: (env, d, e) => uniqueName(env, 'endpointGroup', d, e),
      links: (d) => {
        const self = `/networks/${str(d, 'networkId')}/endpointGroups/${str(d, 'id')}`;
        return [['self', self], netLink(d), ['endpoints', `${self}/endpoints`]];
      },
    }),
  networkScoped('gatewayCluster', 'gatewayClusters', 'gateway-cluster', 'gatewayClusters', 'gatewayClusterId',
    { list: 200, create: 202, get: 200, put: 202, delete: 202 },
    [f('name', 'string', { required: true }), f('geoRegionId', 'string'), f('ownerIdentityId', 'string', { server: true })],
    {
      initial: owner,
      check(env, d, e) {
        uniqueName(env, 'gatewayCluster', d, e);
        requireIn(env, 'geoRegion', d['geoRegionId'], 'geoRegionId');
      },
      links: (d) => {
        const self = `/networks/${str(d, 'networkId')}/gatewayClusters/${str(d, 'id')}`;
        return [['self', self], netLink(d), ['endpoints', `${self}/endpoints`], ['services', `${self}/services`]];
      },
    }),
];

export function resource(kind: string): ResourceSpec {
  const spec = RESOURCES.find((r) => r.kind === kind);
  if (spec === undefined) throw new Error(`unknown resource kind ${kind}`);
  return spec;
}
