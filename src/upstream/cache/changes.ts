/**
 * Changes sent through the gateway, as the cache and the followers hear of them: `changed` makes
 * the cache forget what the change touched at once (this replica), tells this replica's listeners
 * (the pollers that follow what it touched poll at once) and publishes it to the fleet (`ChangeBus`,
 * src/state/redis/change-bus.ts); a change heard from another replica does the same here, without
 * publishing it again.
 */
import type { ChangeNotice } from './change-scope';
import type { UpstreamCache } from './store';

/** Where a change goes (the cache step tells it of each change it passes). */
export interface ChangeSink {
  changed(notice: ChangeNotice): void;
}

/** The fleet's channel of changes (Redis pub/sub); none when the process is alone. */
export interface ChangeBus {
  publish(notice: ChangeNotice): void;
  /** `handler` hears the changes other replicas publish. */
  listen(handler: (notice: ChangeNotice) => void): void;
}

export interface ChangeFeed extends ChangeSink {
  /** `listener` hears every change, this replica's and the fleet's (after the cache forgot it). */
  onChange(listener: (notice: ChangeNotice) => void): () => void;
}

export function createChangeFeed(cache: UpstreamCache, bus: ChangeBus | null): ChangeFeed {
  const listeners = new Set<(notice: ChangeNotice) => void>();
  const apply = (notice: ChangeNotice): void => {
    cache.invalidate(notice);
    for (const listener of listeners) listener(notice);
  };
  bus?.listen(apply);
  return {
    changed(notice) {
      apply(notice);
      bus?.publish(notice);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
