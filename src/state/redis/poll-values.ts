/**
 * A shared poller's values as they cross Redis (published on the target's channel and kept as its
 * latest value). A value is an upstream record, and records carry enrollment secrets (an
 * endpoint's `registrationKey`, its `jwt`); and anyone who may write to Redis could write a value
 * a listener would serve. So:
 *
 * - With `FLEET_TOKEN_KEY`, the kind's wire JSON is sealed (AES-256-GCM, a key derived for this
 *   purpose, the target's key as associated data) together with its order (`at`, the holder's
 *   count): only a holder of the key writes a value that opens, a value moved to another target
 *   does not open, and a listener takes only a value newer than the last it took (a replayed
 *   message is no news).
 * - Without it, nothing can be authenticated, so no field of a value goes to Redis at all (the
 *   allow-list is empty): the message only says the target changed, and a listener reads the
 *   target itself with its own subscribers' credentials. A forged message costs one such read.
 */
import { deriveKey, open, seal } from './seal';
import { Fields } from '../../core/parse';

export interface PollValueCodec {
  /** The fields of a `value` message for the kind's wire JSON of a value of the target at `place`, the `at`-th in order. */
  pack(json: unknown, place: string, at: number): Record<string, unknown>;
  /** The wire JSON of a `value` message and its order; null when this replica must read the target itself (no key, or sealed under another key). */
  unpack(message: Fields, place: string): { json: unknown; at: number } | null;
}

export function pollValueCodec(fleetKey: Buffer | null): PollValueCodec {
  if (fleetKey === null) return { pack: () => ({}), unpack: () => null };
  const key = deriveKey(fleetKey, 'poll-value');
  return {
    pack: (json, place, at) => ({ sealed: seal(key, JSON.stringify({ at, json }), place) }),
    unpack(message, place) {
      const sealed = message.str('sealed');
      const clear = sealed === null ? null : open(key, sealed, place);
      if (clear === null) return null;
      const inside = Fields.of(JSON.parse(clear), 'PollValue');
      const at = inside.int('at');
      return at === null ? null : { json: inside.raw('json'), at };
    },
  };
}
