import { isObject, type JsonObject } from '../../src/core/parse';
import type { TopTalkerFacts } from '../search-facts';
import type { UpstreamFacts } from '../facts';
import { CheckError, field } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

function talkers(facts: UpstreamFacts): TopTalkerFacts {
  if (facts.topTalkers === null) throw new CheckError('topTalkers: no search service');
  return facts.topTalkers;
}

function objects(value: unknown, path: string): JsonObject[] {
  if (!Array.isArray(value) || !value.every(isObject)) throw new CheckError(`${path}: expected a list of objects`);
  return value;
}

export const topTalkers: BenchQuery = {
  name: 'topTalkers',
  document: loadDocument('top-talkers.graphql'),
  unavailable: (facts) => (facts.topTalkers === null ? 'no search service' : null),
  variables: (facts) => ({ from: talkers(facts).from, to: talkers(facts).to }),
  // The caller check (identity/v1: a search runs only for a verified caller of an allowed
  // organization) is made once per token and cached across requests (CALLER_VERIFY_TTL_MS).
  lowerBoundCalls: () => ({ value: 1, reason: 'one aggregation search (the caller check is cached per token across requests)' }),
  roundTrips: () => ({ value: 1, reason: 'the search (the caller check is cached per token across requests)' }),
  check(data, facts) {
    const expected = talkers(facts);
    const sources = objects(field(data, 'topTalkers', 'data')['sources'], 'topTalkers.sources');
    const actual = sources.map((s, i) => ({
      sourceId: s['sourceId'],
      transmitted: s['transmitted'],
      addresses: objects(s['addresses'], `topTalkers.sources[${i}].addresses`).map((a) => ({ address: a['address'], received: a['received'] })),
    }));
    if (JSON.stringify(actual) !== JSON.stringify(expected.sources)) {
      throw new CheckError(`topTalkers.sources: got ${JSON.stringify(actual).slice(0, 300)}, expected ${JSON.stringify(expected.sources).slice(0, 300)}`);
    }
  },
};
