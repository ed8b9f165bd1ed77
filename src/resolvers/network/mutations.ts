/**
 * rest/v1 mutations (schema/network-changes.graphql). Thin: each checks its input through the
 * kind's spec (change-input.ts, csv-input.ts; a bad input costs zero calls), then hands the
 * change to `loaders.network.changes()` (upstream/network/changes.ts), which sends it once and
 * makes the loaders forget what it touched.
 */
import { load as loadYaml, YAMLException } from 'js-yaml';
import { BadInputError, UpstreamError } from '../../errors/codes';
import type { GatewayContext } from '../../context';
import type { MutationResolvers } from '../../generated/graphql';
import type { ChangeTarget, memberChanges, MemberParentKind, WritableKind } from '../../upstream/network/changes';
import { isObject } from '../../core/parse';
import { createBody, inputSpecs, memberIds, updateBody } from './change-input';
import { checkCsv } from './csv-input';

const changesOf = (ctx: GatewayContext) => ctx.loaders.network.changes();

/** Checks the update first (no call on bad input), then reads, merges and PUTs. */
function update<K extends WritableKind>(ctx: GatewayContext, kind: K, target: ChangeTarget, input: object) {
  const { apply } = updateBody(input, inputSpecs[kind]);
  return changesOf(ctx).redefine(kind, target, apply);
}

function members<P extends MemberParentKind>(ctx: GatewayContext, parentKind: P, list: keyof (typeof memberChanges)[P] & string, op: 'add' | 'remove', target: ChangeTarget, ids: readonly string[]) {
  return changesOf(ctx).members(parentKind, list, op, target, memberIds(ids));
}

/** A YAML blueprint must parse, and be a mapping (a network's description). */
function checkBlueprint(text: string): void {
  let doc: unknown;
  try {
    doc = loadYaml(text);
  } catch (error) {
    const where = error instanceof YAMLException ? ` (line ${error.mark.line + 1}, column ${error.mark.column + 1})` : '';
    throw new BadInputError('input.blueprint', `input.blueprint is not valid YAML${where}`);
  }
  if (!isObject(doc)) throw new BadInputError('input.blueprint', 'input.blueprint must be a YAML mapping describing a network');
}

/** The application key is write-only: no message the upstream echoes may carry it back. */
async function hidingSecret<T>(secret: string, change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof UpstreamError && secret !== '' && error.message.includes(secret)) {
      throw new UpstreamError(error.code, error.message.split(secret).join('[redacted]'), error.upstream, { outcomeUnknown: error.outcomeUnknown });
    }
    throw error;
  }
}

