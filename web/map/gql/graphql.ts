/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * An instant in time, as an RFC 3339 string in UTC with a `Z` suffix (e.g. `2024-05-01T12:00:00.000Z`).
   * Upstream values with `+0000` or other offsets are normalized to UTC. Inputs accept any RFC 3339
   * date-time with an offset.
   */
  DateTime: { input: string; output: string; }
  /**
   * A free-form JSON value (object, array, string, number, boolean or null), used where the platform's APIs
   * define a map without a fixed shape (masquerade `claims`, grant `privileges`, …).
   */
  JSON: { input: unknown; output: unknown; }
  /**
   * A UUID in its canonical textual form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`). Arguments of this type
   * are validated before any upstream call: a malformed value fails with `BAD_USER_INPUT`.
   */
  UUID: { input: string; output: string; }
};

/** What an AppWAN holds. */
export type AppWanMemberKind =
  /** An endpoint, authorized directly. */
  | 'ENDPOINT'
  /** An endpoint group: every endpoint in it is authorized. */
  | 'ENDPOINT_GROUP'
  /** A service its endpoints may reach. */
  | 'SERVICE';

/** BGP settings of a virtual WAN site. */
export type BgpInput = {
  /** Whether local routes are advertised. */
  advertiseLocal?: InputMaybe<Scalars['Boolean']['input']>;
  /** Advertised prefixes, as CIDR blocks. */
  advertisedPrefixes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** BGP peer weight. */
  bgpPeerWeight?: InputMaybe<Scalars['Int']['input']>;
  /** Device link speed. */
  deviceLinkSpeed?: InputMaybe<Scalars['Int']['input']>;
  /** Device model. */
  deviceModel?: InputMaybe<Scalars['String']['input']>;
  /** Device vendor. */
  deviceVendor?: InputMaybe<Scalars['String']['input']>;
  /** The local peering address. */
  localPeeringAddress?: InputMaybe<BgpPeerInput>;
  /** Neighbor peers. */
  neighborPeers?: InputMaybe<Array<BgpPeerInput>>;
};

/** A BGP peer. */
export type BgpPeerInput = {
  /** Autonomous system number (1 to 4294967294). */
  asn: Scalars['Float']['input'];
  /** IPv4 address of the peer. */
  ipAddress: Scalars['String']['input'];
};

/** A new, empty AppWAN. */
export type CreateAppWanInput = {
  /** Name of the AppWAN. */
  name: Scalars['String']['input'];
};

/** A cloud subscription of provider `cloudb` to store. The application key is write-only: it is never shown or logged. */
export type CreateCloudSubscriptionInput = {
  /** The provider's application id (it needs permission to create virtual WAN sites). */
  applicationId: Scalars['String']['input'];
  /** The application's secret key (write-only). */
  applicationKey: Scalars['String']['input'];
  /** Name of the subscription. */
  name: Scalars['String']['input'];
  /** The provider's subscription id. */
  subscriptionId: Scalars['String']['input'];
  /** The provider's tenant id. */
  tenantId: Scalars['String']['input'];
};

/** A new domain. */
export type CreateDomainInput = {
  /** Short code: not empty, no whitespace (the upstream checks its own pattern too). */
  code: Scalars['String']['input'];
  /** Display name. */
  name: Scalars['String']['input'];
};

/** A new edge router. */
export type CreateEdgeRouterInput = {
  /** Tags of the router: each `#tag` (not `#all`, which is reserved). */
  attributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Id of the data center the router runs in. */
  dataCenterId?: InputMaybe<Scalars['String']['input']>;
  /** True when the router listens for links from other routers. */
  linkListener?: InputMaybe<Scalars['Boolean']['input']>;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** The v2 network. */
  networkId: Scalars['ID']['input'];
};

/** A new edge router policy. */
export type CreateEdgeRouterPolicyInput = {
  /** Which edge routers they may use. Role attributes: `#tag`, `@name` or `#all`. */
  edgeRouterAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Which endpoints the policy covers. Role attributes: `#tag`, `@name` or `#all`. */
  endpointAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** The v2 network. */
  networkId: Scalars['ID']['input'];
};

/** A new endpoint. The network-management API requires `name` (unique in the network) and `endpointType`. */
export type CreateEndpointInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** Client multi-factor authentication (value seen: `NO`). */
  clientMfaEnable?: InputMaybe<Scalars['String']['input']>;
  /** Id of the data center. */
  dataCenterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Endpoint type, uppercase without whitespace: `GW` hosted gateway, `VCPEGW` self-hosted gateway, `ZTGW` bridge gateway, `ZTCL` client, and others the platform defines. */
  endpointType: Scalars['String']['input'];
  /** Id of the gateway cluster the endpoint joins. */
  gatewayClusterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Id of the geographic region (`geoRegions` lists them). */
  geoRegionId?: InputMaybe<Scalars['UUID']['input']>;
  /** Name, unique within the network. */
  name: Scalars['String']['input'];
};

