/**
 * `networkChanges`' poll kind: one network read whole (read.ts) per poll, a change whenever a
 * resource, a membership or the network itself differs from the last state (state.ts), paced
 * by pace.ts. A network gone after it was seen ends it with a last, empty state; one that is not
 * there at the start is NOT_FOUND (the default classification). With `wire` (wire.ts), a fleet
 * of replicas polls each network once, whichever replicas its subscribers are on.
 */
import type { NetworkPolling, PollSession } from '../../context';
import { ErrorCode, UpstreamError } from '../../errors/codes';
import { errorCodeOf, type PollKind } from '../../pollers';
import { nextNetworkPause } from './pace';
import { readNetworkState } from './read';
import { deletedState, type NetworkState } from './state';
import { networkStateWire } from './wire';

export interface NetworkTarget {
  networkId: string;
  /** The gateway's pace bounds and the meter each poll's calls are counted on. */
  polling: NetworkPolling;
}

/** A poll failed because the network is not there: with what the poll cost, for the last state. */
class NetworkGoneError extends Error {
  constructor(
    readonly original: unknown,
    readonly upstreamCalls: number,
  ) {
    super('network gone', { cause: original });
  }
}

/**
 * The network itself is gone: a 404 from any of its reads (its lists answer 404 with it), or a 403
 * on its own record (deleted entities have been seen to answer 403).
 */
function isGone(error: unknown, networkId: string): boolean {
  const code = errorCodeOf(error);
  if (code === ErrorCode.NOT_FOUND) return true;
  return code === ErrorCode.FORBIDDEN && error instanceof UpstreamError && error.upstream.path.replace(/\/$/, '').endsWith(`/networks/${networkId}`);
}

/** The fingerprint each poller's last poll read, to tell the gateway's cache when the network changed. */
const lastRead = new WeakMap<NetworkTarget, string>();

export const networkChangesPoll: PollKind<NetworkTarget, NetworkState, PollSession> = {
  name: 'networkChanges',
  key: (t) => t.networkId,
  async poll(target, session) {
    try {
      const state = await readNetworkState(session, target.networkId);
      const before = lastRead.get(target);
      lastRead.set(target, state.fingerprint);
      if (before !== undefined && before !== state.fingerprint) target.polling.changed?.(target.networkId);
      return state;
    } catch (error) {
      throw isGone(error, target.networkId) ? new NetworkGoneError(error, session.calls.count) : error;
    } finally {
      target.polling.countPoll(session.calls.count);
    }
  },
  fingerprint: (s) => s.fingerprint,
  // A change sent through the gateway into this network (any resource or membership in it) is polled at once.
  wakes: (t, change) => change.service === 'rest-v1' && change.path.split('/').slice(1, 3).join('/') === `networks/${t.networkId}`,
  isTerminal: (s) => s.deleted,
  // A fleet shares one poller per network (src/state): listeners get the holder's states.
  wire: networkStateWire,
  classifyError(error, state, target) {
    if (!(error instanceof NetworkGoneError)) return undefined;
    // Seen before: deleted while followed. Never seen: the caller named a network that is not there.
    return state.last !== null ? { action: 'emit', value: deletedState(target.networkId, error.upstreamCalls) } : { action: 'fail', error: error.original };
  },
  nextPauseMs: (pace, target) => nextNetworkPause(pace, target.polling),
};
