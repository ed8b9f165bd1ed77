/**
 * One `@refetchable` fragment per type that implements `Node`: Relay generates, for each, a query
 * that reads the object again by its global id (`node(nodeId:)`). test/integration/relay checks
 * that this file covers every Node type of the schema and runs each query against a gateway.
 */
import { graphql } from 'relay-runtime';

export const networkGroup = graphql`
  fragment NodeRefetch_NetworkGroup on NetworkGroup @refetchable(queryName: "NodeRefetchNetworkGroupQuery") {
    nodeId
    id
  }
`;

export const network = graphql`
  fragment NodeRefetch_Network on Network @refetchable(queryName: "NodeRefetchNetworkQuery") {
    nodeId
    id
  }
`;

export const endpoint = graphql`
  fragment NodeRefetch_Endpoint on Endpoint @refetchable(queryName: "NodeRefetchEndpointQuery") {
    nodeId
    id
  }
`;

export const service = graphql`
  fragment NodeRefetch_Service on Service @refetchable(queryName: "NodeRefetchServiceQuery") {
    nodeId
    id
  }
`;

export const appWan = graphql`
  fragment NodeRefetch_AppWan on AppWan @refetchable(queryName: "NodeRefetchAppWanQuery") {
    nodeId
    id
  }
`;

export const endpointGroup = graphql`
  fragment NodeRefetch_EndpointGroup on EndpointGroup @refetchable(queryName: "NodeRefetchEndpointGroupQuery") {
    nodeId
    id
  }
`;

export const gatewayCluster = graphql`
  fragment NodeRefetch_GatewayCluster on GatewayCluster @refetchable(queryName: "NodeRefetchGatewayClusterQuery") {
    nodeId
    id
  }
`;

export const certificateAuthority = graphql`
  fragment NodeRefetch_CertificateAuthority on CertificateAuthority @refetchable(queryName: "NodeRefetchCertificateAuthorityQuery") {
    nodeId
    id
  }
`;

export const serviceGroup = graphql`
  fragment NodeRefetch_ServiceGroup on ServiceGroup @refetchable(queryName: "NodeRefetchServiceGroupQuery") {
    nodeId
    id
  }
`;

export const transferNodePool = graphql`
  fragment NodeRefetch_TransferNodePool on TransferNodePool @refetchable(queryName: "NodeRefetchTransferNodePoolQuery") {
    nodeId
    id
  }
`;

export const host = graphql`
  fragment NodeRefetch_Host on Host @refetchable(queryName: "NodeRefetchHostQuery") {
    nodeId
    id
  }
`;

export const dataCenter = graphql`
  fragment NodeRefetch_DataCenter on DataCenter @refetchable(queryName: "NodeRefetchDataCenterQuery") {
    nodeId
    id
  }
`;

export const geoRegion = graphql`
  fragment NodeRefetch_GeoRegion on GeoRegion @refetchable(queryName: "NodeRefetchGeoRegionQuery") {
    nodeId
    id
  }
`;

export const networkConfigMetadata = graphql`
  fragment NodeRefetch_NetworkConfigMetadata on NetworkConfigMetadata @refetchable(queryName: "NodeRefetchNetworkConfigMetadataQuery") {
    nodeId
    id
  }
`;

export const cloudSubscription = graphql`
  fragment NodeRefetch_CloudSubscription on CloudSubscription @refetchable(queryName: "NodeRefetchCloudSubscriptionQuery") {
    nodeId
    id
  }
`;

export const domain = graphql`
  fragment NodeRefetch_Domain on Domain @refetchable(queryName: "NodeRefetchDomainQuery") {
    nodeId
    id
  }
`;

export const resourceType = graphql`
  fragment NodeRefetch_ResourceType on ResourceType @refetchable(queryName: "NodeRefetchResourceTypeQuery") {
    nodeId
    id
  }
`;

export const resourceAction = graphql`
  fragment NodeRefetch_ResourceAction on ResourceAction @refetchable(queryName: "NodeRefetchResourceActionQuery") {
    nodeId
    id
  }
`;

export const superUser = graphql`
  fragment NodeRefetch_SuperUser on SuperUser @refetchable(queryName: "NodeRefetchSuperUserQuery") {
    nodeId
    id
  }
`;

export const publicGrant = graphql`
  fragment NodeRefetch_PublicGrant on PublicGrant @refetchable(queryName: "NodeRefetchPublicGrantQuery") {
    nodeId
    id
  }
`;

// Grants have no REST `id`: `nodeId` holds what finds one (its kind, `grantId` and identity).
export const customRoleGrant = graphql`
  fragment NodeRefetch_CustomRoleGrant on CustomRoleGrant @refetchable(queryName: "NodeRefetchCustomRoleGrantQuery") {
    nodeId
    grantId
  }
`;

export const identityResourceActionGrant = graphql`
  fragment NodeRefetch_IdentityResourceActionGrant on IdentityResourceActionGrant @refetchable(queryName: "NodeRefetchIdentityResourceActionGrantQuery") {
    nodeId
    grantId
  }
`;

export const publicGrantGrant = graphql`
  fragment NodeRefetch_PublicGrantGrant on PublicGrantGrant @refetchable(queryName: "NodeRefetchPublicGrantGrantQuery") {
    nodeId
    grantId
  }
`;

export const superUserGrant = graphql`
  fragment NodeRefetch_SuperUserGrant on SuperUserGrant @refetchable(queryName: "NodeRefetchSuperUserGrantQuery") {
    nodeId
    grantId
  }
`;

export const v2Network = graphql`
  fragment NodeRefetch_V2Network on V2Network @refetchable(queryName: "NodeRefetchV2NetworkQuery") {
    nodeId
    id
  }
`;

export const edgeRouter = graphql`
  fragment NodeRefetch_EdgeRouter on EdgeRouter @refetchable(queryName: "NodeRefetchEdgeRouterQuery") {
    nodeId
    id
  }
`;

export const edgeRouterPolicy = graphql`
  fragment NodeRefetch_EdgeRouterPolicy on EdgeRouterPolicy @refetchable(queryName: "NodeRefetchEdgeRouterPolicyQuery") {
    nodeId
    id
  }
`;

export const v2Service = graphql`
  fragment NodeRefetch_V2Service on V2Service @refetchable(queryName: "NodeRefetchV2ServiceQuery") {
    nodeId
    id
  }
`;

export const v2AppWan = graphql`
  fragment NodeRefetch_V2AppWan on V2AppWan @refetchable(queryName: "NodeRefetchV2AppWanQuery") {
    nodeId
    id
  }
`;

export const v2Endpoint = graphql`
  fragment NodeRefetch_V2Endpoint on V2Endpoint @refetchable(queryName: "NodeRefetchV2EndpointQuery") {
    nodeId
    id
  }
`;