/** A new network configuration template (sizing). */
export type CreateNetworkConfigMetadataInput = {
  /** Instance size of gateways in cloud `clouda`. */
  cloudaGatewaySize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of the network controller in cloud `clouda`. */
  cloudaNetworkControllerSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `clouda`. */
  cloudaTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudb`. */
  cloudbTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudc`. */
  cloudcTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudd`. */
  clouddTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Volume size of gateways, 0 or more. */
  gatewayVolumeSize?: InputMaybe<Scalars['Int']['input']>;
  /** Name of the template. */
  name: Scalars['String']['input'];
  /** Volume size of the network controller (the API does not document its unit), 0 or more. */
  networkControllerVolumeSize?: InputMaybe<Scalars['Int']['input']>;
  /** Volume size of transfer nodes, 0 or more. */
  transferNodeVolumeSize?: InputMaybe<Scalars['Int']['input']>;
};

/** A new network. `name` is the only field the network-management API requires. */
export type CreateNetworkInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** Name of the network. */
  name: Scalars['String']['input'];
  /** Id of the sizing template (`networkConfigMetadatas` lists them); the upstream picks one when absent. */
  networkConfigMetadataId?: InputMaybe<Scalars['UUID']['input']>;
  /** Office-suite breakout category (value seen: `NONE`). */
  officeBreakoutCategory?: InputMaybe<Scalars['String']['input']>;
  /** Id of the owning network group; the caller's own group when absent. */
  organizationId?: InputMaybe<Scalars['UUID']['input']>;
  /** Product family (values seen: `SVC_ENABLED`, `DVN`). */
  productFamily?: InputMaybe<Scalars['String']['input']>;
  /** Product version. */
  productVersion?: InputMaybe<Scalars['String']['input']>;
};

/**
 * A new resource whose fields the network-management API does not document (endpoint group, gateway cluster,
 * certificate authority): a name, and the upstream's other fields as they are.
 */
export type CreateNetworkResourceInput = {
  /** Other upstream fields (e.g. a certificate authority's PEM), sent as they are; must not hold `name`. */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** Name, unique within the network. */
  name: Scalars['String']['input'];
};

/** A new public grant. */
export type CreatePublicGrantInput = {
  /** False (default): all authenticated clients; true: anonymous clients too. */
  anonymous?: InputMaybe<Scalars['Boolean']['input']>;
  /** The resources the grant applies to; empty for all resources of the action's type. */
  path: Array<PublicGrantPathInput>;
  /** The resource action granted. */
  resourceActionId?: InputMaybe<Scalars['UUID']['input']>;
};

/** New actions on a resource type. */
export type CreateResourceActionsInput = {
  /** The actions (at least one). */
  actions: Array<ResourceActionDefinitionInput>;
  /** The resource type the actions apply to. */
  resourceTypeId?: InputMaybe<Scalars['UUID']['input']>;
};

/** A new resource type (with nested children) in a domain, optionally under a parent type. */
export type CreateResourceTypeInput = {
  /** The domain to create the type in (needs `read` on it). */
  domainId?: InputMaybe<Scalars['UUID']['input']>;
  /** The parent type; omitted for a root type. */
  parentId?: InputMaybe<Scalars['UUID']['input']>;
  /** The type itself, with nested children. */
  resourceType: ResourceTypeDefinitionInput;
};

/**
 * A new service. Exactly one terminator: `endpointId` (a gateway endpoint) or `gatewayClusterId`
 * (high availability). Ports are 0 to 65535 with first <= last.
 */
export type CreateServiceInput = {
  /** Other upstream fields (`lowLatency`, `cryptoLevel`, …), sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** The terminating gateway endpoint (exactly one of this and `gatewayClusterId`). */
  endpointId?: InputMaybe<Scalars['UUID']['input']>;
  /** Gateway CIDR block (gateway services). */
  gatewayCidrBlock?: InputMaybe<Scalars['String']['input']>;
  /** The terminating high-availability cluster (exactly one of this and `endpointId`). */
  gatewayClusterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Gateway IP (gateway services). */
  gatewayIp?: InputMaybe<Scalars['String']['input']>;
  /** Gateway netmask (gateway services). */
  gatewayNetmask?: InputMaybe<Scalars['String']['input']>;
  /** DNS name clients use. */
  interceptDnsHostname?: InputMaybe<Scalars['String']['input']>;
  /** DNS port clients use. */
  interceptDnsPort?: InputMaybe<Scalars['Int']['input']>;
  /** First port clients use. */
  interceptFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Address clients use (dotted quad or CIDR). */
  interceptIp?: InputMaybe<Scalars['String']['input']>;
  /** Last port clients use. */
  interceptLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** Name of the service. */
  name: Scalars['String']['input'];
  /** First server port. */
  networkFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Server address: a dotted quad, or a CIDR block for gateway services. */
  networkIp: Scalars['String']['input'];
  /** Last server port. */
  networkLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** Server netmask. */
  networkNetmask?: InputMaybe<Scalars['String']['input']>;
  /** Service class: CS (a range of ports on one IP), GW (ports on a range of IPs), ICMP. */
  serviceClass: ServiceClass;
  /** How traffic is intercepted (value seen: `IP`). */
  serviceInterceptType?: InputMaybe<Scalars['String']['input']>;
  /** Protocol; the upstream's default (TCP) when absent. */
  serviceType?: InputMaybe<ServiceProtocol>;
};

/** A new super-user grant. */
export type CreateSuperUserInput = {
  /** The domain; omit or null for all domains. */
  domainId?: InputMaybe<Scalars['UUID']['input']>;
  /** The identity to make super user. */
  identityId: Scalars['UUID']['input'];
};

/** A new v2 AppWAN. */
export type CreateV2AppWanInput = {
  /** Which endpoints the AppWAN covers. Role attributes: `#tag`, `@name` or `#all`. */
  endpointAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** The v2 network. */
  networkId: Scalars['ID']['input'];
  /** Which services the AppWAN grants. Role attributes: `#tag`, `@name` or `#all`. */
  serviceAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** A new v2 endpoint. */
export type CreateV2EndpointInput = {
  /** Tags of the endpoint: each `#tag` (not `#all`). */
  attributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** How the endpoint enrolls. */
  enrollmentMethod?: InputMaybe<V2EnrollmentMethodInput>;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** The v2 network. */
  networkId: Scalars['ID']['input'];
};

/** A new v2 network. */
export type CreateV2NetworkInput = {
  /** Cloud region code of the controller node. */
  locationCode?: InputMaybe<Scalars['String']['input']>;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** Id of the sizing template. */
  networkConfigMetadataId?: InputMaybe<Scalars['String']['input']>;
  /** Id of the network group. */
  networkGroupId?: InputMaybe<Scalars['String']['input']>;
};

/** A new v2 service. */
export type CreateV2ServiceInput = {
  /** Tags of the service: each `#tag` (not `#all`). */
  attributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** True when traffic must be end-to-end encrypted. */
  encryptionRequired?: InputMaybe<Scalars['Boolean']['input']>;
  /** The hosting model, in the shape `modelType` asks for. */
  model: V2ServiceModelInput;
  /** How the service is hosted: decides which `model` fields are given. */
  modelType: V2ServiceModelType;
  /** Name (not empty). */
  name: Scalars['String']['input'];
  /** The v2 network. */
  networkId: Scalars['ID']['input'];
};

/** A virtual WAN branch site of provider `cloudb` (a special endpoint with route metadata). */
export type CreateVirtualWanSiteInput = {
  /** BGP settings. */
  bgp?: InputMaybe<BgpInput>;
  /** The provider's resource group name. */
  cloudbResourceGroupName?: InputMaybe<Scalars['String']['input']>;
  /** The provider's virtual WAN (a resource path). */
  cloudbVirtualWanId?: InputMaybe<Scalars['String']['input']>;
  /** Id of the data center. */
  dataCenterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Id of the endpoint behind the site. */
  endpointId: Scalars['UUID']['input'];
  /** Name of the site. */
  name: Scalars['String']['input'];
  /** Public IPv4 address of the site. */
  publicIpAddress?: InputMaybe<Scalars['String']['input']>;
};

/** The kinds of grant the authorization service knows. */
export type GrantType =
  /** A grant through a custom role. */
  | 'CustomRole'
  /** A grant of one resource action to one identity. */
  | 'IdentityResourceAction'
  /** A public grant: every authenticated client, or every client including anonymous ones. */
  | 'PublicGrant'
  /** A super-user grant: all actions in one domain or in all domains. */
  | 'SuperUser';

/**
 * Endpoints as CSV, in the network-management API's upload format: a heading row, then one
 * endpoint per row. Headings: NAME (required, unique in the network), ENDPOINTTYPE (required,
 * uppercase), GEOREGION (a region's display name), DATACENTER (a data center's `locationName`),
 * PROVIDER. Problems are reported as `row N, column X` before any call.
 */
export type ImportEndpointsInput = {
  /** The CSV text. */
  csv: Scalars['String']['input'];
};

/**
 * Services as CSV, in the network-management API's upload format: a heading row, then one service
 * per row. Headings: NAME, STATUS (ignored), TYPE, PROTOCOLSTRING (TCP, UDP, ALL or ICMP),
 * IPADDRESSSTRING (dotted quad or CIDR), INTERCEPTADDRESS (optional), PORTRANGE (`443` or
 * `8000-8080`), ENDPOINT (name of the terminating endpoint); all but INTERCEPTADDRESS and STATUS required.
 */
export type ImportServicesInput = {
  /** The CSV text. */
  csv: Scalars['String']['input'];
};

/** A token to issue for another identity. */
export type MasqueradeInput = {
  /** Audience of the token (not empty). */
  audience: Scalars['String']['input'];
  /** Claims the token carries (a JSON object). */
  claims: Scalars['JSON']['input'];
  /** The identity the token is for. */
  identityId: Scalars['UUID']['input'];
};

/** Members to add or remove, by id. */
export type MemberIdsInput = {
  /** Ids of the members (at least one, no repeats). */
  ids: Array<Scalars['UUID']['input']>;
};

/** A network described by a YAML blueprint (the as-code form `Network.blueprint` downloads). */
export type NetworkBlueprintInput = {
  /** The YAML document; it must parse and be a mapping. */
  blueprint: Scalars['String']['input'];
};

/** The kinds of a network's resources `networkChanges` follows. */
export type NetworkResourceKind =
  /** An AppWAN: its endpoints (directly and through endpoint groups) may reach its services. */
  | 'APP_WAN'
  /** An endpoint: a client, or a gateway (hosted `GW`, bridge `ZTGW`, self-hosted `VCPEGW`, …). */
  | 'ENDPOINT'
  /** An endpoint group, which an AppWAN may hold in place of its endpoints one by one. */
  | 'ENDPOINT_GROUP'
  /** A service, terminated by an endpoint or a gateway cluster. */
  | 'SERVICE';

/**
 * Everything `provisionAppWan` creates, in the network-management API's usual creation order: the
 * network (or an existing one), a hosted gateway (`GW`), the service it terminates, a bridge
 * gateway (`ZTGW`), client endpoints (`ZTCL`), an empty AppWAN, then the endpoints' and the
 * service's authorization. Exactly one of `networkId` and `network`.
 */
export type ProvisionAppWanInput = {
  /** Name of the AppWAN. */
  appWanName: Scalars['String']['input'];
  /** The bridge gateway endpoint (needed once per AppWAN for overlay clients). */
  bridgeGateway: ProvisionEndpointInput;
  /** Client endpoints (at most 50). */
  clients: Array<ProvisionEndpointInput>;
  /** The hosted gateway endpoint that terminates the service. */
  hostedGateway: ProvisionEndpointInput;
  /** A network to create first. */
  network?: InputMaybe<CreateNetworkInput>;
  /** An existing network to provision in. */
  networkId?: InputMaybe<Scalars['UUID']['input']>;
  /** When a step fails, delete what this provisioning created, in reverse order. @default false */
  rollbackOnFailure?: InputMaybe<Scalars['Boolean']['input']>;
  /** The service. */
  service: ProvisionServiceInput;
};

/** An endpoint to create during a provisioning. */
export type ProvisionEndpointInput = {
  /** Id of the geographic region. */
  geoRegionId?: InputMaybe<Scalars['UUID']['input']>;
  /** Name, unique within the network. */
  name: Scalars['String']['input'];
};

/**
 * The service to create during a provisioning, terminated by the provisioning's hosted gateway
 * (the terminator is not given here). Ports are 0 to 65535 with first <= last.
 */
export type ProvisionServiceInput = {
  /** DNS name clients use. */
  interceptDnsHostname?: InputMaybe<Scalars['String']['input']>;
  /** First port clients use. */
  interceptFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Address clients use (dotted quad or CIDR). */
  interceptIp?: InputMaybe<Scalars['String']['input']>;
  /** Last port clients use. */
  interceptLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** Name of the service. */
  name: Scalars['String']['input'];
  /** First server port. */
  networkFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Server address: a dotted quad, or a CIDR block for gateway services. */
  networkIp: Scalars['String']['input'];
  /** Last server port. */
  networkLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** Service class: CS, GW or ICMP. */
  serviceClass: ServiceClass;
  /** Protocol; the upstream's default (TCP) when absent. */
  serviceType?: InputMaybe<ServiceProtocol>;
};

/** What happened to a created resource when a provisioning failed and asked for rollback. */
export type ProvisioningRollbackState =
  /** The resource was deleted. */
  | 'DELETED'
  /** The delete failed (see `rollbackError`): the resource is still there. */
  | 'FAILED'
  /** No rollback applies: the step created nothing, or rollback was not asked for. */
  | 'NONE'
  /** Waiting for its turn (resources are deleted in reverse creation order). */
  | 'PENDING';

/** Where a whole provisioning stands. */
export type ProvisioningState =
  /** A step failed; what was created is listed (and was deleted again when `rollbackOnFailure` asked for it). */
  | 'FAILED'
  /** Steps are running. */
  | 'RUNNING'
  /** Every step is done. */
  | 'SUCCEEDED';

/** Where one step of a provisioning stands. */
export type ProvisioningStepState =
  /** Finished: the resource reached a good status (or the step needed no change). */
  | 'DONE'
  /** Failed: see `error`; the steps after it do not run. */
  | 'FAILED'
  /** Not started yet. */
  | 'PENDING'
  /** Started: the change was sent and the gateway waits for its status or workflow. */
  | 'RUNNING';

/** One step of a new public grant's path. */
export type PublicGrantPathInput = {
  /** Id of the resource. */
  resourceId: Scalars['String']['input'];
  /** Id of the resource's type. */
  resourceTypeId?: InputMaybe<Scalars['UUID']['input']>;
};

/** One action to create. */
export type ResourceActionDefinitionInput = {
  /** Short code: not empty, no whitespace. */
  code: Scalars['String']['input'];
  /** Display name. */
  name: Scalars['String']['input'];
};

/** Kinds of resources whose life-cycle status `resourceStatus` follows (rest/v1 numeric statuses). */
export type ResourceKind =
  /** An AppWAN of a network (`/networks/{networkId}/appWans/{id}`). */
  | 'APP_WAN'
  /** A core/v2 edge router (`/core/v2/edge-routers/{id}`). */
  | 'EDGE_ROUTER'
  /** A core/v2 edge router policy (`/core/v2/edge-router-policies/{id}`). */
  | 'EDGE_ROUTER_POLICY'
  /** An endpoint of a network (`/networks/{networkId}/endpoints/{id}`). */
  | 'ENDPOINT'
  /** A network (`/networks/{id}`); it needs no `networkId`. */
  | 'NETWORK'
  /** A service of a network (`/networks/{networkId}/services/{id}`). */
  | 'SERVICE'
  /** A core/v2 AppWAN (`/core/v2/app-wans/{id}`). */
  | 'V2_APP_WAN'
  /** A core/v2 endpoint (`/core/v2/endpoints/{id}`). */
  | 'V2_ENDPOINT'
  /** A core/v2 network (`/core/v2/networks/{id}`); status words, no `networkId` needed. */
  | 'V2_NETWORK'
  /** A core/v2 service (`/core/v2/services/{id}`). */
  | 'V2_SERVICE';

/** A resource type to create, with its children (to any depth). */
export type ResourceTypeDefinitionInput = {
  /** Child types created under this one. */
  children?: InputMaybe<Array<ResourceTypeDefinitionInput>>;
  /** Short code: not empty, no whitespace (the upstream checks its own pattern too). */
  code: Scalars['String']['input'];
  /** Display name. */
  name: Scalars['String']['input'];
};

/** Service class: how a service's server side is described (a closed set in the network-management API). */
export type ServiceClass =
  /** Client service: a range of ports on one IP, over TCP, UDP or both. */
  | 'CS'
  /** Gateway service: ports on a range of IPs. */
  | 'GW'
  /** ICMP traffic. */
  | 'ICMP';

/** Protocol of a service (`serviceType`). */
export type ServiceProtocol =
  /** TCP and UDP. */
  | 'ALL'
  /** ICMP. */
  | 'ICMP'
  /** TCP. */
  | 'TCP'
  /** UDP. */
  | 'UDP';

/** Direction of a sort key. */
export type SortDirection =
  /** Ascending: smallest or earliest first. */
  | 'ASC'
  /** Descending: largest or latest first. */
  | 'DESC';

/** One sort key of a list. Lists take several, applied in order; which fields are allowed is listed on each list field. */
export type SortInput = {
  /** Sort direction. */
  direction?: InputMaybe<SortDirection>;
  /** Name of the field to sort by, as named by the upstream (e.g. `name`, `createdAt`). */
  field: Scalars['String']['input'];
};

/** Changes to an AppWAN: fields left out keep their value. */
export type UpdateAppWanInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the AppWAN's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/**
 * Changes to a cloud subscription. The upstream never shows the application key, and a redefine
 * sends every attribute, so the key must be given again.
 */
export type UpdateCloudSubscriptionInput = {
  /** The provider's application id. */
  applicationId?: InputMaybe<Scalars['String']['input']>;
  /** The application's secret key (write-only, required: the upstream cannot give it back). */
  applicationKey: Scalars['String']['input'];
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the subscription's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The provider's subscription id. */
  subscriptionId?: InputMaybe<Scalars['String']['input']>;
  /** The provider's tenant id. */
  tenantId?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to an endpoint: fields left out keep their value, fields set to null are cleared. */
export type UpdateEndpointInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** Client multi-factor authentication. */
  clientMfaEnable?: InputMaybe<Scalars['String']['input']>;
  /** Id of the data center. */
  dataCenterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Endpoint type, uppercase without whitespace. */
  endpointType?: InputMaybe<Scalars['String']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the endpoint's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Id of the gateway cluster. */
  gatewayClusterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Id of the geographic region. */
  geoRegionId?: InputMaybe<Scalars['UUID']['input']>;
  /** New name, unique within the network. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a template: fields left out keep their value, fields set to null are cleared. */
export type UpdateNetworkConfigMetadataInput = {
  /** Instance size of gateways in cloud `clouda`. */
  cloudaGatewaySize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of the network controller in cloud `clouda`. */
  cloudaNetworkControllerSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `clouda`. */
  cloudaTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudb`. */
  cloudbTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudc`. */
  cloudcTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** Instance size of transfer nodes in cloud `cloudd`. */
  clouddTransferNodeSize?: InputMaybe<Scalars['String']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the template's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Volume size of gateways, 0 or more. */
  gatewayVolumeSize?: InputMaybe<Scalars['Int']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** Volume size of the network controller, 0 or more. */
  networkControllerVolumeSize?: InputMaybe<Scalars['Int']['input']>;
  /** Volume size of transfer nodes, 0 or more. */
  transferNodeVolumeSize?: InputMaybe<Scalars['Int']['input']>;
};

/** Changes to a network group: fields left out keep their value, fields set to null are cleared. */
export type UpdateNetworkGroupInput = {
  /** Whether gateways in cloud `clouda` scale automatically. */
  cloudaAutoScalingGatewayEnabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Default virtual WAN of cloud `cloudb`. */
  defaultCloudbVirtualWanId?: InputMaybe<Scalars['String']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the group's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Whether members must use multi-factor authentication. */
  mfaRequired?: InputMaybe<Scalars['Boolean']['input']>;
  /** New display name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** Short name of the group. */
  organizationShortName?: InputMaybe<Scalars['String']['input']>;
  /** Whether the group is of the overlay-enabled product family. */
  svcEnabled?: InputMaybe<Scalars['Boolean']['input']>;
};

/** Changes to a network: fields left out keep their value, fields set to null are cleared. */
export type UpdateNetworkInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** Name of the network's certificate authority. */
  caName?: InputMaybe<Scalars['String']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the network's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Multi-factor authentication client id. */
  mfaClientId?: InputMaybe<Scalars['String']['input']>;
  /** Multi-factor authentication issuer id. */
  mfaIssuerId?: InputMaybe<Scalars['String']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** Id of the sizing template. */
  networkConfigMetadataId?: InputMaybe<Scalars['UUID']['input']>;
  /** Office-suite breakout category. */
  officeBreakoutCategory?: InputMaybe<Scalars['String']['input']>;
  /** Product family. */
  productFamily?: InputMaybe<Scalars['String']['input']>;
  /** Product version. */
  productVersion?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a resource whose fields the network-management API does not document: fields left out keep their value. */
export type UpdateNetworkResourceInput = {
  /** Other upstream fields to change, sent as they are; must not hold `name`. */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the record's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/**
 * Changes to a service: fields left out keep their value, fields set to null are cleared. Setting
 * one terminator (`endpointId` or `gatewayClusterId`) clears the other.
 */
export type UpdateServiceInput = {
  /** Other upstream fields, sent as they are (keys must not repeat a field above). */
  attributes?: InputMaybe<Scalars['JSON']['input']>;
  /** The terminating gateway endpoint (clears `gatewayClusterId`). */
  endpointId?: InputMaybe<Scalars['UUID']['input']>;
  /** When set, the update is refused with CONFLICT (and nothing is sent) unless the service's `updatedAt` is still this instant. */
  expectedUpdatedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Gateway CIDR block. */
  gatewayCidrBlock?: InputMaybe<Scalars['String']['input']>;
  /** The terminating cluster (clears `endpointId`). */
  gatewayClusterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Gateway IP. */
  gatewayIp?: InputMaybe<Scalars['String']['input']>;
  /** Gateway netmask. */
  gatewayNetmask?: InputMaybe<Scalars['String']['input']>;
  /** DNS name clients use. */
  interceptDnsHostname?: InputMaybe<Scalars['String']['input']>;
  /** DNS port clients use. */
  interceptDnsPort?: InputMaybe<Scalars['Int']['input']>;
  /** First port clients use. */
  interceptFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Address clients use. */
  interceptIp?: InputMaybe<Scalars['String']['input']>;
  /** Last port clients use. */
  interceptLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** New name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** First server port. */
  networkFirstPort?: InputMaybe<Scalars['Int']['input']>;
  /** Server address. */
  networkIp?: InputMaybe<Scalars['String']['input']>;
  /** Last server port. */
  networkLastPort?: InputMaybe<Scalars['Int']['input']>;
  /** Server netmask. */
  networkNetmask?: InputMaybe<Scalars['String']['input']>;
  /** Service class. */
  serviceClass?: InputMaybe<ServiceClass>;
  /** How traffic is intercepted. */
  serviceInterceptType?: InputMaybe<Scalars['String']['input']>;
  /** Protocol. */
  serviceType?: InputMaybe<ServiceProtocol>;
};

/** One hosting edge router of a `TunnelerToEdgeRouter` service. */
export type V2EdgeRouterHostInput = {
  /** Id of an edge router of the same network. */
  edgeRouterId: Scalars['ID']['input'];
  /** Where this router sends the service's traffic. */
  serverEgress: V2ServerEgressInput;
};

/** How a new endpoint enrolls. */
export type V2EnrollmentMethodInput = {
  /** True requests a one-time-token enrollment (the token is then read from `V2Endpoint.jwt`). */
  ott: Scalars['Boolean']['input'];
};

/** A host and port. */
export type V2HostPortInput = {
  /** Host name or address (not empty). */
  host: Scalars['String']['input'];
  /** Port, 1 to 65535. */
  port: Scalars['Int']['input'];
};

/** A server-side target. */
export type V2ServerEgressInput = {
  /** Host name or address of the server (not empty). */
  host: Scalars['String']['input'];
  /** Port of the server, 1 to 65535. */
  port: Scalars['Int']['input'];
  /** Protocol: `tcp` or `udp`. */
  protocol: Scalars['String']['input'];
};

/**
 * A service's `model`. Which fields are given depends on `modelType`, checked
 * before any call: `TunnelerToEndpoint` needs `bindEndpointAttributes` (not empty) and
 * `serverEgress`, and no `edgeRouterHosts`; `TunnelerToEdgeRouter` needs `edgeRouterHosts` (not
 * empty), and neither `bindEndpointAttributes` nor `serverEgress`. Both need `clientIngress`.
 */
export type V2ServiceModelInput = {
  /** `TunnelerToEndpoint`: which endpoints host the service. Role attributes: `#tag`, `@name` or `#all`. */
  bindEndpointAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The client-side name and port (both model types). */
  clientIngress: V2HostPortInput;
  /** Which edge routers may carry the service. Role attributes: `#tag`, `@name` or `#all`. */
  edgeRouterAttributes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** `TunnelerToEdgeRouter`: the hosting edge routers, each with its own target. */
  edgeRouterHosts?: InputMaybe<Array<V2EdgeRouterHostInput>>;
  /** `TunnelerToEndpoint`: the server-side target shared by every hosting endpoint. */
  serverEgress?: InputMaybe<V2ServerEgressInput>;
};

/**
 * How a v2 service is hosted: the model type decides the shape of `model` (bind attributes and a
 * server egress for `TunnelerToEndpoint`, edge router hosts for `TunnelerToEdgeRouter`).
 */
export type V2ServiceModelType =
  /** Hosted by edge routers: `model.edgeRouterHosts` lists the hosting routers, each with its own `serverEgress`. */
  | 'TunnelerToEdgeRouter'
  /** Hosted by endpoints: `model.bindEndpointAttributes` picks the hosting endpoints, `model.serverEgress` is the shared server-side target. */
  | 'TunnelerToEndpoint';

/** Where a workflow stands, derived from its steps. */
export type WorkflowState =
  /** A step reported a failure (a status containing `fail` or `error`). */
  | 'FAILED'
  /** At least one step is not finished and none failed. */
  | 'RUNNING'
  /** Every step completed. */
  | 'SUCCEEDED';

export type MapNetworksQueryVariables = Exact<{ [key: string]: never; }>;


export type MapNetworksQuery = { __typename?: 'Query', networks?: { __typename?: 'NetworkConnection', nodes: Array<{ __typename?: 'Network', id: string, name?: string | null, statusName?: string | null }> } | null };

export type MapResourceFragment = { __typename?: 'NetworkResourceState', kind: NetworkResourceKind, id: string, name?: string | null, status?: number | null, statusName?: string | null, endpointType?: string | null, currentStateName?: string | null, serviceClass?: string | null, endpointId?: string | null, gatewayClusterId?: string | null };

export type MapNetworkChangesSubscriptionVariables = Exact<{
  networkId: Scalars['UUID']['input'];
}>;


export type MapNetworkChangesSubscription = { __typename?: 'Subscription', networkChanges: { __typename?: 'NetworkChangesEvent', networkId: string, snapshot: boolean, networkDeleted: boolean, inProgress: boolean, observedAt: string, network?: { __typename?: 'Network', id: string, name?: string | null, statusName?: string | null } | null, added: Array<{ __typename?: 'NetworkResourceState', kind: NetworkResourceKind, id: string, name?: string | null, status?: number | null, statusName?: string | null, endpointType?: string | null, currentStateName?: string | null, serviceClass?: string | null, endpointId?: string | null, gatewayClusterId?: string | null }>, removed: Array<{ __typename?: 'NetworkResourceState', kind: NetworkResourceKind, id: string, name?: string | null }>, changed: Array<{ __typename?: 'NetworkResourceChange', before: { __typename?: 'NetworkResourceState', statusName?: string | null, name?: string | null }, after: { __typename?: 'NetworkResourceState', kind: NetworkResourceKind, id: string, name?: string | null, status?: number | null, statusName?: string | null, endpointType?: string | null, currentStateName?: string | null, serviceClass?: string | null, endpointId?: string | null, gatewayClusterId?: string | null } }>, membershipsAdded: Array<{ __typename?: 'AppWanMembership', appWanId: string, memberKind: AppWanMemberKind, memberId: string }>, membershipsRemoved: Array<{ __typename?: 'AppWanMembership', appWanId: string, memberKind: AppWanMemberKind, memberId: string }> } };

export type MapWorkflowSubscriptionVariables = Exact<{
  businessKey: Scalars['String']['input'];
}>;


export type MapWorkflowSubscription = { __typename?: 'Subscription', workflow: { __typename?: 'Workflow', processDefinitionKey?: string | null, state: WorkflowState, done: boolean, steps: Array<{ __typename?: 'WorkflowStep', task?: string | null, status?: string | null }> } };

export type MapAppWanChangeFragment = { __typename?: 'AppWanChangePayload', accepted: boolean, businessKey?: string | null, appWan?: { __typename?: 'AppWan', id: string, status?: number | null, statusName?: string | null } | null };

export type MapAuthorizeEndpointMutationVariables = Exact<{
  networkId: Scalars['UUID']['input'];
  id: Scalars['UUID']['input'];
  ids: Array<Scalars['UUID']['input']> | Scalars['UUID']['input'];
}>;


export type MapAuthorizeEndpointMutation = { __typename?: 'Mutation', addAppWanEndpoints?: { __typename?: 'AppWanChangePayload', accepted: boolean, businessKey?: string | null, appWan?: { __typename?: 'AppWan', id: string, status?: number | null, statusName?: string | null } | null } | null };

export type MapCreateServiceMutationVariables = Exact<{
  networkId: Scalars['UUID']['input'];
  input: CreateServiceInput;
}>;


export type MapCreateServiceMutation = { __typename?: 'Mutation', createService?: { __typename?: 'ServiceChangePayload', accepted: boolean, id?: string | null, service?: { __typename?: 'Service', id: string, name?: string | null, status?: number | null, statusName?: string | null, serviceClass?: ServiceClass | null, endpointId?: string | null, gatewayClusterId?: string | null } | null } | null };

export type MapAddServiceMutationVariables = Exact<{
  networkId: Scalars['UUID']['input'];
  id: Scalars['UUID']['input'];
  ids: Array<Scalars['UUID']['input']> | Scalars['UUID']['input'];
}>;


export type MapAddServiceMutation = { __typename?: 'Mutation', addAppWanServices?: { __typename?: 'AppWanChangePayload', accepted: boolean, businessKey?: string | null, appWan?: { __typename?: 'AppWan', id: string, status?: number | null, statusName?: string | null } | null } | null };

export const MapResourceFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MapResource"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NetworkResourceState"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}},{"kind":"Field","name":{"kind":"Name","value":"endpointType"}},{"kind":"Field","name":{"kind":"Name","value":"currentStateName"}},{"kind":"Field","name":{"kind":"Name","value":"serviceClass"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"gatewayClusterId"}}]}}]} as unknown as DocumentNode<MapResourceFragment, unknown>;
export const MapAppWanChangeFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MapAppWanChange"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AppWanChangePayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"businessKey"}},{"kind":"Field","name":{"kind":"Name","value":"appWan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}}]}}]}}]} as unknown as DocumentNode<MapAppWanChangeFragment, unknown>;
export const MapNetworksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"mapNetworks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"networks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1000"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}}]}}]}}]}}]} as unknown as DocumentNode<MapNetworksQuery, MapNetworksQueryVariables>;
export const MapNetworkChangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"mapNetworkChanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"networkChanges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"networkId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"networkId"}},{"kind":"Field","name":{"kind":"Name","value":"snapshot"}},{"kind":"Field","name":{"kind":"Name","value":"networkDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"inProgress"}},{"kind":"Field","name":{"kind":"Name","value":"observedAt"}},{"kind":"Field","name":{"kind":"Name","value":"network"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MapResource"}}]}},{"kind":"Field","name":{"kind":"Name","value":"removed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"changed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"before"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"statusName"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"after"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MapResource"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"membershipsAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appWanId"}},{"kind":"Field","name":{"kind":"Name","value":"memberKind"}},{"kind":"Field","name":{"kind":"Name","value":"memberId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"membershipsRemoved"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appWanId"}},{"kind":"Field","name":{"kind":"Name","value":"memberKind"}},{"kind":"Field","name":{"kind":"Name","value":"memberId"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MapResource"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NetworkResourceState"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}},{"kind":"Field","name":{"kind":"Name","value":"endpointType"}},{"kind":"Field","name":{"kind":"Name","value":"currentStateName"}},{"kind":"Field","name":{"kind":"Name","value":"serviceClass"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"gatewayClusterId"}}]}}]} as unknown as DocumentNode<MapNetworkChangesSubscription, MapNetworkChangesSubscriptionVariables>;
export const MapWorkflowDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"mapWorkflow"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"businessKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workflow"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"businessKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"businessKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"processDefinitionKey"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<MapWorkflowSubscription, MapWorkflowSubscriptionVariables>;
export const MapAuthorizeEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"mapAuthorizeEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAppWanEndpoints"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"networkId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MapAppWanChange"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MapAppWanChange"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AppWanChangePayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"businessKey"}},{"kind":"Field","name":{"kind":"Name","value":"appWan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}}]}}]}}]} as unknown as DocumentNode<MapAuthorizeEndpointMutation, MapAuthorizeEndpointMutationVariables>;
export const MapCreateServiceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"mapCreateService"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateServiceInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createService"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"networkId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"service"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}},{"kind":"Field","name":{"kind":"Name","value":"serviceClass"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"gatewayClusterId"}}]}}]}}]}}]} as unknown as DocumentNode<MapCreateServiceMutation, MapCreateServiceMutationVariables>;
export const MapAddServiceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"mapAddService"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAppWanServices"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"networkId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"networkId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MapAppWanChange"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MapAppWanChange"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AppWanChangePayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accepted"}},{"kind":"Field","name":{"kind":"Name","value":"businessKey"}},{"kind":"Field","name":{"kind":"Name","value":"appWan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusName"}}]}}]}}]} as unknown as DocumentNode<MapAddServiceMutation, MapAddServiceMutationVariables>;