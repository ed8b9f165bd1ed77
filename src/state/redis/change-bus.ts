/**
 * The fleet's channel of changes sent through the gateway (`netgraph:changes`): each replica
 * publishes the changes it sent and hears the others', so every replica's upstream cache forgets
 * what a change touched and its followers poll at once (src/upstream/cache/changes.ts). A message
 * is the service and the changed path (resource ids, never a credential) and the sender's replica
 * id, so a replica skips its own; a service not in the table of upstream APIs
 * (src/core/upstream-apis.ts) is not heard. While Redis is away the changes stay on their replica.
 */
import { isUpstreamService } from '../../core/upstream-apis';
import { parseJsonObject } from '../../core/parse';
import type { ChangeBus } from '../../upstream/cache/changes';
import type { ChangeNotice } from '../../upstream/cache/change-scope';
import { PREFIX, RedisLink } from './link';

const CHANNEL = `${PREFIX}changes`;

export interface RedisChangeBus extends ChangeBus {
  close(): Promise<void>;
}

/** A bus on its own link (a command and a pub/sub connection) to `redisUrl`. */
export function createRedisChangeBus(redisUrl: string, warn: (message: string, fields?: Record<string, unknown>) => void): RedisChangeBus {
  const link = new RedisLink(redisUrl, warn);
  return {
    publish(notice) {
      if (!link.isUp) return;
      const message = JSON.stringify({ from: link.replicaId, service: notice.service, path: notice.path, ...(notice.seen ? { seen: true } : {}) });
      link.client.publish(CHANNEL, message).catch(() => undefined);
    },
    listen(handler) {
      void link.subscribe(CHANNEL, (message) => {
        const notice = parseNotice(message, link.replicaId);
        if (notice !== null) handler(notice);
      });
    },
    close: () => link.close(),
  };
}

/** A message of the channel as a change, or null: one of `self`'s own, or off the format (a service the table does not name). */
export function parseNotice(message: string, self: string): ChangeNotice | null {
  const value = parseJsonObject(message);
  if (value === null) return null;
  const fields = new Map(Object.entries(value));
  const service = fields.get('service');
  const path = fields.get('path');
  if (fields.get('from') === self || !isUpstreamService(service) || typeof path !== 'string') return null;
  return fields.get('seen') === true ? { service, path, seen: true } : { service, path };
}
