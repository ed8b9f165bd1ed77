import type { JsonObject } from '../../src/core/parse';
import type { AuthFacts, UpstreamFacts } from '../facts';
import { allNodes, CheckError, idsOf, pagingTrip, sameIds } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

function auth(facts: UpstreamFacts): AuthFacts {
  if (facts.auth === null) throw new CheckError('authTree: the sandbox has no auth/v1 area');
  return facts.auth;
}

export const authTree: BenchQuery = {
  name: 'authTree',
  document: loadDocument('auth-tree.graphql'),
  unavailable: (facts) => (facts.auth === null ? 'the sandbox has no auth/v1 area' : facts.auth.domainIds.length === 0 ? 'no domains' : null),
  variables: () => ({}),
  lowerBoundCalls(facts) {
    const a = auth(facts);
    return {
      value: a.domainPages + a.resourceTypePages + a.actionPages,
      reason: 'unfiltered domain, resource-type and resource-action lists hold the whole tree (grouped in memory)',
    };
  },
  roundTrips(facts) {
    const a = auth(facts);
    return {
      value: 1 + pagingTrip(a.domainPages, a.resourceTypePages, a.actionPages),
      reason: 'the three lists need no ids from each other, so they can run side by side',
    };
  },
  check(data, facts) {
    const a = auth(facts);
    const actionsOf = (typeId: string): string[] => a.actions.filter((x) => x.resourceTypeId === typeId).map((x) => x.id);
    const childrenOf = (typeId: string): string[] => a.resourceTypes.filter((t) => t.parentId === typeId).map((t) => t.id);
    const checkActions = (type: JsonObject, path: string): void => {
      const id = idsOf([type], path)[0] ?? '';
      sameIds(idsOf(allNodes(type, 'actions', path), `${path}.actions`), actionsOf(id), `${path}.actions`);
    };
    const domains = allNodes(data, 'domains', 'data');
    sameIds(idsOf(domains, 'domains'), a.domainIds, 'domains');
    domains.forEach((d, di) => {
      const dPath = `domains[${di}]`;
      const domainId = idsOf([d], dPath)[0] ?? '';
      const roots = allNodes(d, 'resourceTypes', dPath);
      const expectedRoots = a.resourceTypes.filter((t) => t.domainId === domainId && t.parentId === null).map((t) => t.id);
      sameIds(idsOf(roots, `${dPath}.resourceTypes`), expectedRoots, `${dPath}.resourceTypes`);
      roots.forEach((r, ri) => {
        const rPath = `${dPath}.resourceTypes[${ri}]`;
        checkActions(r, rPath);
        const children = allNodes(r, 'children', rPath);
        sameIds(idsOf(children, `${rPath}.children`), childrenOf(idsOf([r], rPath)[0] ?? ''), `${rPath}.children`);
        children.forEach((c, ci) => checkActions(c, `${rPath}.children[${ci}]`));
      });
    });
  },
};