export const networkMutations: MutationResolvers = {
  createNetwork: (_r, { input }, ctx) => changesOf(ctx).create('network', createBody(input, inputSpecs.network)),
  createNetworkFromBlueprint: (_r, { networkGroupId, input }, ctx) => {
    checkBlueprint(input.blueprint);
    return changesOf(ctx).createFromBlueprint(networkGroupId, input.blueprint);
  },
  updateNetwork: (_r, { id, input }, ctx) => update(ctx, 'network', { id }, input),
  deleteNetwork: (_r, { id }, ctx) => changesOf(ctx).destroy('network', { id }),

  createEndpoint: (_r, { networkId, input }, ctx) => changesOf(ctx).create('endpoint', createBody(input, inputSpecs.endpoint), networkId),
  importEndpoints: (_r, { networkId, input }, ctx) => {
    checkCsv('endpoint', input.csv);
    return changesOf(ctx).importCsv('endpoint', networkId, input.csv);
  },
  updateEndpoint: (_r, { networkId, id, input }, ctx) => update(ctx, 'endpoint', { id, networkId }, input),
  deleteEndpoint: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('endpoint', { id, networkId }),

  createService: (_r, { networkId, input }, ctx) => changesOf(ctx).create('service', createBody(input, inputSpecs.service), networkId),
  importServices: (_r, { networkId, input }, ctx) => {
    checkCsv('service', input.csv);
    return changesOf(ctx).importCsv('service', networkId, input.csv);
  },
  updateService: (_r, { networkId, id, input }, ctx) => update(ctx, 'service', { id, networkId }, input),
  deleteService: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('service', { id, networkId }),

  createAppWan: (_r, { networkId, input }, ctx) => changesOf(ctx).create('appWan', createBody(input, inputSpecs.appWan), networkId),
  updateAppWan: (_r, { networkId, id, input }, ctx) => update(ctx, 'appWan', { id, networkId }, input),
  deleteAppWan: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('appWan', { id, networkId }),
  addAppWanEndpoints: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'endpoints', 'add', { id, networkId }, input.ids),
  removeAppWanEndpoints: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'endpoints', 'remove', { id, networkId }, input.ids),
  addAppWanServices: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'services', 'add', { id, networkId }, input.ids),
  removeAppWanServices: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'services', 'remove', { id, networkId }, input.ids),
  addAppWanEndpointGroups: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'endpointGroups', 'add', { id, networkId }, input.ids),
  removeAppWanEndpointGroups: (_r, { networkId, id, input }, ctx) => members(ctx, 'appWan', 'endpointGroups', 'remove', { id, networkId }, input.ids),

  createEndpointGroup: (_r, { networkId, input }, ctx) => changesOf(ctx).create('endpointGroup', createBody(input, inputSpecs.endpointGroup), networkId),
  updateEndpointGroup: (_r, { networkId, id, input }, ctx) => update(ctx, 'endpointGroup', { id, networkId }, input),
  deleteEndpointGroup: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('endpointGroup', { id, networkId }),
  addEndpointGroupEndpoints: (_r, { networkId, id, input }, ctx) => members(ctx, 'endpointGroup', 'endpoints', 'add', { id, networkId }, input.ids),
  removeEndpointGroupEndpoints: (_r, { networkId, id, input }, ctx) => members(ctx, 'endpointGroup', 'endpoints', 'remove', { id, networkId }, input.ids),

  createGatewayCluster: (_r, { networkId, input }, ctx) => changesOf(ctx).create('gatewayCluster', createBody(input, inputSpecs.gatewayCluster), networkId),
  updateGatewayCluster: (_r, { networkId, id, input }, ctx) => update(ctx, 'gatewayCluster', { id, networkId }, input),
  deleteGatewayCluster: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('gatewayCluster', { id, networkId }),

  createCertificateAuthority: (_r, { networkId, input }, ctx) =>
    changesOf(ctx).create('certificateAuthority', createBody(input, inputSpecs.certificateAuthority), networkId),
  updateCertificateAuthority: (_r, { networkId, id, input }, ctx) => update(ctx, 'certificateAuthority', { id, networkId }, input),
  deleteCertificateAuthority: (_r, { networkId, id }, ctx) => changesOf(ctx).destroy('certificateAuthority', { id, networkId }),
  verifyCertificateAuthority: (_r, { networkId, id }, ctx) => changesOf(ctx).verifyCertificateAuthority({ id, networkId }),

  createNetworkConfigMetadata: (_r, { input }, ctx) => changesOf(ctx).create('networkConfigMetadata', createBody(input, inputSpecs.networkConfigMetadata)),
  updateNetworkConfigMetadata: (_r, { id, input }, ctx) => update(ctx, 'networkConfigMetadata', { id }, input),
  deleteNetworkConfigMetadata: (_r, { id }, ctx) => changesOf(ctx).destroy('networkConfigMetadata', { id }),

  createCloudSubscription: (_r, { input }, ctx) =>
    hidingSecret(input.applicationKey, changesOf(ctx).create('cloudSubscription', createBody(input, inputSpecs.cloudSubscription))),
  updateCloudSubscription: (_r, { id, input }, ctx) => hidingSecret(input.applicationKey, update(ctx, 'cloudSubscription', { id }, input)),
  deleteCloudSubscription: (_r, { id }, ctx) => changesOf(ctx).destroy('cloudSubscription', { id }),

  createVirtualWanSite: (_r, { cloudSubscriptionId, input }, ctx) =>
    changesOf(ctx).createVirtualWanSite(cloudSubscriptionId, { ...createBody(input, inputSpecs.virtualWanSite), cloudbSubscriptionId: cloudSubscriptionId }),
  deleteVirtualWanSite: (_r, { cloudSubscriptionId, id }, ctx) => changesOf(ctx).destroyVirtualWanSite(cloudSubscriptionId, id),

  updateNetworkGroup: (_r, { id, input }, ctx) => update(ctx, 'networkGroup', { id }, input),
};
