/**
 * A shared poller's values as they cross Redis (published on the target's channel and kept as its
 * latest value). A value is an upstream record, and records carry enrollment secrets (an
 * endpoint's `registrationKey`, its `jwt`): none may be readable in Redis.
 *
 * - With `FLEET_TOKEN_KEY`, the kind's wire JSON is sealed (AES-256-GCM, a key derived for this
 *   purpose, the target's key as associated data): listeners open it and serve it whole.
 * - Without it, secret fields are stripped, and a message that lost one says so (`partial`): a
 *   listener then reads the target itself with its own subscribers' credentials (one poll), so a
 *   subscriber asking for `registrationKey` still gets the right value.
 */
import { deriveKey, open, seal } from './seal';
import type { Fields } from '../../core/parse';

/** Field names whose values are secrets wherever they appear in a record (compared without case). */
const SECRET_FIELDS: ReadonlySet<string> = new Set(
  ['registrationKey', 'registrationToken', 'jwt', 'password', 'secret', 'clientSecret', 'applicationKey', 'privateKey', 'apiKey', 'passphrase', 'token', 'accessToken', 'refreshToken'].map((n) => n.toLowerCase()),
);

export const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase());

/** `json` without the values of secret fields (a null one is kept: it says nothing); `stripped` when one was dropped. */
export function stripSecrets(json: unknown): { json: unknown; stripped: boolean } {
  let stripped = false;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      if (isSecretField(name) && field !== null && field !== undefined) {
        stripped = true;
        continue;
      }
      out[name] = walk(field);
    }
    return out;
  };
  const result = walk(json);
  return { json: result, stripped };
}

export interface PollValueCodec {
  /** The fields of a `value` message for the kind's wire JSON of a value of the target at `place`. */
  pack(json: unknown, place: string): Record<string, unknown>;
  /** The wire JSON of a `value` message; null when this replica must read the target itself (stripped, or sealed under another key). */
  unpack(message: Fields, place: string): { json: unknown } | null;
}

export function pollValueCodec(fleetKey: Buffer | null): PollValueCodec {
  if (fleetKey !== null) {
    const key = deriveKey(fleetKey, 'poll-value');
    return {
      pack: (json, place) => ({ sealed: seal(key, JSON.stringify(json), place) }),
      unpack(message, place) {
        const sealed = message.str('sealed');
        const clear = sealed === null ? null : open(key, sealed, place);
        return clear === null ? null : { json: JSON.parse(clear) as unknown };
      },
    };
  }
  return {
    pack(json) {
      const { json: kept, stripped } = stripSecrets(json);
      return stripped ? { value: kept, partial: true } : { value: kept };
    },
    unpack: (message) => (message.bool('partial') === true || message.str('sealed') !== null ? null : { json: message.raw('value') }),
  };
}
