/**
 * One row per rest/v1 mutation: how to call it on the `tiny` seed, the upstream call it must make
 * (and what its body must hold), what its payload must show, a bad input that must cost zero
 * calls, and a REST path whose state a reader's attempt must leave untouched.
 * `mutations.test.ts` runs every row the same way.
 */
import type { RestV1Facts } from '../../../src/sandbox';

type Vars = Record<string, unknown>;

export interface MutationCase {
  /** The mutation field. */
  field: string;
  /** Variable definitions, e.g. `$networkId: UUID!, $input: CreateEndpointInput!`. */
  varDefs: string;
  /** Arguments, e.g. `networkId: $networkId, input: $input`. */
  args: string;
  /** Selection on the payload (besides accepted/httpStatus/businessKey/id). */
  select: string;
  vars(f: Facts): Vars;
  /** `METHOD route-template` of the change request the gateway must send (exactly once). */
  call: string;
  /** What the change request's body must hold (undefined: no body checks). */
  sent?(body: unknown, vars: Vars): void;
  /** Expectations on the payload's data. */
  payload(p: Record<string, unknown>, vars: Vars): void;
  /** Variables with an input the gateway must refuse before any call, and the field it names. */
  bad: { vars(f: Facts): Vars; field: string };
  /** A rest/v1 path (GET) whose answer a reader's refused attempt must not change. */
  state(f: Facts): string;
}

/** Ids on the freshly reset `tiny` seed. */
export interface Facts {
  networkId: string;
  organizationId: string;
  endpointId: string;
  secondEndpointId: string;
  serviceId: string;
  appWanId: string;
  endpointGroupId: string;
  gatewayClusterId: string;
  templateId: string;
  subscriptionId: string;
  geoRegionId: string;
}

export function factsOf(rest: RestV1Facts): Facts {
  const net = rest.networks[0];
  const need = (value: string | undefined, what: string): string => {
    if (value === undefined) throw new Error(`tiny seed has no ${what}`);
    return value;
  };
  if (net === undefined) throw new Error('tiny seed has no network');
  return {
    networkId: net.id,
    organizationId: net.organizationId,
    endpointId: need(net.endpointIds[0], 'endpoint'),
    secondEndpointId: need(net.endpointIds[1], 'second endpoint'),
    serviceId: need(net.serviceIds[0], 'service'),
    appWanId: need(net.appWanIds[0], 'AppWAN'),
    endpointGroupId: need(net.endpointGroupIds[0], 'endpoint group'),
    gatewayClusterId: need(net.gatewayClusterIds[0], 'gateway cluster'),
    templateId: need(rest.networkConfigMetadataIds[0], 'template'),
    subscriptionId: need(rest.cloudSubscriptionIds[0], 'cloud subscription'),
    geoRegionId: need(rest.geoRegionIds[0], 'geo region'),
  };
}

