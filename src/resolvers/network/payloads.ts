/**
 * Payloads of rest/v1 changes (schema/network-changes.graphql). `accepted`, `httpStatus`,
 * `businessKey` and `id` are read straight off the ChangeResult; the workflow and the changed
 * resource are read only when selected, through the loaders (which forgot what the change touched).
 */
import type { GatewayContext } from '../../context';
import type { Resolvers } from '../../generated/graphql';
import type { ChangeResult } from '../../upstream/network/changes';
import type { RecordFor, ResourceKind } from '../../upstream/network/resources';

/** The workflow of the change's business key; null without one. */
const workflow = (p: { businessKey: string | null }, _a: unknown, { loaders }: GatewayContext) =>
  p.businessKey === null ? null : loaders.network.workflow(p.businessKey);

/** The resource as the upstream answered it; otherwise read by id, unless the change removed it. */
function changed<K extends ResourceKind>(kind: K) {
  return (p: ChangeResult<RecordFor<K>>, _a: unknown, { loaders }: GatewayContext): RecordFor<K> | Promise<RecordFor<K>> | null => {
    if (p.record !== null) return p.record;
    if (p.removed || p.id === null) return null;
    return loaders.network.byId(kind, p.id, p.networkId ?? undefined);
  };
}

export const changePayloads: Resolvers = {
  NetworkChangePayload: { workflow, network: changed('network') },
  NetworkGroupChangePayload: { workflow, networkGroup: changed('networkGroup') },
  EndpointChangePayload: { workflow, endpoint: changed('endpoint') },
  EndpointImportPayload: { workflow, endpoints: (p) => p.records },
  ServiceChangePayload: { workflow, service: changed('service') },
  ServiceImportPayload: { workflow, services: (p) => p.records },
  AppWanChangePayload: { workflow, appWan: changed('appWan') },
  EndpointGroupChangePayload: { workflow, endpointGroup: changed('endpointGroup') },
  GatewayClusterChangePayload: { workflow, gatewayCluster: changed('gatewayCluster') },
  CertificateAuthorityChangePayload: { workflow, certificateAuthority: changed('certificateAuthority') },
  NetworkConfigMetadataChangePayload: { workflow, networkConfigMetadata: changed('networkConfigMetadata') },
  CloudSubscriptionChangePayload: { workflow, cloudSubscription: changed('cloudSubscription') },
  // The contract has no fetch of one site by id: the answer's record or nothing.
  VirtualWanSiteChangePayload: { workflow, virtualWanSite: (p) => p.record },
};
