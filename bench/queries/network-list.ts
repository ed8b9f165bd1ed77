import { isObject } from '../../src/core/parse';
import { CheckError, expectEqual, field, idsOf } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

const PAGE = 25;

export const networkList: BenchQuery = {
  name: 'networkList',
  document: loadDocument('network-list.graphql'),
  unavailable: (facts) => (facts.networks.length === 0 ? 'the sandbox has no networks' : null),
  variables: () => ({ first: PAGE }),
  lowerBoundCalls: () => ({ value: 1, reason: 'one page of the network list holds the window and its total' }),
  roundTrips: () => ({ value: 1, reason: 'a single list call' }),
  check(data, facts) {
    const conn = field(data, 'networks', 'data');
    const nodes = conn['nodes'];
    if (!Array.isArray(nodes) || !nodes.every(isObject)) throw new CheckError('networks.nodes: expected a list of objects');
    const expected = facts.networks.slice(0, PAGE).map((n) => n.id);
    const ids = idsOf(nodes, 'networks.nodes');
    // The first page in upstream order: same ids, same order.
    expectEqual(ids.join(','), expected.join(','), 'networks.nodes ids (first page, upstream order)');
    expectEqual(conn['totalCount'], facts.networks.length, 'networks.totalCount');
    nodes.forEach((n, i) => {
      if (typeof n['name'] !== 'string') throw new CheckError(`networks.nodes[${i}].name: expected a string`);
    });
  },
};