const obj = (v: unknown): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`expected an object, got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
};
const inputOf = (vars: Vars): Record<string, unknown> => obj(vars['input']);
const NIL_UUID = '00000000-0000-4000-8000-000000000000';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const net = (f: Facts, rest = ''): string => `/rest/v1/networks/${f.networkId}${rest}`;
const R = '/rest/v1/networks/{networkId}';

/** A create of a network-scoped kind: POST, the input's fields sent, the new record in the payload. */
function networkCreate(field: string, inputType: string, payloadField: string, collection: string, route: string, input: (f: Facts) => Vars, bad: Vars, badField: string): MutationCase {
  return {
    field,
    varDefs: `$networkId: UUID!, $input: ${inputType}!`,
    args: 'networkId: $networkId, input: $input',
    select: `${payloadField} { id name networkId }`,
    vars: (f) => ({ networkId: f.networkId, input: input(f) }),
    call: `POST ${R}${route}`,
    sent: (body, vars) => expect(body).toMatchObject({ name: inputOf(vars)['name'] }),
    payload: (p, vars) => expect(p[payloadField]).toMatchObject({ id: expect.any(String), name: inputOf(vars)['name'], networkId: vars['networkId'] }),
    bad: { vars: (f) => ({ networkId: f.networkId, input: { ...input(f), ...bad } }), field: badField },
    state: (f) => net(f, collection),
  };
}

/** An update: GET then PUT carrying the record's other attributes with the change applied. */
function update(field: string, inputType: string, payloadField: string, ids: (f: Facts) => Vars, route: string, path: (f: Facts) => string, keep: string): MutationCase {
  // Network-scoped kinds take the network's id as an argument; a network itself does not.
  const scoped = route.includes('{networkId}/');
  return {
    field,
    varDefs: `${scoped ? '$networkId: UUID!, ' : ''}$id: UUID!, $input: ${inputType}!`,
    args: `${scoped ? 'networkId: $networkId, ' : ''}id: $id, input: $input`,
    select: `${payloadField} { id name }`,
    vars: (f) => ({ ...ids(f), input: { name: `renamed ${field}` } }),
    call: `PUT ${route}`,
    // The full representation: the new name plus an attribute the input did not mention.
    sent: (body, vars) => {
      expect(body).toMatchObject({ name: inputOf(vars)['name'], id: expect.any(String) });
      expect(obj(body)).toHaveProperty(keep);
    },
    payload: (p, vars) => expect(p[payloadField]).toMatchObject({ id: vars['id'], name: inputOf(vars)['name'] }),
    bad: { vars: (f) => ({ ...ids(f), input: { name: '' } }), field: 'input.name' },
    state: path,
  };
}

/** A delete: DELETE, no body, the payload names the id. */
function destroy(field: string, ids: (f: Facts) => Vars, route: string, path: (f: Facts) => string, scopedVars = true): MutationCase {
  const scoped = route.includes('{networkId}') && scopedVars;
  return {
    field,
    varDefs: `${scoped ? '$networkId: UUID!, ' : ''}$id: UUID!`,
    args: `${scoped ? 'networkId: $networkId, ' : ''}id: $id`,
    select: '',
    vars: ids,
    call: `DELETE ${route}`,
    payload: (p, vars) => expect(p['id']).toBe(vars['id']),
    bad: { vars: (f) => ({ ...ids(f), id: 'not-a-uuid' }), field: '' },
    state: path,
  };
}

/** A member change: POST or DELETE with `{ ids }`, the parent in the payload. */
function memberChange(field: string, method: 'POST' | 'DELETE', parentField: string, parentRoute: string, list: string, parentId: (f: Facts) => string, member: (f: Facts) => string): MutationCase {
  return {
    field,
    varDefs: '$networkId: UUID!, $id: UUID!, $input: MemberIdsInput!',
    args: 'networkId: $networkId, id: $id, input: $input',
    select: `${parentField} { id }`,
    vars: (f) => ({ networkId: f.networkId, id: parentId(f), input: { ids: [member(f)] } }),
    call: `${method} ${R}${parentRoute}/${list}`,
    sent: (body, vars) => expect(body).toEqual({ ids: inputOf(vars)['ids'] }),
    payload: (p, vars) => expect(p[parentField]).toMatchObject({ id: vars['id'] }),
    bad: { vars: (f) => ({ networkId: f.networkId, id: parentId(f), input: { ids: [] } }), field: 'input.ids' },
    state: (f) => net(f, `${parentRoute.replace(/\{[a-zA-Z]+\}/, parentId(f))}/${list}`),
  };
}

const ids = {
  network: (f: Facts) => ({ id: f.networkId }),
  endpoint: (f: Facts) => ({ networkId: f.networkId, id: f.endpointId }),
  service: (f: Facts) => ({ networkId: f.networkId, id: f.serviceId }),
  appWan: (f: Facts) => ({ networkId: f.networkId, id: f.appWanId }),
  endpointGroup: (f: Facts) => ({ networkId: f.networkId, id: f.endpointGroupId }),
  gatewayCluster: (f: Facts) => ({ networkId: f.networkId, id: f.gatewayClusterId }),
};

export const mutationCases: MutationCase[] = [
  {
    field: 'createNetwork',
    varDefs: '$input: CreateNetworkInput!',
    args: 'input: $input',
    select: 'network { id name status statusName }',
    vars: () => ({ input: { name: 'branch offices' } }),
    call: 'POST /rest/v1/networks',
    sent: (body) => expect(body).toEqual({ name: 'branch offices' }),
    payload: (p) => {
      expect(p).toMatchObject({ accepted: true, httpStatus: 202 });
      expect(p['network']).toMatchObject({ name: 'branch offices', status: 100, statusName: 'NEW' });
    },
    bad: { vars: () => ({ input: { name: '  ' } }), field: 'input.name' },
    state: () => '/rest/v1/networks?size=200',
  },
  {
    field: 'createNetworkFromBlueprint',
    varDefs: '$group: UUID!, $input: NetworkBlueprintInput!',
    args: 'networkGroupId: $group, input: $input',
    select: 'network { id name }',
    vars: (f) => ({ group: f.organizationId, input: { blueprint: 'network:\n  name: from blueprint\nendpoints:\n  - name: gw1\n    endpointType: GW\n' } }),
    call: 'POST /rest/v1/organizations/{organizationId}/networks',
    sent: (body) => expect(body).toContain('  name: from blueprint'),
    payload: (p) => {
      expect(p).toMatchObject({ accepted: true, businessKey: expect.any(String) });
      expect(p['network']).toMatchObject({ name: 'from blueprint' });
    },
    bad: { vars: (f) => ({ group: f.organizationId, input: { blueprint: 'name: [unclosed' } }), field: 'input.blueprint' },
    state: () => '/rest/v1/networks?size=200',
  },
  update('updateNetwork', 'UpdateNetworkInput', 'network', ids.network, '/rest/v1/networks/{networkId}', (f) => net(f), 'productFamily'),
  destroy('deleteNetwork', ids.network, '/rest/v1/networks/{networkId}', (f) => net(f), false),

  networkCreate('createEndpoint', 'CreateEndpointInput', 'endpoint', '/endpoints?size=200', '/endpoints', (f) => ({ name: 'laptop-42', endpointType: 'ZTCL', geoRegionId: f.geoRegionId }), { endpointType: 'zt cl' }, 'input.endpointType'),
  {
    field: 'importEndpoints',
    varDefs: '$networkId: UUID!, $input: ImportEndpointsInput!',
    args: 'networkId: $networkId, input: $input',
    select: 'endpoints { name endpointType }',
    vars: (f) => ({ networkId: f.networkId, input: { csv: 'NAME,ENDPOINTTYPE\nphone-1,ZTCL\nphone-2,ZTCL\n' } }),
    call: `POST ${R}/endpoints`,
    sent: (body) => expect(body).toBe('NAME,ENDPOINTTYPE\nphone-1,ZTCL\nphone-2,ZTCL\n'),
    payload: (p) => {
      expect(p).toMatchObject({ accepted: true, businessKey: expect.any(String) });
      expect(p['endpoints']).toEqual([{ name: 'phone-1', endpointType: 'ZTCL' }, { name: 'phone-2', endpointType: 'ZTCL' }]);
    },
    bad: { vars: (f) => ({ networkId: f.networkId, input: { csv: 'NAME,ENDPOINTTYPE\nphone-1,ZTCL\nphone-1,GW\n' } }), field: 'input.csv' },
    state: (f) => net(f, '/endpoints?size=200'),
  },
  update('updateEndpoint', 'UpdateEndpointInput', 'endpoint', ids.endpoint, `${R}/endpoints/{endpointId}`, (f) => net(f, `/endpoints/${f.endpointId}`), 'endpointType'),
  destroy('deleteEndpoint', ids.endpoint, `${R}/endpoints/{endpointId}`, (f) => net(f, `/endpoints/${f.endpointId}`)),

  networkCreate(
    'createService',
    'CreateServiceInput',
    'service',
    '/services?size=200',
    '/services',
    (f) => ({ name: 'intranet', serviceClass: 'CS', networkIp: '10.1.2.3', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.0.1', endpointId: f.endpointId }),
    { gatewayClusterId: NIL_UUID },
    'input.endpointId',
  ),
  update('updateService', 'UpdateServiceInput', 'service', ids.service, `${R}/services/{serviceId}`, (f) => net(f, `/services/${f.serviceId}`), 'networkIp'),
  destroy('deleteService', ids.service, `${R}/services/{serviceId}`, (f) => net(f, `/services/${f.serviceId}`)),

  networkCreate('createAppWan', 'CreateAppWanInput', 'appWan', '/appWans?size=200', '/appWans', () => ({ name: 'contractors' }), { name: '' }, 'input.name'),
  update('updateAppWan', 'UpdateAppWanInput', 'appWan', ids.appWan, `${R}/appWans/{appWanId}`, (f) => net(f, `/appWans/${f.appWanId}`), 'ownerIdentityId'),
  destroy('deleteAppWan', ids.appWan, `${R}/appWans/{appWanId}`, (f) => net(f, `/appWans/${f.appWanId}`)),
  memberChange('addAppWanEndpoints', 'POST', 'appWan', '/appWans/{appWanId}', 'endpoints', (f) => f.appWanId, (f) => f.secondEndpointId),
  memberChange('removeAppWanEndpoints', 'DELETE', 'appWan', '/appWans/{appWanId}', 'endpoints', (f) => f.appWanId, (f) => f.endpointId),
  memberChange('addAppWanServices', 'POST', 'appWan', '/appWans/{appWanId}', 'services', (f) => f.appWanId, (f) => f.serviceId),
  memberChange('removeAppWanServices', 'DELETE', 'appWan', '/appWans/{appWanId}', 'services', (f) => f.appWanId, (f) => f.serviceId),
  memberChange('addAppWanEndpointGroups', 'POST', 'appWan', '/appWans/{appWanId}', 'endpointGroups', (f) => f.appWanId, (f) => f.endpointGroupId),
  memberChange('removeAppWanEndpointGroups', 'DELETE', 'appWan', '/appWans/{appWanId}', 'endpointGroups', (f) => f.appWanId, (f) => f.endpointGroupId),

  networkCreate('createEndpointGroup', 'CreateNetworkResourceInput', 'endpointGroup', '/endpointGroups', '/endpointGroups', () => ({ name: 'kiosks' }), { attributes: { name: 'x' } }, 'input.attributes.name'),
  update('updateEndpointGroup', 'UpdateNetworkResourceInput', 'endpointGroup', ids.endpointGroup, `${R}/endpointGroups/{endpointGroupId}`, (f) => net(f, `/endpointGroups/${f.endpointGroupId}`), 'ownerIdentityId'),
  destroy('deleteEndpointGroup', ids.endpointGroup, `${R}/endpointGroups/{endpointGroupId}`, (f) => net(f, `/endpointGroups/${f.endpointGroupId}`)),
  memberChange('addEndpointGroupEndpoints', 'POST', 'endpointGroup', '/endpointGroups/{endpointGroupId}', 'endpoints', (f) => f.endpointGroupId, (f) => f.secondEndpointId),
  memberChange('removeEndpointGroupEndpoints', 'DELETE', 'endpointGroup', '/endpointGroups/{endpointGroupId}', 'endpoints', (f) => f.endpointGroupId, (f) => f.endpointId),

  networkCreate('createGatewayCluster', 'CreateNetworkResourceInput', 'gatewayCluster', '/gatewayClusters', '/gatewayClusters', (f) => ({ name: 'ha-east', attributes: { geoRegionId: f.geoRegionId } }), { attributes: [1] }, 'input.attributes'),
  update('updateGatewayCluster', 'UpdateNetworkResourceInput', 'gatewayCluster', ids.gatewayCluster, `${R}/gatewayClusters/{gatewayClusterId}`, (f) => net(f, `/gatewayClusters/${f.gatewayClusterId}`), 'ownerIdentityId'),
  destroy('deleteGatewayCluster', ids.gatewayCluster, `${R}/gatewayClusters/{gatewayClusterId}`, (f) => net(f, `/gatewayClusters/${f.gatewayClusterId}`)),
];

/** Rows that need ids read from the running seed (a CA id, an endpoint's name, a site id). */
export interface LiveIds {
  ca: string;
  endpointName: string;
  siteId: string;
}

/** `f` and `live` are read when a row runs (the test fills them in once the seed is up). */
export function moreCases(f: Facts, live: LiveIds): MutationCase[] {
  const caIds = () => ({ networkId: f.networkId, id: live.ca });
  const caPath = () => net(f, `/cas/${live.ca}`);
  return [
    networkCreate('createCertificateAuthority', 'CreateNetworkResourceInput', 'certificateAuthority', '/cas', '/cas', () => ({ name: 'corp-ca', attributes: { certPem: PEM } }), { name: '' }, 'input.name'),
    update('updateCertificateAuthority', 'UpdateNetworkResourceInput', 'certificateAuthority', caIds, `${R}/cas/{caId}`, caPath, 'certPem'),
    destroy('deleteCertificateAuthority', caIds, `${R}/cas/{caId}`, caPath),
    {
      field: 'verifyCertificateAuthority',
      varDefs: '$networkId: UUID!, $id: UUID!',
      args: 'networkId: $networkId, id: $id',
      select: 'certificateAuthority { id attributes }',
      vars: caIds,
      call: `POST ${R}/cas/{caId}/verify`,
      payload: (p) => expect(p['certificateAuthority']).toMatchObject({ id: live.ca, attributes: expect.objectContaining({ isVerified: true }) }),
      bad: { vars: () => ({ networkId: 'nope', id: live.ca }), field: '' },
      state: caPath,
    },
    {
      field: 'createNetworkConfigMetadata',
      varDefs: '$input: CreateNetworkConfigMetadataInput!',
      args: 'input: $input',
      select: 'networkConfigMetadata { id name gatewayVolumeSize }',
      vars: () => ({ input: { name: 'xl', gatewayVolumeSize: 64 } }),
      call: 'POST /rest/v1/networkConfigMetadata',
      sent: (body) => expect(body).toEqual({ name: 'xl', gatewayVolumeSize: 64 }),
      payload: (p) => expect(p['networkConfigMetadata']).toMatchObject({ name: 'xl', gatewayVolumeSize: 64 }),
      bad: { vars: () => ({ input: { name: 'xl', gatewayVolumeSize: -1 } }), field: 'input.gatewayVolumeSize' },
      state: () => '/rest/v1/networkConfigMetadata',
    },
    {
      ...update('updateNetworkConfigMetadata', 'UpdateNetworkConfigMetadataInput', 'networkConfigMetadata', () => ({ id: f.templateId }), '/rest/v1/networkConfigMetadata/{networkConfigMetadataId}', () => `/rest/v1/networkConfigMetadata/${f.templateId}`, 'cloudaGatewaySize'),
      // A redefine body sends the server-set fields as null.
      sent: (body) => expect(body).toMatchObject({ name: 'renamed updateNetworkConfigMetadata', id: null, organizationId: null, ownerIdentityId: null, createdAt: null, updatedAt: null }),
    },
    destroy('deleteNetworkConfigMetadata', () => ({ id: f.templateId }), '/rest/v1/networkConfigMetadata/{networkConfigMetadataId}', () => `/rest/v1/networkConfigMetadata/${f.templateId}`),
    {
      field: 'createCloudSubscription',
      varDefs: '$input: CreateCloudSubscriptionInput!',
      args: 'input: $input',
      select: 'cloudSubscription { id name tenantId }',
      vars: () => ({ input: { name: 'prod', subscriptionId: 'sub-1', tenantId: 'tenant-1', applicationId: 'app-1', applicationKey: 'S3CRET-KEY-123' } }),
      call: 'POST /rest/v1/azureSubscriptions',
      sent: (body) => expect(body).toMatchObject({ applicationKey: 'S3CRET-KEY-123' }),
      payload: (p) => expect(p['cloudSubscription']).toMatchObject({ name: 'prod', tenantId: 'tenant-1' }),
      bad: { vars: () => ({ input: { name: 'prod', subscriptionId: 'sub-1', tenantId: '', applicationId: 'app-1', applicationKey: 'k' } }), field: 'input.tenantId' },
      state: () => '/rest/v1/azureSubscriptions',
    },
    {
      field: 'updateCloudSubscription',
      varDefs: '$id: UUID!, $input: UpdateCloudSubscriptionInput!',
      args: 'id: $id, input: $input',
      select: 'cloudSubscription { id name }',
      vars: () => ({ id: f.subscriptionId, input: { name: 'renamed', applicationKey: 'NEW-KEY-456' } }),
      call: 'PUT /rest/v1/azureSubscriptions/{azureSubscriptionId}',
      sent: (body) => expect(body).toMatchObject({ name: 'renamed', applicationKey: 'NEW-KEY-456', tenantId: expect.any(String) }),
      payload: (p) => expect(p['cloudSubscription']).toMatchObject({ id: f.subscriptionId, name: 'renamed' }),
      bad: { vars: () => ({ id: f.subscriptionId, input: { applicationKey: '' } }), field: 'input.applicationKey' },
      state: () => `/rest/v1/azureSubscriptions/${f.subscriptionId}`,
    },
    destroy('deleteCloudSubscription', () => ({ id: f.subscriptionId }), '/rest/v1/azureSubscriptions/{azureSubscriptionId}', () => `/rest/v1/azureSubscriptions/${f.subscriptionId}`),
    {
      field: 'createVirtualWanSite',
      varDefs: '$sub: UUID!, $input: CreateVirtualWanSiteInput!',
      args: 'cloudSubscriptionId: $sub, input: $input',
      select: 'virtualWanSite { id name publicIpAddress bgp { advertisedPrefixes localPeeringAddress { asn } } }',
      vars: () => ({
        sub: f.subscriptionId,
        input: { name: 'branch-7', endpointId: f.endpointId, publicIpAddress: '203.0.113.7', bgp: { localPeeringAddress: { ipAddress: '10.0.0.1', asn: 4200000001 }, advertisedPrefixes: ['10.7.0.0/16'] } },
      }),
      call: 'POST /rest/v1/azureSubscriptions/{azureSubscriptionId}/virtualWanSites',
      sent: (body) => expect(body).toMatchObject({ name: 'branch-7', cloudbSubscriptionId: f.subscriptionId, bgp: { localPeeringAddress: { asn: 4200000001 } } }),
      payload: (p) => expect(p['virtualWanSite']).toMatchObject({ name: 'branch-7', publicIpAddress: '203.0.113.7', bgp: { advertisedPrefixes: ['10.7.0.0/16'] } }),
      bad: { vars: () => ({ sub: f.subscriptionId, input: { name: 'b', endpointId: f.endpointId, bgp: { advertisedPrefixes: ['10.7.0.0/33'] } } }), field: 'input.bgp.advertisedPrefixes[0]' },
      state: () => `/rest/v1/azureSubscriptions/${f.subscriptionId}/virtualWanSites`,
    },
    {
      field: 'importServices',
      varDefs: '$networkId: UUID!, $input: ImportServicesInput!',
      args: 'networkId: $networkId, input: $input',
      select: 'services { name }',
      vars: () => ({ networkId: f.networkId, input: { csv: `NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nwiki-2,CS,TCP,10.0.0.30,80-81,${live.endpointName}\n` } }),
      call: `POST ${R}/services`,
      sent: (body) => expect(body).toContain(`wiki-2,CS,TCP,10.0.0.30,80-81,${live.endpointName}`),
      payload: (p) => expect(p['services']).toEqual([{ name: 'wiki-2' }]),
      bad: { vars: () => ({ networkId: f.networkId, input: { csv: 'NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nwiki-2,CS,TCP,10.0.0.300,80,x\n' } }), field: 'input.csv' },
      state: () => net(f, '/services?size=200'),
    },
    {
      field: 'deleteVirtualWanSite',
      varDefs: '$sub: UUID!, $id: UUID!',
      args: 'cloudSubscriptionId: $sub, id: $id',
      select: '',
      vars: () => ({ sub: f.subscriptionId, id: live.siteId }),
      call: 'DELETE /rest/v1/azureSubscriptions/{azureSubscriptionId}/virtualWanSites/{siteId}',
      payload: (p) => expect(p['id']).toBe(live.siteId),
      bad: { vars: () => ({ sub: 'x', id: live.siteId }), field: '' },
      state: () => `/rest/v1/azureSubscriptions/${f.subscriptionId}/virtualWanSites`,
    },
    {
      field: 'updateNetworkGroup',
      varDefs: '$id: UUID!, $input: UpdateNetworkGroupInput!',
      args: 'id: $id, input: $input',
      select: 'networkGroup { id name mfaRequired }',
      vars: () => ({ id: f.organizationId, input: { mfaRequired: true } }),
      call: 'PUT /rest/v1/organizations/{organizationId}',
      sent: (body) => expect(body).toMatchObject({ mfaRequired: true, name: expect.any(String), billingAccountId: expect.any(String) }),
      payload: (p) => expect(p['networkGroup']).toMatchObject({ id: f.organizationId, mfaRequired: true }),
      bad: { vars: () => ({ id: f.organizationId, input: { name: null } }), field: 'input.name' },
      state: () => `/rest/v1/organizations/${f.organizationId}`,
    },
  ];
}
