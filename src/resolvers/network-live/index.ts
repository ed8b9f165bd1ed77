/**
 * `Subscription.networkChanges`: a thin adapter over the shared pollers (src/pollers). The poll
 * kind (poll.ts) reads the network's state; each subscriber's events are that state's deltas
 * (events.ts): the whole network first, then what changed since its previous event. With
 * `REDIS_URL` the fleet shares one poller per (network, token): its states travel as wire.ts
 * encodes them, and each replica works out its subscribers' deltas from them.
 */
import type { Resolvers } from '../../generated/graphql';
import { mapStream } from '../../pollers';
import { deltaEvent, snapshotEvent } from './events';
import { networkChangesPoll } from './poll';
import { networkResourceTypename, type NetworkState } from './state';

export const networkLiveResolvers: Resolvers = {
  Subscription: {
    networkChanges: {
      subscribe: (_root, { networkId }, ctx) => {
        const states = ctx.pollers.follow(networkChangesPoll, { networkId, polling: ctx.gateway.polling.network }, ctx.cancellation.abortSignal());
        let previous: NetworkState | null = null;
        return mapStream(states, (state) => {
          const networkChanges = previous === null ? snapshotEvent(state) : deltaEvent(previous, state);
          previous = state;
          return { networkChanges };
        });
      },
    },
  },
  NetworkResource: {
    __resolveType: (record) => networkResourceTypename(record),
  },
};
