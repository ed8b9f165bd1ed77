/**
 * One `networkChanges` poll: the network and everything `state.ts` keeps of it, with the fewest
 * calls the network-management API allows, in two round trips:
 *
 * 1. the network record ‖ its endpoint, service, AppWAN and endpoint-group lists (whole, page by
 *    page: a page holds up to 200 items);
 * 2. per AppWAN, its member lists: endpoints ‖ services ‖ endpoint groups (the last only when the
 *    network has endpoint groups: an AppWAN can only hold groups of its own network).
 *
 * So a poll costs `1 + pages of the four lists + (2 or 3) × AppWANs` calls, however many
 * subscribers follow the network. There is no cheaper way to see memberships: the per-resource
 * relation lists (`/endpoints/{id}/appWans`) cost one call per endpoint, and the records carry
 * no member ids. The loaders are fresh for each poll (a session), so nothing cached hides a change.
 */
import type { PollSession } from '../../context';
import { ErrorCode } from '../../errors/codes';
import type { AppWanMemberKind } from '../../generated/graphql';
import { errorCodeOf } from '../../pollers';
import type { RelationParent } from '../../upstream/network/client';
import type { AppWanRecord } from '../../upstream/network/records';
import { relations } from '../../upstream/network/resources';
import {
  appWanState,
  endpointGroupState,
  endpointState,
  membershipKey,
  networkState,
  serviceState,
  type MembershipRecord,
  type NetworkState,
  type ResourceStateRecord,
} from './state';

/** An AppWAN's member ids, or null when it was gone by the time its lists were read. */
type Members = Record<AppWanMemberKind, readonly string[]> | null;

export async function readNetworkState(session: PollSession, networkId: string): Promise<NetworkState> {
  const loaders = session.loaders.network;
  const [network, endpoints, services, appWans, groups] = await Promise.all([
    loaders.byId('network', networkId),
    loaders.all('endpoint', networkId),
    loaders.all('service', networkId),
    loaders.all('appWan', networkId),
    loaders.all('endpointGroup', networkId),
  ]);
  const members = await Promise.all(appWans.map((a) => readMembers(session, networkId, a, groups.length > 0)));

  const resources = new Map<string, ResourceStateRecord>();
  for (const e of endpoints) resources.set(e.id, endpointState(e));
  for (const s of services) resources.set(s.id, serviceState(s));
  appWans.forEach((a, i) => {
    // An AppWAN deleted between the two round trips is left out, as the next poll will.
    if (members[i] !== null) resources.set(a.id, appWanState(a));
  });
  for (const g of groups) resources.set(g.id, endpointGroupState(g));

  const memberships = new Map<string, MembershipRecord>();
  appWans.forEach((a, i) => {
    const held = members[i];
    if (!held) return;
    for (const memberKind of MEMBER_KINDS) {
      for (const memberId of held[memberKind]) {
        const m: MembershipRecord = { appWanId: a.id, memberKind, memberId };
        memberships.set(membershipKey(m), m);
      }
    }
  });
  return networkState({ networkId, network, resources, memberships, upstreamCalls: session.calls.count });
}

const MEMBER_KINDS: readonly AppWanMemberKind[] = ['ENDPOINT', 'SERVICE', 'ENDPOINT_GROUP'];
const NONE: Promise<readonly { id: string }[]> = Promise.resolve([]);

async function readMembers(session: PollSession, networkId: string, appWan: AppWanRecord, networkHasGroups: boolean): Promise<Members> {
  const loaders = session.loaders.network;
  const parent: RelationParent = { id: appWan.id, networkId, links: appWan.links };
  try {
    const [endpoints, services, groups] = await Promise.all([
      loaders.members(relations.appWanEndpoints, parent),
      loaders.members(relations.appWanServices, parent),
      networkHasGroups ? loaders.members(relations.appWanEndpointGroups, parent) : NONE,
    ]);
    const ids = (list: readonly { id: string }[]): string[] => list.map((r) => r.id);
    return { ENDPOINT: ids(endpoints), SERVICE: ids(services), ENDPOINT_GROUP: ids(groups) };
  } catch (error) {
    if (errorCodeOf(error) === ErrorCode.NOT_FOUND) return null;
    throw error;
  }
}
