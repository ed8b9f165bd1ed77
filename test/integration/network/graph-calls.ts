/**
 * The calls the plans need for `networkGroups → networks → endpoints → AppWANs → services`, by
 * route, from the seed's shape (no endpoint count in it): list-plan.ts and plan.ts as a test
 * sees them. Shared by the batching and round-trip tests.
 */
import type { RestV1Facts, RunningSandbox } from '../../../src/sandbox';
import { chooseGroupMemberPlan } from '../../../src/upstream/network/plan';
import { sandboxIds } from './network-stack';

/** What the sandbox says about each network's AppWANs, read without the gateway (before `resetCalls`). */
export interface AppWanShape {
  networkId: string;
  /** AppWAN id → its direct endpoint members. */
  directEndpoints: Map<string, string[]>;
  /** AppWAN id → the endpoint groups it holds. */
  groups: Map<string, string[]>;
  /** Distinct endpoint groups held by some AppWAN of the network. */
  heldGroups: number;
}

export async function appWanShapes(sandbox: RunningSandbox, facts: RestV1Facts): Promise<AppWanShape[]> {
  return Promise.all(
    facts.networks.map(async (n) => {
      const directEndpoints = new Map<string, string[]>();
      const groups = new Map<string, string[]>();
      for (const a of n.appWanIds) {
        directEndpoints.set(a, await sandboxIds(sandbox, `/networks/${n.id}/appWans/${a}/endpoints`));
        groups.set(a, await sandboxIds(sandbox, `/networks/${n.id}/appWans/${a}/endpointGroups`));
      }
      return { networkId: n.id, directEndpoints, groups, heldGroups: new Set([...groups.values()].flat()).size };
    }),
  );
}

/** Endpoint-group member lists the index reads for one network (plan.ts `chooseGroupMemberPlan`). */
export function groupMemberCalls(n: RestV1Facts['networks'][number], shape: AppWanShape | undefined): number {
  const plan = chooseGroupMemberPlan({ networkGroups: n.endpointGroupIds.length, appWans: n.appWanIds.length });
  return plan === 'prefetch-all' ? n.endpointGroupIds.length : plan === 'held-after' ? (shape?.heldGroups ?? 0) : 0;
}

/**
 * The calls the plans need, from the seed's shape (no endpoint count in it): one network list for
 * all groups; per group of two networks or more its group-wide endpoint list, else per network;
 * per network the AppWAN and endpoint-group lists, per AppWAN its endpoints, services and (when the
 * network has groups) endpoint groups, and the groups' members (list-plan.ts, plan.ts).
 */
export function expectedCalls(facts: RestV1Facts, shapes: readonly AppWanShape[]): Record<string, number> {
  const appWans = facts.networks.reduce((sum, n) => sum + n.appWanIds.length, 0);
  const withGroups = facts.networks.filter((n) => n.endpointGroupIds.length > 0).reduce((sum, n) => sum + n.appWanIds.length, 0);
  const members = facts.networks.reduce((sum, n) => sum + groupMemberCalls(n, shapes.find((s) => s.networkId === n.id)), 0);
  const perGroup = new Map<string, number>();
  for (const n of facts.networks) perGroup.set(n.organizationId, (perGroup.get(n.organizationId) ?? 0) + 1);
  const shared = [...perGroup.values()].filter((count) => count >= 2);
  const alone = [...perGroup.values()].filter((count) => count === 1).length;
  return {
    'GET /rest/v1/network-groups': 1,
    'GET /rest/v1/networks': 1,
    ...(shared.length > 0 ? { 'GET /rest/v1/networkgroups/{organizationId}/endpoints': shared.length } : {}),
    ...(alone > 0 ? { 'GET /rest/v1/networks/{networkId}/endpoints': alone } : {}),
    'GET /rest/v1/networks/{networkId}/appWans': facts.networks.length,
    'GET /rest/v1/networks/{networkId}/endpointGroups': facts.networks.length,
    'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': appWans,
    ...(withGroups > 0 ? { 'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpointGroups': withGroups } : {}),
    'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': appWans,
    ...(members > 0 ? { 'GET /rest/v1/networks/{networkId}/endpointGroups/{endpointGroupId}/endpoints': members } : {}),
  };
}
