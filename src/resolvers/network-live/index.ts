/**
 * `Subscription.networkChanges`: a thin adapter over the shared pollers (src/pollers). The poll
 * kind (poll.ts) reads the network's state; each subscriber's events are that state's deltas
 * (events.ts): the whole network first, then what changed since its previous event. With
 * `REDIS_URL` the fleet shares one poller per (network, token): its states travel as wire.ts
 * encodes them, and each replica works out its subscribers' deltas from them.
 */
import type { Resolvers } from '../../generated/graphql';
import { mapStream, sharedPayload } from '../../pollers';
import { deltaEvent, snapshotEvent } from './events';
import { networkChangesPoll } from './poll';
import { networkResourceTypename, type NetworkState } from './state';

// Subscribers at the same point (the same previous state) get the same payload object, so the
// pipeline runs one execution per event for all of them (src/pipeline/event-executions.ts).
const snapshotPayload = sharedPayload((state: NetworkState) => ({ networkChanges: snapshotEvent(state) }));
const deltasFrom = new WeakMap<NetworkState, (state: NetworkState) => { networkChanges: ReturnType<typeof deltaEvent> }>();
function deltaPayload(previous: NetworkState): (state: NetworkState) => { networkChanges: ReturnType<typeof deltaEvent> } {
  let from = deltasFrom.get(previous);
  if (from === undefined) {
    from = sharedPayload((state: NetworkState) => ({ networkChanges: deltaEvent(previous, state) }));
    deltasFrom.set(previous, from);
  }
  return from;
}

export const networkLiveResolvers: Resolvers = {
  Subscription: {
    networkChanges: {
      subscribe: (_root, { networkId }, ctx) => {
        const states = ctx.pollers.follow(networkChangesPoll, { networkId, polling: ctx.gateway.polling.network }, ctx.cancellation);
        let previous: NetworkState | null = null;
        return mapStream(states, (state) => {
          const payload = previous === null ? snapshotPayload(state) : deltaPayload(previous)(state);
          previous = state;
          return payload;
        });
      },
    },
  },
  NetworkResource: {
    __resolveType: (record) => networkResourceTypename(record),
  },
};
