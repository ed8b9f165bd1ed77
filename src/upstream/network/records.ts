/**
 * rest/v1 and identity/v1 wire records (`XxxRecord`), with the platform's fields. Field names keep
 * the wire's casing; codegen mappers bind the GraphQL types to these, and renaming or linking
 * happens in the field resolvers.
 */
import { Fields, isObject, type JsonObject } from '../../core/parse';
import { recordIdParser, recordParser, withoutHal, type RecordOf } from './record-spec';

const stamps = { id: 'id', createdAt: 'str', updatedAt: 'str' } as const;

const networkSpec = {
  ...stamps,
  name: 'str',
  caName: 'str',
  productFamily: 'str',
  productVersion: 'str',
  provisionedAt: 'str',
  officeBreakoutCategory: 'str',
  mfaClientId: 'str',
  mfaIssuerId: 'str',
  status: 'int',
  organizationId: 'str',
  ownerIdentityId: 'str',
  networkConfigMetadataId: 'str',
} as const;
export type NetworkRecord = RecordOf<typeof networkSpec>;
export const parseNetwork = recordParser(networkSpec, 'Network');

const organizationSpec = {
  ...stamps,
  name: 'str',
  organizationShortName: 'str',
  mfaRequired: 'bool',
  svcEnabled: 'bool',
  cloudaAutoScalingGatewayEnabled: 'bool',
  defaultCloudbVirtualWanId: 'str',
  billingAccountId: 'str',
  ownerIdentityId: 'str',
} as const;
/** A network group (the upstream still calls it organization). */
export type NetworkGroupRecord = RecordOf<typeof organizationSpec>;
export const parseNetworkGroup = recordParser(organizationSpec, 'NetworkGroup');

const endpointSpec = {
  ...stamps,
  name: 'str',
  networkId: 'str',
  geoRegionId: 'str',
  dataCenterId: 'str',
  gatewayClusterId: 'str',
  endpointType: 'str',
  clientMfaEnable: 'str',
  clientType: 'str',
  clientVersion: 'str',
  componentId: 'str',
  countryId: 'str',
  endpointProtectionRole: 'str',
  haEndpointType: 'str',
  officeBreakoutNextHopIp: 'str',
  sessionIdentityId: 'str',
  source: 'str',
  syncId: 'str',
  ownerIdentityId: 'str',
  registrationKey: 'str',
  registrationAttemptsLeft: 'int',
  currentState: 'int',
  status: 'int',
  sessionStatus: 'int',
  stateLastUpdated: 'str',
} as const;
export type EndpointRecord = RecordOf<typeof endpointSpec>;
export const parseEndpoint = recordParser(endpointSpec, 'Endpoint');
/** An endpoint list item's id, checked as `parseEndpoint` checks it (member lists the membership index inverts). */
export const parseEndpointId = recordIdParser(endpointSpec, 'Endpoint');

const serviceSpec = {
  ...stamps,
  name: 'str',
  serviceClass: 'str',
  serviceInterceptType: 'str',
  serviceType: 'str',
  lowLatency: 'str',
  dataInterleaving: 'str',
  transparency: 'str',
  icmpTunnel: 'str',
  permanentConnection: 'str',
  rateSmoothing: 'str',
  multicast: 'str',
  dnsOptions: 'str',
  cryptoLevel: 'str',
  collectionLocation: 'str',
  pbrType: 'str',
  networkIp: 'str',
  networkNetmask: 'str',
  networkFirstPort: 'int',
  networkLastPort: 'int',
  interceptIp: 'str',
  interceptDnsHostname: 'str',
  interceptDnsPort: 'int',
  interceptFirstPort: 'int',
  interceptLastPort: 'int',
  interceptIncludePorts: 'json',
  interceptExcludePorts: 'json',
  portInterceptMode: 'str',
  protectionGroupId: 'str',
  localNetworkGateway: 'str',
  gatewayIp: 'str',
  gatewayNetmask: 'str',
  gatewayCidrBlock: 'str',
  netflowIndex: 'int',
  profileIndex: 'int',
  officeConflict: 'bool',
  status: 'int',
  endpointId: 'str',
  gatewayClusterId: 'str',
  networkId: 'str',
  ownerIdentityId: 'str',
} as const;
/** `interceptPorts`: port ranges clients are intercepted on (`include`) and left alone on (`exclude`). */
export interface InterceptPortsRecord {
  include: string[];
  exclude: string[];
}
export type ServiceRecord = RecordOf<typeof serviceSpec> & { interceptPorts: InterceptPortsRecord | null };
export const parseService = recordParser(serviceSpec, 'Service', {
  interceptPorts(obj): InterceptPortsRecord | null {
    const ports = obj['interceptPorts'];
    return isObject(ports) ? { include: portList(ports['include']), exclude: portList(ports['exclude']) } : null;
  },
});
function portList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : []));
}

const appWanSpec = { ...stamps, name: 'str', networkId: 'str', ownerIdentityId: 'str', status: 'int' } as const;
export type AppWanRecord = RecordOf<typeof appWanSpec>;
export const parseAppWan = recordParser(appWanSpec, 'AppWan');

