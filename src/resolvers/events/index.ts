/**
 * The events area (schema/events.graphql): top talkers, alerts, usage series over the search
 * service, network events over the rest/v1 proxy. Arguments are checked before any call; the
 * search loaders check the caller upstream before the first search and answer NOT_CONFIGURED
 * without a search service.
 */
import { BadInputError } from '../../errors/codes';
import type { Resolvers } from '../../generated/graphql';
import { ALERT_INDEX, hitsBody, topTalkersBody, usageSeriesBody, USAGE_INDEX } from '../../upstream/search/bodies';
import type { SearchHitRecord } from '../../upstream/search/records';
import { Fields, type JsonObject } from '../../core/parse';
import { buildConnection, pageWindow, type ConnectionArgs } from '../connection';
import { topTalkersOf, usageSeriesOf } from './records';
import { boundedInt, intervalOf, timeWindow } from './time-window';

/** Search services refuse `from + size` beyond this (`index.max_result_window`). */
const MAX_RESULT_WINDOW = 10_000;
const MAX_BUCKETS = 100;
const MAX_POINTS = 1000;

/** The page a connection's arguments select, checked against the result window. */
function hitsWindow(args: ConnectionArgs): { offset: number; limit: number } {
  const window = pageWindow(args);
  if (window.offset + window.limit > MAX_RESULT_WINDOW) throw new BadInputError('after', `alerts and events can be paged through the first ${MAX_RESULT_WINDOW} hits; narrow the time window`);
  return window;
}

const field = (hit: SearchHitRecord) => new Fields(hit.source, 'hit');
const str = (key: string) => (hit: SearchHitRecord) => field(hit).str(key);

export const eventResolvers: Resolvers = {
  Query: {
    topTalkers: async (_r, { from, to, limit, addressLimit }, { loaders }) => {
      const window = timeWindow(from, to);
      const body = topTalkersBody(window, boundedInt(limit, 'limit', 1, MAX_BUCKETS), boundedInt(addressLimit, 'addressLimit', 1, MAX_BUCKETS));
      return topTalkersOf(await loaders.search.search(USAGE_INDEX, body), { from, to });
    },
    alerts: async (_r, { from, to, severity, first, after }, { loaders }) => {
      const window = timeWindow(from, to);
      const page = hitsWindow({ first, after });
      const filters: JsonObject[] = severity == null ? [] : [{ terms: { 'severity.keyword': severity } }];
      const answer = await loaders.search.search(ALERT_INDEX, hitsBody(window, filters, page.offset, page.limit));
      return buildConnection(answer.hits, page, answer.total ?? page.offset + answer.hits.length);
    },
    networkEvents: async (_r, { from, to, networkId, first, after }, { loaders }) => {
      const window = timeWindow(from, to);
      const page = hitsWindow({ first, after });
      const filters: JsonObject[] = networkId == null ? [] : [{ term: { 'networkId.keyword': networkId } }];
      const answer = await loaders.search.networkEvents(hitsBody(window, filters, page.offset, page.limit));
      return buildConnection(answer.hits, page, answer.total ?? page.offset + answer.hits.length);
    },
    usage: async (_r, { from, to, interval }, { loaders }) => {
      const window = timeWindow(from, to);
      const intervalMs = intervalOf(interval, window, MAX_POINTS);
      return usageSeriesOf(await loaders.search.search(USAGE_INDEX, usageSeriesBody(window, interval)), window, interval, intervalMs);
    },
  },
  Alert: {
    timestamp: str('@timestamp'),
    eventSourceType: str('event_source_type'),
    severity: str('severity'),
    message: str('message'),
    logs: (hit) => field(hit).strList('logs'),
  },
  NetworkEvent: {
    timestamp: (hit) => field(hit).str('@timestamp') ?? field(hit).str('timestamp'),
    networkId: str('networkId'),
    resourceId: str('resourceId'),
    resourceType: str('resourceType'),
    resourceName: str('resourceName'),
    eventType: str('eventType'),
    eventDescription: str('eventDescription'),
    eventSeverity: str('eventSeverity'),
    eventSource: str('eventSource'),
    commonName: str('commonName'),
    changeType: str('changeType'),
    identityId: str('identityId'),
    traceId: str('traceId'),
    tags: (hit) => field(hit).raw('tags'),
  },
};
