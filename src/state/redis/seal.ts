/**
 * What the fleet keeps in Redis that must not be read there in clear (a running provisioning's
 * token, a poller's values: upstream records carry enrollment secrets), sealed with AES-256-GCM
 * under a key derived from `FLEET_TOKEN_KEY` for its purpose, and bound to where it belongs (the
 * associated data: a sealed value moved to another key, run or plan does not open).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';

/** The purposes a key is derived for: one key never serves two of them. */
export type SealPurpose = 'token' | 'poll-value' | 'provisioning-entry' | 'verdict' | 'idempotency-result' | 'idempotency-name';

/** A sub-key of the fleet key for one purpose (HKDF-SHA256); the fleet key itself seals nothing. */
export function deriveKey(fleetKey: Buffer, purpose: SealPurpose): Buffer {
  // The token keeps the fleet key itself: tokens sealed before the derivation existed still open.
  if (purpose === 'token') return fleetKey;
  return Buffer.from(hkdfSync('sha256', fleetKey, Buffer.alloc(0), `netgraph ${purpose}`, 32));
}

export function seal(key: Buffer, clear: string, associated: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associated));
  const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
}

/** The clear text, or null when it does not open (another key, another place, altered). */
export function open(key: Buffer, sealed: string, associated: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** An HMAC-SHA256 of `text` (base64): what proves a readable value was written by a holder of the key. */
export function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64');
}

export function macMatches(key: Buffer, text: string, claimed: string): boolean {
  const expected = Buffer.from(mac(key, text), 'base64');
  const given = Buffer.from(claimed, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An HMAC-SHA256 (base64) over several fields at once, each length-prefixed so that no two lists
 * of fields give the same input (`['ab','c']` is not `['a','bc']`). What a value read back from
 * Redis is bound to (its key's hash, its expiry, its version) goes in beside the value itself.
 */
export function macFields(key: Buffer, fields: readonly string[]): string {
  const hmac = createHmac('sha256', key);
  for (const field of fields) hmac.update(`${Buffer.byteLength(field)}:`).update(field);
  return hmac.digest('base64');
}

/** Whether `claimed` is `macFields(key, fields)` (compared in constant time). */
export function macFieldsMatch(key: Buffer, fields: readonly string[], claimed: unknown): boolean {
  if (typeof claimed !== 'string') return false;
  const expected = Buffer.from(macFields(key, fields), 'base64');
  const given = Buffer.from(claimed, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