const networkConfigMetadataSpec = {
  ...stamps,
  name: 'str',
  cloudaNetworkControllerSize: 'str',
  cloudaGatewaySize: 'str',
  cloudaTransferNodeSize: 'str',
  cloudbTransferNodeSize: 'str',
  cloudcTransferNodeSize: 'str',
  clouddTransferNodeSize: 'str',
  networkControllerVolumeSize: 'int',
  transferNodeVolumeSize: 'int',
  gatewayVolumeSize: 'int',
  organizationId: 'str',
  ownerIdentityId: 'str',
} as const;
export type NetworkConfigMetadataRecord = RecordOf<typeof networkConfigMetadataSpec>;
export const parseNetworkConfigMetadata = recordParser(networkConfigMetadataSpec, 'NetworkConfigMetadata');

// applicationKey is a secret the upstream omits from fetches; it is deliberately not read.
const cloudSubscriptionSpec = {
  ...stamps,
  name: 'str',
  subscriptionId: 'str',
  tenantId: 'str',
  applicationId: 'str',
  organizationId: 'str',
  ownerIdentityId: 'str',
} as const;
export type CloudSubscriptionRecord = RecordOf<typeof cloudSubscriptionSpec>;
export const parseCloudSubscription = recordParser(cloudSubscriptionSpec, 'CloudSubscription');

const virtualWanSiteSpec = {
  ...stamps,
  name: 'str',
  endpointId: 'str',
  dataCenterId: 'str',
  cloudbSubscriptionId: 'str',
  cloudbResourceGroupName: 'str',
  cloudbVirtualWanId: 'str',
  publicIpAddress: 'str',
} as const;
export interface BgpPeerRecord {
  ipAddress: string | null;
  asn: number | null;
}
export interface BgpRecord {
  localPeeringAddress: BgpPeerRecord | null;
  neighborPeers: BgpPeerRecord[];
  bgpPeerWeight: number | null;
  deviceLinkSpeed: number | null;
  deviceVendor: string | null;
  deviceModel: string | null;
  advertiseLocal: boolean | null;
  advertisedPrefixes: string[];
}
export type VirtualWanSiteRecord = RecordOf<typeof virtualWanSiteSpec> & { bgp: BgpRecord | null };
export const parseVirtualWanSite = recordParser(virtualWanSiteSpec, 'VirtualWanSite', {
  bgp(obj): BgpRecord | null {
    const bgp = obj['bgp'];
    return isObject(bgp) ? parseBgp(bgp) : null;
  },
});
function parseBgp(obj: JsonObject): BgpRecord {
  const f = new Fields(obj, 'VirtualWanSite.bgp');
  const local = f.object('localPeeringAddress');
  const neighbors = f.raw('neighborPeers');
  return {
    localPeeringAddress: local === null ? null : parsePeer(local),
    neighborPeers: Array.isArray(neighbors) ? neighbors.filter(isObject).map(parsePeer) : [],
    bgpPeerWeight: f.int('bgpPeerWeight'),
    deviceLinkSpeed: f.int('deviceLinkSpeed'),
    deviceVendor: f.str('deviceVendor'),
    deviceModel: f.str('deviceModel'),
    advertiseLocal: f.bool('advertiseLocal'),
    advertisedPrefixes: f.strList('advertisedPrefixes'),
  };
}
function parsePeer(obj: JsonObject): BgpPeerRecord {
  const f = new Fields(obj, 'BgpPeer');
  return { ipAddress: f.str('ipAddress'), asn: f.int('asn') };
}

const dataCenterSpec = { ...stamps, locationCode: 'str', locationName: 'str', provider: 'str', name: 'str' } as const;
export type DataCenterRecord = RecordOf<typeof dataCenterSpec>;
export const parseDataCenter = recordParser(dataCenterSpec, 'DataCenter');

const geoRegionSpec = { ...stamps, name: 'str' } as const;
export type GeoRegionRecord = RecordOf<typeof geoRegionSpec>;
export const parseGeoRegion = recordParser(geoRegionSpec, 'GeoRegion');

/**
 * Resources whose field lists the contract does not show (endpoint groups, gateway clusters,
 * certificate authorities, service groups, transfer node pools, hosts, controller hosts): the
 * common fields typed, everything else kept as `attributes` so nothing the upstream sends is lost.
 */
const opaqueSpec = { ...stamps, name: 'str', networkId: 'str', status: 'int', ownerIdentityId: 'str' } as const;
export type OpaqueRecord = RecordOf<typeof opaqueSpec> & { attributes: JsonObject };
export function opaqueParser(what: string): (value: unknown) => OpaqueRecord {
  return recordParser(opaqueSpec, what, { attributes: withoutHal });
}
export type EndpointGroupRecord = OpaqueRecord;
export type GatewayClusterRecord = OpaqueRecord;
export type CertificateAuthorityRecord = OpaqueRecord;
export type ServiceGroupRecord = OpaqueRecord;
export type TransferNodePoolRecord = OpaqueRecord;
export type HostRecord = OpaqueRecord;
export type NetworkControllerHostRecord = OpaqueRecord;
